// RequestFramer without sockets: every framing rule, every split of the input, pipelined requests.
#include <QTest>
#include <http/requestframer.h>

using namespace berth;

namespace {

// What framing a whole stream produced: one line per event, so that differently split feeds can be compared.
QByteArrayList frameAll(const QByteArray &stream, qsizetype pieceSize)
{
    RequestFramer framer;
    QByteArrayList events;
    qsizetype pos = 0;
    while (pos < stream.size() && framer.state() != RequestFramer::State::Failed) {
        const qsizetype n = qMin(pieceSize, stream.size() - pos);
        QByteArrayView piece(stream.constData() + pos, n);
        while (!piece.isEmpty() && framer.state() != RequestFramer::State::Failed) {
            const qsizetype used = framer.feed(piece);
            piece = piece.sliced(used);
            if (framer.state() == RequestFramer::State::HeadComplete) {
                const FramedHead &h = framer.head();
                events << h.method + ' ' + h.target + " len=" + QByteArray::number(h.contentLength) + " head="
                        + QByteArray::number(framer.headBytes()) + " fields=" + QByteArray::number(h.headers.size());
                framer.beginBody();
            }
            if (framer.state() == RequestFramer::State::MessageComplete) {
                events << "end";
                framer.reset();
            }
            if (used == 0 && framer.state() != RequestFramer::State::Failed && !piece.isEmpty())
                events << "stuck";
        }
        pos += n;
    }
    if (framer.state() == RequestFramer::State::Failed)
        events << "error " + QByteArray::number(framer.errorStatus());
    return events;
}

int statusOf(const QByteArray &request)
{
    RequestFramer framer;
    framer.feed(request);
    if (framer.state() == RequestFramer::State::Failed)
        return framer.errorStatus();
    return framer.state() == RequestFramer::State::HeadComplete ? 200 : 0; // 0: still waiting for more
}

const QByteArray host = "Host: a.test\r\n";

} // namespace

class TestRequestFramer final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parsesHead();
    void rules_data();
    void rules();
    void exactLimits();
    void connectionAndExpect();
    void upgradeRefused_data();
    void upgradeRefused();
    void cookieFieldsJoined();
    void stopsAtEndOfHead();
    void pipelinedHeadsAndBodies();
    void everySplitGivesTheSameResult_data();
    void everySplitGivesTheSameResult();
};

void TestRequestFramer::parsesHead()
{
    RequestFramer framer;
    const QByteArray head
        = "POST /a%20b?q=1 HTTP/1.1\r\nHost: Site.Test\r\nX-Thing:  v a l \t\r\nContent-Length: 12\r\n\r\n";
    QCOMPARE(framer.feed(head), head.size());
    QCOMPARE(framer.state(), RequestFramer::State::HeadComplete);
    const FramedHead &h = framer.head();
    QCOMPARE(h.method, QByteArray("POST"));
    QCOMPARE(h.target, QByteArray("/a%20b?q=1"));
    QCOMPARE(h.minorVersion, 1);
    QCOMPARE(h.host, QByteArray("Site.Test"));
    QCOMPARE(h.contentLength, 12);
    QCOMPARE(h.headers.size(), 3);
    QCOMPARE(h.headers.at(1).first, QByteArray("x-thing"));
    QCOMPARE(h.headers.at(1).second, QByteArray("v a l"));
    QCOMPARE(framer.headBytes(), head.size());
    framer.beginBody();
    QCOMPARE(framer.state(), RequestFramer::State::Body);
    QCOMPARE(framer.feed("0123456789abEXTRA"), 12);
    QCOMPARE(framer.state(), RequestFramer::State::MessageComplete);
}

