// The per-IP limit of POST /_submit (10 a minute) over real HTTP from distinct loopback sources, Retry-After, and
// which address counts: the TCP peer, or X-Forwarded-For only from a configured proxy. Time is a ManualClock.
#include "domain/common/clock.h"
#include "enginefixture.h"
#include "sourceclient.h"

#include <QTest>

using namespace Qt::StringLiterals;
using berth::test::EngineFixture;
using berth::test::SourceClient;
using berth::test::TestReply;

namespace {
const QDateTime kStart(QDate(2026, 11, 21), QTime(6, 0), Qt::UTC);
const QString kSlug = u"limit-site"_s;
const QByteArray kValid = R"({"message":"hi"})";
} // namespace

class TestSubmissionsLimits : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineFixture> m_fixture;
    QString m_id;

    bool start(const QList<QHostAddress> &trustedProxies = {})
    {
        m_fixture = std::make_unique<EngineFixture>();
        berth::EngineSettings settings;
        settings.trustedProxies = trustedProxies;
        if (!m_fixture->startWithClock(kStart, settings))
            return false;
        m_id = m_fixture->deploySite(m_fixture->ownerKey(), kSlug);
        return !m_id.isEmpty();
    }
    SourceClient from(const char *address)
    {
        return SourceClient(m_fixture->engine().port(), QHostAddress(QString::fromLatin1(address)));
    }
    static TestReply submit(SourceClient client, const QByteArray &body = kValid,
        const QByteArray &contentType = "application/json", QList<QPair<QByteArray, QByteArray>> headers = {})
    {
        headers.append({"Content-Type", contentType});
        return client.site("POST", kSlug, u"/_submit"_s, body, headers);
    }
    static void verifyRateLimited(const TestReply &reply, int retryAfter)
    {
        QCOMPARE(reply.status, 429);
        QCOMPARE(reply.json(), (QJsonObject {{u"error"_s, u"Rate limit exceeded"_s}}));
        QCOMPARE(reply.header("retry-after").toInt(), retryAfter);
    }

private Q_SLOTS:
    void cleanup() { m_fixture.reset(); }

    void tenAMinutePerIp()
    {
        QVERIFY(start());
        for (int i = 0; i < 10; ++i) {
            QCOMPARE(submit(from("127.0.0.2")).status, 200);
            m_fixture->clock().advance(1000);
        }
        // The first of the ten leaves the window 60 s after it came, 50 s from now.
        verifyRateLimited(submit(from("127.0.0.2")), 50);
        QCOMPARE(submit(from("127.0.0.3")).status, 200); // another visitor is not affected
        m_fixture->clock().advance(49'999);
        verifyRateLimited(submit(from("127.0.0.2")), 1);
        m_fixture->clock().advance(1);
        QCOMPARE(submit(from("127.0.0.2")).status, 200);
        verifyRateLimited(submit(from("127.0.0.2")), 1); // the second of the ten leaves 1 s later
        const QJsonObject listed
            = m_fixture->client().api("GET", u"/deploy/%1/submissions"_s.arg(m_id), m_fixture->ownerKey()).json();
        QCOMPARE(listed[u"total"_s].toInt(), 12); // nothing refused was stored
    }

    void everyRequestCountsWhateverItsBody()
    {
        QVERIFY(start());
        QCOMPARE(submit(from("127.0.0.4"), "{broken").status, 400);
        QCOMPARE(submit(from("127.0.0.4"), R"({"a":"b","_hp":"x"})").status, 400);
        QCOMPARE(submit(from("127.0.0.4"), "{}").status, 400);
        QCOMPARE(submit(from("127.0.0.4"), "a=1", "text/plain").status, 400);
        QCOMPARE(submit(from("127.0.0.4"), QByteArray(10240, 'x')).status, 400);
        for (int i = 0; i < 5; ++i)
            QCOMPARE(submit(from("127.0.0.4")).status, 200);
        verifyRateLimited(submit(from("127.0.0.4")), 60);
        verifyRateLimited(submit(from("127.0.0.4"), "{broken"), 60); // limited before the body is looked at
    }

    void forwardedForIsIgnoredByDefault()
    {
        QVERIFY(start());
        for (int i = 0; i < 10; ++i) {
            const QByteArray forged = "10.0.0." + QByteArray::number(i);
            QCOMPARE(submit(from("127.0.0.5"), kValid, "application/json", {{"X-Forwarded-For", forged}}).status, 200);
        }
        verifyRateLimited(submit(from("127.0.0.5"), kValid, "application/json", {{"X-Forwarded-For", "10.9.9.9"}}), 60);
    }

    void forwardedForFromATrustedProxy()
    {
        QVERIFY(start({QHostAddress(u"127.0.0.6"_s)}));
        const auto viaProxy = [this](const QByteArray &forwardedFor) {
            return submit(from("127.0.0.6"), kValid, "application/json", {{"X-Forwarded-For", forwardedFor}});
        };
        for (int i = 0; i < 10; ++i)
            QCOMPARE(viaProxy("10.0.0.1").status, 200);
        verifyRateLimited(viaProxy("10.0.0.1"), 60);
        // The client is the rightmost address the proxy did not add itself: a forged leftmost entry changes
        // nothing, and a proxy chain ending in the trusted proxy is skipped.
        verifyRateLimited(viaProxy("1.2.3.4, 10.0.0.1"), 60);
        verifyRateLimited(viaProxy("10.0.0.1, 127.0.0.6"), 60);
        QCOMPARE(viaProxy("10.0.0.2").status, 200);
        // A peer that is not the proxy is itself the client, whatever it forwards.
        QCOMPARE(submit(from("127.0.0.7"), kValid, "application/json", {{"X-Forwarded-For", "10.0.0.1"}}).status, 200);
    }
};

QTEST_GUILESS_MAIN(TestSubmissionsLimits)
#include "tst_submissionslimits.moc"
