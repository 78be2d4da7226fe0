// The access log on real sockets: Apache's vhost_combined lines, escaping a hostile client cannot get past, the
// anonymised address, daily rotation on an injected clock with the files kept, private modes, and a full or slow
// disk that drops (and counts) lines while every request is still answered.
#include "rawclient.h"
#include "testhandler.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <http/accesslog.h>
#include <http/accesslogline.h>
#include <http/httpservice.h>
#include <limits>
#include <memory>
#include <sys/stat.h>
#include <sys/time.h>

using namespace berth;
using namespace berth::test;

namespace {

// 2030-03-14T23:59:58Z: two seconds before a new UTC day.
constexpr qint64 kStartMs = 1899763198000;
constexpr qint64 kDayMs = 24 * 3600 * 1000;

// One vhost_combined line, each quoted field allowing only escaped quotes and backslashes: what goaccess reads.
const QRegularExpression kLine(QStringLiteral(
    "^([a-z0-9._-]+|-):(\\d+) (\\S+) - - "
    "\\[(\\d\\d/\\w{3}/\\d{4}:\\d\\d:\\d\\d:\\d\\d )\\+0000\\] "
    "\"((?:[^\"\\\\]|\\\\.)*)\" (\\d{3}) (\\d+) \"((?:[^\"\\\\]|\\\\.)*)\" \"((?:[^\"\\\\]|\\\\.)*)\"$"));

int modeOf(const QString &path)
{
    struct stat status
    {
    };
    return ::stat(QFile::encodeName(path).constData(), &status) == 0 ? int(status.st_mode & 07777) : -1;
}

std::atomic<int> accessLogWarnings {0};
QtMessageHandler previousHandler = nullptr;

void countingHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (message.contains(QLatin1String("access log")))
        ++accessLogWarnings;
    previousHandler(type, context, message);
}

} // namespace

class TestAccessLog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void cleanup();

    void lineInVhostCombined();
    void headAndHttp10AndMissingFields();
    void hostsThatAreNotNamesAreADash();
    void hostileFieldsStayOneLine();
    void escapesAsApacheDoes();
    void aLineOfTheLongestEscapesFitsItsRoom();
    void refusalAfterTheHeadIsLogged();
    void anonymizesAddresses();
    void rotatesDailyAndKeepsDays();
    void fileLeftByAnEarlierDayIsRotatedAtStart();
    void fileAndFolderArePrivate();
    void fullDiskDropsLinesAndKeepsServing();
    void slowDiskDropsAtTheBoundWithoutWaiting();

private:
    AccessLogOptions options(const QString &path);
    void serve(AccessLogOptions options);
    RawResponse get(const QByteArray &request, int *wireBytes = nullptr, bool head = false);
    QStringList lines(const QString &path);

    QTemporaryDir m_dir;
    std::atomic<qint64> m_now {kStartMs};
    std::unique_ptr<TestHandler> m_handler;
    std::unique_ptr<AccessLog> m_log;
    std::unique_ptr<HttpService> m_service;
    QString m_path;
};

void TestAccessLog::init()
{
    QVERIFY(m_dir.isValid());
    m_now = kStartMs;
    m_path = m_dir.filePath(QStringLiteral("logs/access.log"));
    QDir(m_dir.path()).removeRecursively();
    QVERIFY(QDir().mkpath(m_dir.path()));
}

void TestAccessLog::cleanup()
{
    m_service.reset();
    m_log.reset();
    m_handler.reset();
}

AccessLogOptions TestAccessLog::options(const QString &path)
{
    AccessLogOptions options;
    options.path = path;
    options.nowMs = [this] { return m_now.load(); };
    return options;
}

void TestAccessLog::serve(AccessLogOptions options)
{
    m_handler = std::make_unique<TestHandler>();
    m_log = std::make_unique<AccessLog>(std::move(options));
    const Result<void> started = m_log->start();
    QVERIFY2(started, started ? "" : qPrintable(started.error().message));
    m_service = std::make_unique<HttpService>(*m_handler);
    m_service->setAccessLog(m_log.get());
    QVERIFY(m_service->listen(QHostAddress::LocalHost, 0));
}