void TestRequestFramer::rules_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<int>("status");
    QTest::newRow("valid") << QByteArray("GET / HTTP/1.1\r\n" + host + "\r\n") << 200;
    QTest::newRow("http/1.0 without host") << QByteArray("GET / HTTP/1.0\r\n\r\n") << 200;
    QTest::newRow("options *") << QByteArray("OPTIONS * HTTP/1.1\r\n" + host + "\r\n") << 200;
    QTest::newRow("get *") << QByteArray("GET * HTTP/1.1\r\n" + host + "\r\n") << 400;
    QTest::newRow("incomplete") << QByteArray("GET / HTTP/1.1\r\nHost: a") << 0;
    QTest::newRow("garbage") << QByteArray("\x16\x03\x01\x02\x00\x01\x00\r\n\r\n", 11) << 400;
    QTest::newRow("no target") << QByteArray("GET HTTP/1.1\r\n" + host + "\r\n") << 400;
    QTest::newRow("tab separator") << QByteArray("GET\t/ HTTP/1.1\r\n" + host + "\r\n") << 400;
    QTest::newRow("trailing space") << QByteArray("GET / HTTP/1.1 \r\n" + host + "\r\n") << 400;
    QTest::newRow("lower-case version") << QByteArray("GET / http/1.1\r\n" + host + "\r\n") << 400;
    QTest::newRow("http/0.9 line") << QByteArray("GET /\r\n\r\n") << 400;
    QTest::newRow("http/1.2") << QByteArray("GET / HTTP/1.2\r\n" + host + "\r\n") << 505;
    QTest::newRow("fragment") << QByteArray("GET /a#b HTTP/1.1\r\n" + host + "\r\n") << 400;
    QTest::newRow("control in target") << QByteArray("GET /a\x01 HTTP/1.1\r\n" + host + "\r\n") << 400;
    QTest::newRow("lower-case method") << QByteArray("get / HTTP/1.1\r\n" + host + "\r\n") << 501;
    QTest::newRow("trace") << QByteArray("TRACE / HTTP/1.1\r\n" + host + "\r\n") << 501;
    QTest::newRow("missing host") << QByteArray("GET / HTTP/1.1\r\nX: y\r\n\r\n") << 400;
    QTest::newRow("empty host ok") << QByteArray("GET / HTTP/1.1\r\nHost:\r\n\r\n") << 200;
    QTest::newRow("host with slash") << QByteArray("GET / HTTP/1.1\r\nHost: a/b\r\n\r\n") << 400;
    QTest::newRow("ipv6 host") << QByteArray("GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n") << 200;
    QTest::newRow("bare LF") << QByteArray("GET / HTTP/1.1\r\nHost: a\n\r\n") << 400;
    QTest::newRow("bare CR") << QByteArray("GET / HTTP/1.1\r\nHost: a\rX: y\r\n\r\n") << 400;
    QTest::newRow("leading LF") << QByteArray("\nGET / HTTP/1.1\r\n" + host + "\r\n") << 400;
    QTest::newRow("leading space") << QByteArray(" GET / HTTP/1.1\r\n" + host + "\r\n") << 400;
    QTest::newRow("obs-fold") << QByteArray("GET / HTTP/1.1\r\n" + host + "X: a\r\n\tb\r\n\r\n") << 400;
    QTest::newRow("no colon") << QByteArray("GET / HTTP/1.1\r\n" + host + "Xy\r\n\r\n") << 400;
    QTest::newRow("empty name") << QByteArray("GET / HTTP/1.1\r\n" + host + ": v\r\n\r\n") << 400;
    QTest::newRow("bad name") << QByteArray("GET / HTTP/1.1\r\n" + host + "X(y): v\r\n\r\n") << 400;
    QTest::newRow("DEL in value") << QByteArray("GET / HTTP/1.1\r\n" + host + "X: a\x7f\r\n\r\n") << 400;
    QTest::newRow("tab in value ok") << QByteArray("GET / HTTP/1.1\r\n" + host + "X: a\tb\r\n\r\n") << 200;
    QTest::newRow("utf-8 in value ok") << QByteArray("GET / HTTP/1.1\r\n" + host + "X: \xc3\xa9\r\n\r\n") << 200;
    QTest::newRow("cl list") << QByteArray("POST / HTTP/1.1\r\n" + host + "Content-Length: 3, 3\r\n\r\n") << 400;
    QTest::newRow("cl twice") << QByteArray(
        "POST / HTTP/1.1\r\n" + host + "content-length: 3\r\nContent-Length: 3\r\n\r\n")
                              << 400;
    QTest::newRow("cl sign") << QByteArray("POST / HTTP/1.1\r\n" + host + "Content-Length: +3\r\n\r\n") << 400;
    QTest::newRow("cl hex") << QByteArray("POST / HTTP/1.1\r\n" + host + "Content-Length: 0x3\r\n\r\n") << 400;
    QTest::newRow("cl empty") << QByteArray("POST / HTTP/1.1\r\n" + host + "Content-Length:\r\n\r\n") << 400;
    QTest::newRow("cl 16 digits") << QByteArray(
        "POST / HTTP/1.1\r\n" + host + "Content-Length: 1000000000000000\r\n\r\n")
                                  << 400;
    QTest::newRow("cl leading zeros") << QByteArray("POST / HTTP/1.1\r\n" + host + "Content-Length: 007\r\n\r\n")
                                      << 200;
    QTest::newRow("cl and te") << QByteArray(
        "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n")
                               << 400;
    QTest::newRow("chunked") << QByteArray("POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: gzip, Chunked\r\n\r\n")
                             << 411;
    QTest::newRow("te identity") << QByteArray("POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: identity\r\n\r\n")
                                 << 501;
    QTest::newRow("expect other") << QByteArray("PUT / HTTP/1.1\r\n" + host + "Expect: something\r\n\r\n") << 417;
    QTest::newRow("expect ignored on 1.0") << QByteArray("PUT / HTTP/1.0\r\nExpect: something\r\n\r\n") << 200;
}

