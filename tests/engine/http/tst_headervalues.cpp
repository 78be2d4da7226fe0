// The two small readers of request header values that every request goes through: the Host header as requests are
// dispatched by it (normalisedHost) and the Cookie header (cookieValue, appendCookieField). Fuzzed as well
// (tests/fuzz/fuzz_hostheader.cpp, fuzz_cookieheader.cpp); here the cases that define them.
#include <QTest>
#include <http/cookieheader.h>
#include <http/hostheader.h>
#include <http/httprequest.h>

using namespace berth;

class TestHeaderValues final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void host_data();
    void host();
    void requestHostIsTheSameReading();
    void cookie_data();
    void cookie();
    void cookieFieldsJoin();
    void everyCookieOfAName();
};

void TestHeaderValues::host_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QString>("expected");
    QTest::newRow("plain") << QByteArray("blog.localhost") << QStringLiteral("blog.localhost");
    QTest::newRow("port") << QByteArray("Blog.LocalHost:8080") << QStringLiteral("blog.localhost");
    QTest::newRow("whitespace") << QByteArray(" \tblog.localhost:80 ") << QStringLiteral("blog.localhost");
    QTest::newRow("ipv6 with port") << QByteArray("[::1]:8080") << QStringLiteral("[::1]");
    QTest::newRow("ipv6 bare") << QByteArray("[FE80::1]") << QStringLiteral("[fe80::1]");
    QTest::newRow("unclosed bracket") << QByteArray("[::1") << QStringLiteral("[::1");
    QTest::newRow("empty") << QByteArray() << QString();
    QTest::newRow("only a port") << QByteArray(":80") << QString();
    QTest::newRow("latin-1 byte") << QByteArray("\xC9X.localhost") << QStringLiteral(u"\u00E9x.localhost");
}

void TestHeaderValues::host()
{
    QFETCH(QByteArray, header);
    QFETCH(QString, expected);
    QCOMPARE(normalisedHost(header), expected);
}

// The dispatcher decides on the raw head (body limit) and then on the framed request (handler): one reading.
void TestHeaderValues::requestHostIsTheSameReading()
{
    for (const QByteArray &value : {QByteArray("A.Example:1"), QByteArray("[::1]:2"), QByteArray("x:y:z")}) {
        HttpRequest request;
        request.headers.append({"host", value});
        QCOMPARE(request.host(), normalisedHost(value));
    }
    QCOMPARE(HttpRequest().host(), QString());
}

void TestHeaderValues::cookie_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("only") << QByteArray("berth_access=v1") << QByteArray("v1");
    QTest::newRow("among others") << QByteArray("a=1; berth_access=v2;b=2") << QByteArray("v2");
    QTest::newRow("first wins") << QByteArray("berth_access=v3; berth_access=v4") << QByteArray("v3");
    QTest::newRow("whitespace trimmed") << QByteArray("a=1;\t berth_access=v5 ;") << QByteArray("v5");
    QTest::newRow("prefix is another name") << QByteArray("xberth_access=v; berth_accessx=v") << QByteArray();
    QTest::newRow("case-sensitive") << QByteArray("BERTH_ACCESS=v") << QByteArray();
    QTest::newRow("no value") << QByteArray("berth_access; berth_access=") << QByteArray();
    QTest::newRow("value keeps '='") << QByteArray("berth_access=a=b") << QByteArray("a=b");
    QTest::newRow("empty header") << QByteArray() << QByteArray();
}

void TestHeaderValues::cookie()
{
    QFETCH(QByteArray, header);
    QFETCH(QByteArray, expected);
    QCOMPARE(cookieValue(header, "berth_access"), expected);
}

void TestHeaderValues::cookieFieldsJoin()
{
    QByteArray joined;
    appendCookieField(joined, "");
    QCOMPARE(joined, QByteArray());
    appendCookieField(joined, "a=1");
    appendCookieField(joined, "");
    appendCookieField(joined, "b=2; c=3");
    QCOMPARE(joined, QByteArray("a=1; b=2; c=3"));
    QCOMPARE(cookieValue(joined, "c"), QByteArray("3"));
}

void TestHeaderValues::everyCookieOfAName()
{
    const QByteArray header = "berth_access=a; __Host-berth_access=h; x=1;berth_access=b ; berth_access=c";
    QCOMPARE(cookieValues(header, "berth_access", 8), (QList<QByteArray> {"a", "b", "c"}));
    QCOMPARE(cookieValues(header, "berth_access", 2), (QList<QByteArray> {"a", "b"})); // bounded
    QCOMPARE(cookieValues(header, "__Host-berth_access", 8), QList<QByteArray> {"h"});
    QVERIFY(cookieValues(header, "missing", 8).isEmpty());
    QVERIFY(cookieValues(QByteArray(), "berth_access", 8).isEmpty());
}

QTEST_GUILESS_MAIN(TestHeaderValues)
#include "tst_headervalues.moc"