RawResponse TestAccessLog::get(const QByteArray &request, int *wireBytes, bool head)
{
    RawClient client;
    RawResponse response;
    if (!client.connectTo(m_service->serverPort()))
        return response;
    client.send(request);
    if (wireBytes) { // a request with Connection: close: everything the client received is its one response
        client.waitClosed();
        *wireBytes = int(client.received().size());
    }
    client.waitResponse(&response, head);
    return response;
}

QStringList TestAccessLog::lines(const QString &path)
{
    m_log->flush();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    const QByteArray all = file.readAll();
    if (!all.isEmpty() && !all.endsWith('\n'))
        return {QStringLiteral("(no final newline)")};
    QStringList result = QString::fromLatin1(all).split(QLatin1Char('\n'));
    result.removeLast();
    return result;
}

void TestAccessLog::lineInVhostCombined()
{
    serve(options(m_path));
    int wireBytes = 0;
    const RawResponse response
        = get("GET /a?b=1 HTTP/1.1\r\nHost: Site.Example:8080\r\nReferer: http://ref.example/x\r\n"
              "User-Agent: Tester/1.0 (X11)\r\nConnection: close\r\n\r\n",
            &wireBytes);
    QCOMPARE(response.status, 200);
    const QStringList logged = lines(m_path);
    QCOMPARE(logged.size(), 1);
    // %O is what went on the wire for the response: its head and body, all the client received.
    QCOMPARE(logged.first(),
        QStringLiteral("site.example:%1 127.0.0.1 - - [14/Mar/2030:23:59:58 +0000] \"GET /a?b=1 HTTP/1.1\" 200 %2 "
                       "\"http://ref.example/x\" \"Tester/1.0 (X11)\"")
            .arg(m_service->serverPort())
            .arg(wireBytes));
    QVERIFY(kLine.match(logged.first()).hasMatch());
}

void TestAccessLog::headAndHttp10AndMissingFields()
{
    serve(options(m_path));
    int headBytes = 0;
    QCOMPARE(get("HEAD /x HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n", &headBytes, true).status, 200);
    m_now += 1000;
    QCOMPARE(get("GET /304 HTTP/1.0\r\n\r\n").status, 304);
    const QStringList logged = lines(m_path);
    QCOMPARE(logged.size(), 2);
    const QRegularExpressionMatch head = kLine.match(logged.at(0));
    QVERIFY2(head.hasMatch(), qPrintable(logged.at(0)));
    QCOMPARE(head.captured(5), QStringLiteral("HEAD /x HTTP/1.1"));
    QCOMPARE(head.captured(7).toInt(), headBytes); // the head alone
    QCOMPARE(head.captured(8), QStringLiteral("-"));
    QCOMPARE(head.captured(9), QStringLiteral("-"));
    const QRegularExpressionMatch old = kLine.match(logged.at(1));
    QVERIFY2(old.hasMatch(), qPrintable(logged.at(1)));
    QCOMPARE(old.captured(1), QStringLiteral("-")); // no Host at all
    QCOMPARE(old.captured(4), QStringLiteral("14/Mar/2030:23:59:59 "));
    QCOMPARE(old.captured(5), QStringLiteral("GET /304 HTTP/1.0"));
    QCOMPARE(old.captured(6), QStringLiteral("304"));
}

void TestAccessLog::hostsThatAreNotNamesAreADash()
{
    serve(options(m_path));
    QCOMPARE(get("GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n").status, 200);
    QCOMPARE(get("GET / HTTP/1.1\r\nHost: a%20b\r\n\r\n").status, 200);
    const QStringList logged = lines(m_path);
    QCOMPARE(logged.size(), 2);
    for (const QString &line : logged) {
        QVERIFY2(line.startsWith(QStringLiteral("-:%1 ").arg(m_service->serverPort())), qPrintable(line));
        QVERIFY(kLine.match(line).hasMatch());
    }
}