void TestRequestFramer::rules()
{
    QFETCH(QByteArray, request);
    QFETCH(int, status);
    QCOMPARE(statusOf(request), status);
}

void TestRequestFramer::exactLimits()
{
    const QByteArray start = "GET / HTTP/1.1\r\n" + host;
    const QByteArray end = "\r\n";
    const qsizetype fill = kMaxHeadBytes - start.size() - end.size() - QByteArray("X: \r\n").size();
    QCOMPARE(statusOf(start + "X: " + QByteArray(fill, 'v') + "\r\n" + end), 200);
    QCOMPARE(statusOf(start + "X: " + QByteArray(fill + 1, 'v') + "\r\n" + end), 431);
    // An endless header line is refused as soon as it passes the limit, without waiting for its end.
    QCOMPARE(statusOf(start + "X: " + QByteArray(kMaxHeadBytes, 'v')), 431);
    // Endless empty lines before a request line count towards the head too.
    QCOMPARE(statusOf(QByteArray(kMaxHeadBytes + 2, '\n').replace("\n", "\r\n")), 431);

    QByteArray fields = "GET / HTTP/1.1\r\n" + host;
    for (int i = 1; i < kMaxHeaderFields; ++i)
        fields += "X-" + QByteArray::number(i) + ": v\r\n";
    QCOMPARE(statusOf(fields + "\r\n"), 200); // exactly 100 fields
    QCOMPARE(statusOf(fields + "X-last: v\r\n\r\n"), 431);

    const QByteArray longLine = "GET /" + QByteArray(kMaxRequestLineBytes - 14, 'a') + " HTTP/1.1\r\n";
    QCOMPARE(longLine.size(), kMaxRequestLineBytes + 2);
    QCOMPARE(statusOf(longLine + host + "\r\n"), 200);
    QCOMPARE(statusOf("GET /a" + longLine.sliced(5) + host + "\r\n"), 414);
}

void TestRequestFramer::connectionAndExpect()
{
    const auto headOf = [](const QByteArray &request) {
        RequestFramer framer;
        framer.feed(request);
        return framer.takeHead();
    };
    QVERIFY(headOf("GET / HTTP/1.1\r\n" + host + "\r\n").keepAlive);
    QVERIFY(!headOf("GET / HTTP/1.1\r\n" + host + "Connection: Close\r\n\r\n").keepAlive);
    QVERIFY(!headOf("GET / HTTP/1.1\r\n" + host + "Connection: foo, close\r\n\r\n").keepAlive);
    QVERIFY(!headOf("GET / HTTP/1.0\r\n\r\n").keepAlive);
    QVERIFY(headOf("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").keepAlive);
    QVERIFY(headOf("PUT / HTTP/1.1\r\n" + host + "Expect: 100-Continue\r\nContent-Length: 1\r\n\r\n").expectContinue);
    QVERIFY(!headOf("PUT / HTTP/1.1\r\n" + host + "Content-Length: 1\r\n\r\n").expectContinue);
}