void TestAccessLog::hostileFieldsStayOneLine()
{
    serve(options(m_path));
    // Quotes, backslashes, a tab and non-ASCII bytes in every field a client writes: an attempt to end the user
    // agent early and forge a second request's fields on the same line.
    const QByteArray forged = "x\" 200 1 \"-\" \"evil\\\" \t\xff";
    QCOMPARE(get("GET /p\"q\\r\xc3\xa9 HTTP/1.1\r\nHost: h.example\r\nReferer: " + forged + "\r\nUser-Agent: " + forged
                 + "\r\n\r\n")
                 .status,
        200);
    const QStringList logged = lines(m_path);
    QCOMPARE(logged.size(), 1);
    const QRegularExpressionMatch match = kLine.match(logged.first());
    QVERIFY2(match.hasMatch(), qPrintable(logged.first()));
    QCOMPARE(match.captured(5), QString::fromLatin1(R"(GET /p\"q\\r\xc3\xa9 HTTP/1.1)"));
    const QString escaped = QString::fromLatin1(R"(x\" 200 1 \"-\" \"evil\\\" \t\xff)");
    QCOMPARE(match.captured(8), escaped);
    QCOMPARE(match.captured(9), escaped);
    QCOMPARE(match.captured(6), QStringLiteral("200"));
}

void TestAccessLog::escapesAsApacheDoes()
{
    // What cannot arrive in a framed head (the framer refuses CR, LF and other controls) is escaped all the same.
    QByteArray out;
    AccessLogLine::appendEscaped(out, QByteArrayView("a\nb\rc\x1b\x7f\b\v\"\\\x01z", 13));
    QCOMPARE(out, QByteArray(R"(a\nb\rc\x1b\x7f\b\v\"\\\x01z)"));
    AccessEntry entry;
    entry.receivedMs = kStartMs;
    entry.method = "GET";
    entry.target = "/";
    entry.host = "h";
    entry.localPort = 80;
    entry.userAgent = "ua\n127.0.0.1 - - [01/Jan/2030:00:00:00 +0000] \"GET /forged HTTP/1.1\" 200 1 \"-\" \"-\"";
    QByteArray line;
    AccessLogLine::append(line, entry, "10.0.0.1", AccessLogLine::timestamp(kStartMs / 1000), 200, 5);
    QCOMPARE(line.count('\n'), 1);
    QVERIFY(line.endsWith('\n'));
    QVERIFY(kLine.match(QString::fromLatin1(line.chopped(1))).hasMatch());
}

// A line is written into room reckoned beforehand: with every byte a client sent escaped to four, appended after
// other lines to a buffer with no spare room, it is whole and exact (under AddressSanitizer too).
void TestAccessLog::aLineOfTheLongestEscapesFitsItsRoom()
{
    AccessEntry entry;
    entry.method = QByteArray(16, '\x01');
    entry.target = QByteArray(4096, '\xff');
    entry.host = QByteArray(300, 'A') + ":8080";
    entry.localPort = 65535;
    entry.referer = QByteArray(8192, '\x7f');
    entry.userAgent = QByteArray(8192, '\x1b');
    const QByteArray stamp = AccessLogLine::timestamp(kStartMs / 1000);
    QByteArray out("an earlier line\n");
    out.squeeze();
    AccessLogLine::append(
        out, entry, "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", stamp, 599, std::numeric_limits<qint64>::max());
    const QByteArray expected = "an earlier line\n" + QByteArray(300, 'a')
        + ":65535 2001:db8:ffff:ffff:ffff:ffff:ffff:ffff - - " + stamp + " \"" + QByteArray("\\x01").repeated(16) + ' '
        + QByteArray("\\xff").repeated(4096) + " HTTP/1.1\" 599 "
        + QByteArray::number(std::numeric_limits<qint64>::max()) + " \"" + QByteArray("\\x7f").repeated(8192) + "\" \""
        + QByteArray("\\x1b").repeated(8192) + "\"\n";
    QCOMPARE(out.size(), expected.size());
    QCOMPARE(out, expected);
}