void TestRequestFramer::upgradeRefused_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::newRow("websocket") << QByteArray(
        "GET / HTTP/1.1\r\n" + host + "Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n");
    QTest::newRow("post with body") << QByteArray("POST /_counter/x/increment HTTP/1.1\r\n" + host
        + "Connection: keep-alive, UPGRADE\r\nupgrade: x\r\n"
          "Content-Length: 2\r\n\r\n{}");
    QTest::newRow("h2c") << QByteArray("GET / HTTP/1.1\r\n" + host
        + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
          "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n");
    QTest::newRow("upgrade without connection") << QByteArray("GET / HTTP/1.1\r\n" + host + "Upgrade: a\r\n\r\n");
    QTest::newRow("empty upgrade") << QByteArray(
        "GET / HTTP/1.1\r\n" + host + "Connection: upgrade\r\nUpgrade:\r\n\r\n");
    QTest::newRow("http/1.0") << QByteArray("GET / HTTP/1.0\r\nConnection: upgrade\r\nUpgrade: a\r\n\r\n");
}

void TestRequestFramer::upgradeRefused()
{
    QFETCH(QByteArray, request);
    RequestFramer framer;
    framer.feed(request);
    QCOMPARE(framer.state(), RequestFramer::State::Failed);
    QCOMPARE(framer.errorStatus(), 501);
    QVERIFY(QByteArray(framer.errorMessage()).contains("Upgrade"));
    // Neither the Connection token alone nor a look-alike field name is an upgrade.
    QCOMPARE(statusOf("GET / HTTP/1.1\r\n" + host + "Connection: upgrade\r\n\r\n"), 200);
    QCOMPARE(statusOf("GET / HTTP/1.1\r\n" + host + "Upgrade-Insecure-Requests: 1\r\n\r\n"), 200);
}

void TestRequestFramer::cookieFieldsJoined()
{
    RequestFramer framer;
    framer.feed(
        "GET / HTTP/1.1\r\n" + host + "Cookie: a=1\r\nX: y\r\ncookie: b=2; c=3\r\nCookie:\r\nCOOKIE: d=4\r\n\r\n");
    QCOMPARE(framer.state(), RequestFramer::State::HeadComplete);
    const FramedHead head = framer.takeHead();
    QCOMPARE(head.headers.size(), 3); // host, cookie (one field, where the first was), x
    QCOMPARE(head.headers.at(1).first, QByteArray("cookie"));
    QCOMPARE(head.headers.at(1).second, QByteArray("a=1; b=2; c=3; d=4"));
    QCOMPARE(head.headers.at(2).first, QByteArray("x"));

    framer.reset();
    framer.feed("GET / HTTP/1.1\r\n" + host + "Cookie:\r\nCookie: b=2\r\n\r\n");
    QCOMPARE(framer.takeHead().headers.at(1).second, QByteArray("b=2"));

    // Joined fields still count one by one towards the field limit.
    QByteArray many = "GET / HTTP/1.1\r\n" + host;
    for (int i = 1; i < kMaxHeaderFields; ++i)
        many += "Cookie: c" + QByteArray::number(i) + "=v\r\n";
    QCOMPARE(statusOf(many + "\r\n"), 200);
    QCOMPARE(statusOf(many + "Cookie: last=v\r\n\r\n"), 431);
}

void TestRequestFramer::stopsAtEndOfHead()
{
    RequestFramer framer;
    const QByteArray head = "\r\n\r\nGET / HTTP/1.1\r\n" + host + "\r\n";
    QCOMPARE(framer.feed(head + "GET /next"), head.size());
    QCOMPARE(framer.headBytes(), head.size()); // the ignored empty lines are part of what QtHttpServer consumes
    QCOMPARE(framer.feed("more"), 0); // nothing more until the caller moves on
    framer.beginBody();
    QCOMPARE(framer.state(), RequestFramer::State::MessageComplete);
    framer.reset();
    QCOMPARE(framer.state(), RequestFramer::State::Head);
    QCOMPARE(framer.headBytes(), 0);
}

void TestRequestFramer::pipelinedHeadsAndBodies()
{
    const QByteArray stream = "POST /a HTTP/1.1\r\n" + host + "Content-Length: 5\r\n\r\nhello" + "GET /b HTTP/1.1\r\n"
        + host + "\r\n" + "PUT /c HTTP/1.1\r\n" + host + "Content-Length: 3\r\n\r\nxyz" + "GET /d HTTP/1.1\r\n" + host
        + "Content-Length: 3, 3\r\n\r\n";
    const QByteArrayList events = frameAll(stream, stream.size());
    QCOMPARE(events.size(), 7);
    QCOMPARE(events.at(0), QByteArray("POST /a len=5 head=53 fields=2"));
    QCOMPARE(events.at(1), QByteArray("end"));
    QVERIFY(events.at(2).startsWith("GET /b len=0"));
    QVERIFY(events.at(4).startsWith("PUT /c len=3"));
    QCOMPARE(events.at(6), QByteArray("error 400"));
}

void TestRequestFramer::everySplitGivesTheSameResult_data()
{
    QTest::addColumn<QByteArray>("stream");
    QTest::newRow("pipelined") << QByteArray("\r\nPOST /a HTTP/1.1\r\n" + host + "Content-Length: 5\r\n\r\nhello"
        + "GET /b?x HTTP/1.1\r\n" + host + "X: y\r\n\r\n");
    QTest::newRow("bare LF late") << QByteArray("GET / HTTP/1.1\r\n" + host + "X: 1\r\nY: 2\n\r\n");
    QTest::newRow("chunked") << QByteArray(
        "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
    QTest::newRow("oversized") << QByteArray(
        "GET / HTTP/1.1\r\n" + host + "X: " + QByteArray(kMaxHeadBytes, 'v') + "\r\n\r\n");
    QByteArray many = "GET / HTTP/1.1\r\n" + host;
    for (int i = 0; i < kMaxHeaderFields; ++i)
        many += "X-" + QByteArray::number(i) + ": v\r\n";
    QTest::newRow("101 fields") << QByteArray(many + "\r\nGET /smuggled HTTP/1.1\r\n" + host + "\r\n");
    QTest::newRow("upgrade then pipelined") << QByteArray("POST /a HTTP/1.1\r\n" + host
        + "Connection: Upgrade\r\nUpgrade: websocket\r\nContent-Length: 2\r\n\r\n{}GET /b HTTP/1.1\r\n" + host
        + "\r\n");
    QTest::newRow("split cookies") << QByteArray(
        "GET /c HTTP/1.1\r\n" + host + "Cookie: a=1\r\nCookie: b=2\r\n\r\n" + "GET /d HTTP/1.1\r\n" + host + "\r\n");
}

void TestRequestFramer::everySplitGivesTheSameResult()
{
    QFETCH(QByteArray, stream);
    const QByteArrayList whole = frameAll(stream, stream.size());
    QVERIFY(!whole.isEmpty());
    QVERIFY(!whole.contains("stuck"));
    QCOMPARE(frameAll(stream, 1), whole); // byte by byte
    // Two pieces, split at every byte boundary (the oversized cases: a sample of boundaries).
    const qsizetype step = stream.size() > 2000 ? 97 : 1;
    for (qsizetype split = 1; split < stream.size(); split += step) {
        RequestFramer framer;
        QByteArrayList events;
        for (QByteArrayView piece : {QByteArrayView(stream).first(split), QByteArrayView(stream).sliced(split)}) {
            while (!piece.isEmpty() && framer.state() != RequestFramer::State::Failed) {
                piece = piece.sliced(framer.feed(piece));
                if (framer.state() == RequestFramer::State::HeadComplete) {
                    const FramedHead &h = framer.head();
                    events << h.method + ' ' + h.target + " len=" + QByteArray::number(h.contentLength)
                            + " head=" + QByteArray::number(framer.headBytes())
                            + " fields=" + QByteArray::number(h.headers.size());
                    framer.beginBody();
                }
                if (framer.state() == RequestFramer::State::MessageComplete) {
                    events << "end";
                    framer.reset();
                }
            }
        }
        if (framer.state() == RequestFramer::State::Failed)
            events << "error " + QByteArray::number(framer.errorStatus());
        QCOMPARE(events, whole);
    }
}

QTEST_GUILESS_MAIN(TestRequestFramer)
#include "tst_requestframer.moc"