void TestAccessLog::refusalAfterTheHeadIsLogged()
{
    serve(options(m_path));
    int wireBytes = 0;
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("POST /upload HTTP/1.1\r\nHost: h.example\r\nContent-Length: 5000\r\n\r\n");
    QVERIFY(client.waitClosed());
    wireBytes = int(client.received().size());
    RawResponse response;
    QVERIFY(client.takeResponse(&response));
    QCOMPARE(response.status, 413);
    const QStringList logged = lines(m_path);
    QCOMPARE(logged.size(), 1);
    const QRegularExpressionMatch match = kLine.match(logged.first());
    QVERIFY2(match.hasMatch(), qPrintable(logged.first()));
    QCOMPARE(match.captured(5), QStringLiteral("POST /upload HTTP/1.1"));
    QCOMPARE(match.captured(6), QStringLiteral("413"));
    QCOMPARE(match.captured(7).toInt(), wireBytes);
}

void TestAccessLog::anonymizesAddresses()
{
    QCOMPARE(
        AccessLogLine::clientAddress(QHostAddress(QStringLiteral("203.0.113.77")), true), QByteArray("203.0.113.0"));
    QCOMPARE(AccessLogLine::clientAddress(QHostAddress(QStringLiteral("2001:db8:1234:5678::1")), true),
        QByteArray("2001:db8:1234::"));
    QCOMPARE(AccessLogLine::clientAddress(QHostAddress(QStringLiteral("2001:db8:1234:5678::1")), false),
        QByteArray("2001:db8:1234:5678::1"));

    AccessLogOptions anonymous = options(m_path);
    anonymous.anonymize = true;
    serve(anonymous);
    RawClient client;
    QVERIFY(client.socket().bind(QHostAddress(QStringLiteral("127.0.0.5")), 0));
    QVERIFY(client.connectTo(m_service->serverPort()));
    client.send("GET / HTTP/1.1\r\nHost: h.example\r\n\r\n");
    RawResponse response;
    QVERIFY(client.waitResponse(&response));
    QCOMPARE(m_handler->last.peer, QHostAddress(QStringLiteral("127.0.0.5")));
    const QStringList logged = lines(m_path);
    QCOMPARE(logged.size(), 1);
    QCOMPARE(kLine.match(logged.first()).captured(3), QStringLiteral("127.0.0.0"));
}

void TestAccessLog::rotatesDailyAndKeepsDays()
{
    AccessLogOptions kept = options(m_path);
    kept.keepDays = 2;
    serve(kept);
    const auto requests = [this](int count) {
        for (int i = 0; i < count; ++i)
            QCOMPARE(get("GET / HTTP/1.1\r\nHost: h.example\r\n\r\n").status, 200);
        m_log->flush();
    };
    requests(1); // 14 March
    m_now += 3000; // 15 March, 00:00:01
    requests(2);
    QCOMPARE(lines(m_path + QStringLiteral(".1")).size(), 1);
    QVERIFY(lines(m_path + QStringLiteral(".1")).first().contains(QLatin1String("[14/Mar/2030:23:59:58 ")));
    QCOMPARE(lines(m_path).size(), 2);
    QVERIFY(lines(m_path).first().contains(QLatin1String("[15/Mar/2030:00:00:01 ")));
    m_now += kDayMs;
    requests(3);
    m_now += kDayMs;
    requests(4);
    // Today's file and two older days; the first day is gone.
    QCOMPARE(lines(m_path).size(), 4);
    QCOMPARE(lines(m_path + QStringLiteral(".1")).size(), 3);
    QCOMPARE(lines(m_path + QStringLiteral(".2")).size(), 2);
    QVERIFY(!QFileInfo::exists(m_path + QStringLiteral(".3")));
    QCOMPARE(modeOf(m_path + QStringLiteral(".2")), 0600);
    QCOMPARE(modeOf(m_path), 0600);
    // The same day again: no rotation.
    m_now += 1000;
    requests(1);
    QCOMPARE(lines(m_path).size(), 5);
    QVERIFY(!QFileInfo::exists(m_path + QStringLiteral(".3")));
}

void TestAccessLog::fileLeftByAnEarlierDayIsRotatedAtStart()
{
    // A server stopped before midnight and started after it: yesterday's file is rotated before today's first line.
    QVERIFY(QDir().mkpath(QFileInfo(m_path).absolutePath()));
    QFile old(m_path);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old line\n");
    old.close();
    const struct timeval yesterday[2] = {{(kStartMs - kDayMs) / 1000, 0}, {(kStartMs - kDayMs) / 1000, 0}};
    QCOMPARE(::utimes(QFile::encodeName(m_path).constData(), yesterday), 0);
    serve(options(m_path));
    QCOMPARE(get("GET / HTTP/1.1\r\nHost: h.example\r\n\r\n").status, 200);
    QCOMPARE(lines(m_path).size(), 1);
    QCOMPARE(lines(m_path + QStringLiteral(".1")), QStringList {QStringLiteral("old line")});
}

void TestAccessLog::fileAndFolderArePrivate()
{
    const QString nested = m_dir.filePath(QStringLiteral("private/logs/access.log"));
    serve(options(nested));
    QCOMPARE(get("GET / HTTP/1.1\r\nHost: h.example\r\n\r\n").status, 200);
    QCOMPARE(lines(nested).size(), 1);
    QCOMPARE(modeOf(nested), 0600);
    QCOMPARE(modeOf(QFileInfo(nested).absolutePath()), 0700);

    // A file made earlier with wider rights is narrowed.
    cleanup();
    QFile wide(m_path);
    QVERIFY(QDir().mkpath(QFileInfo(m_path).absolutePath()));
    QVERIFY(wide.open(QIODevice::WriteOnly));
    wide.close();
    QVERIFY(::chmod(QFile::encodeName(m_path).constData(), 0644) == 0);
    serve(options(m_path));
    QCOMPARE(modeOf(m_path), 0600);
}

void TestAccessLog::fullDiskDropsLinesAndKeepsServing()
{
    // /dev/full fails every write with ENOSPC, even for root.
    const int deviceMode = modeOf(QStringLiteral("/dev/full"));
    accessLogWarnings = 0;
    previousHandler = qInstallMessageHandler(countingHandler);
    serve(options(QStringLiteral("/dev/full")));
    RawClient client;
    QVERIFY(client.connectTo(m_service->serverPort()));
    constexpr int kRequests = 30;
    for (int i = 0; i < kRequests; ++i) {
        client.send("GET / HTTP/1.1\r\nHost: h.example\r\n\r\n");
        RawResponse response;
        QVERIFY(client.waitResponse(&response));
        QCOMPARE(response.status, 200);
        if (i == kRequests / 2)
            m_log->flush();
    }
    m_log->flush();
    QCOMPARE(m_log->droppedLines(), qint64(kRequests));
    QCOMPARE(m_handler->calls, kRequests);
    m_service.reset();
    m_log.reset();
    qInstallMessageHandler(previousHandler);
    QCOMPARE(accessLogWarnings.load(), 1); // said once, not once a line
    QCOMPARE(modeOf(QStringLiteral("/dev/full")), deviceMode); // a device is written as it is, never chmod-ed
}

void TestAccessLog::slowDiskDropsAtTheBoundWithoutWaiting()
{
    // The writer does not come round during the test (a disk that does not keep up): a serving thread keeps no more
    // than its bound and drops the rest at once instead of waiting.
    AccessLogOptions slow = options(m_path);
    slow.threadBufferBytes = 1; // the first line fits, the next finds the buffer full
    slow.flushIntervalMs = 3600 * 1000;
    serve(slow);
    constexpr int kRequests = 10;
    for (int i = 0; i < kRequests; ++i)
        QCOMPARE(get("GET / HTTP/1.1\r\nHost: h.example\r\n\r\n").status, 200);
    QCOMPARE(m_log->droppedLines(), qint64(kRequests - 1));
    QCOMPARE(lines(m_path).size(), 1);
    // Once written, the buffer takes lines again.
    QCOMPARE(get("GET / HTTP/1.1\r\nHost: h.example\r\n\r\n").status, 200);
    QCOMPARE(lines(m_path).size(), 2);
    QCOMPARE(m_log->droppedLines(), qint64(kRequests - 1));
}

QTEST_GUILESS_MAIN(TestAccessLog)
#include "tst_accesslog.moc"
