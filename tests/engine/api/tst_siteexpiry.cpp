// Sites that expire, over real HTTP with the injected clock: expires_in and expires_at on POST and PUT /deploy, shown
// by GET /deploy/:id and GET /deploys; when the time passes the sweep takes the site offline as DELETE does (404, slug
// and plan slot free), also after a restart; null removes the expiry, both fields or a bad time are refused; the
// owner's setting for agents' sites, and a claim that keeps them. On PostgreSQL (the CTest fixture's cluster), two
// servers on one database sweep the same site and exactly one deletes it.
#include "domain/common/clock.h"
#include "domain/deploy/agentsitelifetime.h"
#include "domain/deploy/siteexpiry.h"
#include "domain/plans/plansettings.h"
#include "enginefixture.h"
#include "postgrescluster.h"
#include "storage/deploymentrepository.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace berth;
using namespace berth::test;

namespace {

const QDateTime kStart(QDate(2026, 11, 27), QTime(6, 0), Qt::UTC);
constexpr int kSweepMs = 20; // the tests' sweep; the clock, not this, decides what is due

QString iso(const QDateTime &time)
{
    return isoTimestamp(time); // as the API writes times
}

} // namespace

class TestSiteExpiry : public QObject
{
    Q_OBJECT

    std::unique_ptr<EngineFixture> m_fixture;

    bool start()
    {
        m_fixture = std::make_unique<EngineFixture>();
        EngineSettings settings;
        settings.expirySweepMs = kSweepMs;
        return m_fixture->startWithClock(kStart, settings);
    }
    HttpTestClient &client() { return m_fixture->client(); }
    QByteArray owner() const { return m_fixture->ownerKey(); }
    TestReply deploy(const QJsonObject &fields, const QByteArray &key = {})
    {
        QJsonObject body = fields;
        body.insert(u"html"_s, u"<p>soon gone</p>"_s);
        return client().api("POST", u"/deploy"_s, key.isEmpty() ? owner() : key, body);
    }
    QJsonValue expiresAt(const QString &id, const QByteArray &key = {})
    {
        return client().api("GET", u"/deploy/"_s + id, key.isEmpty() ? owner() : key).json().value(u"expires_at"_s);
    }
    QJsonValue listedExpiry(const QString &id, const QByteArray &key = {})
    {
        const QJsonArray listed = client()
                                      .api("GET", u"/deploys"_s, key.isEmpty() ? owner() : key)
                                      .json()
                                      .value(u"deployments"_s)
                                      .toArray();
        for (const QJsonValue &entry : listed) {
            if (entry[u"id"_s].toString() == id)
                return entry[u"expires_at"_s];
        }
        return QJsonValue(QJsonValue::Undefined);
    }

private Q_SLOTS:
    void cleanup() { m_fixture.reset(); }

    void expiresInTakesTheSiteOfflineAsDeleteDoes()
    {
        QVERIFY(start());
        const QByteArray key = m_fixture->keyFor(u"ann@example.com"_s);
        // Ann's plan holds one site, so a free slot shows as a deploy that goes through.
        auto limits = m_fixture->engine().plans().limits(u"free"_s);
        limits.deployments = 1;
        QVERIFY(m_fixture->engine().planSettings().setLimits(u"free"_s, limits));

        const TestReply created = deploy({{u"slug"_s, u"brief-site"_s}, {u"expires_in"_s, 3600}}, key);
        QCOMPARE(created.status, 200);
        const QString id = created.json().value(u"id"_s).toString();
        const QString due = iso(kStart.addSecs(3600));
        QCOMPARE(created.json().value(u"expires_at"_s).toString(), due);
        QCOMPARE(expiresAt(id, key).toString(), due);
        QCOMPARE(listedExpiry(id, key).toString(), due);
        QCOMPARE(client().site(u"brief-site"_s).status, 200);
        QCOMPARE(deploy({{u"slug"_s, u"second-site"_s}}, key).status, 403); // the plan is full

        // A second before its time the sweeps leave it; once the time passes, the next sweep takes it.
        m_fixture->clock().advance(3599 * 1000);
        QCOMPARE(m_fixture->engine().siteExpiry().sweep(), 0);
        QCOMPARE(client().site(u"brief-site"_s).status, 200);
        m_fixture->clock().advance(1000);
        QTRY_COMPARE(client().site(u"brief-site"_s).status, 404);
        QCOMPARE(client().api("GET", u"/deploy/"_s + id, key).status, 404);
        QVERIFY(client().api("GET", u"/deploys"_s, key).json().value(u"deployments"_s).toArray().isEmpty());

        // Slug and plan slot are free again, for anyone.
        QCOMPARE(deploy({{u"slug"_s, u"brief-site"_s}}, key).status, 200);
        QCOMPARE(client().site(u"brief-site"_s).status, 200);
    }

    void expiresAtAndNullOnUpdate()
    {
        QVERIFY(start());
        const TestReply created
            = deploy({{u"slug"_s, u"kept-site"_s}, {u"expires_at"_s, u"2026-11-27T08:00:00+01:00"_s}});
        QCOMPARE(created.status, 200);
        const QString id = created.json().value(u"id"_s).toString();
        QCOMPARE(expiresAt(id).toString(), u"2026-11-27T07:00:00Z"_s);

        // Moved later, then removed with null: the site outlives its first time.
        TestReply updated = client().api("PUT", u"/deploy/"_s + id, owner(), QJsonObject {{u"expires_in"_s, 7200}});
        QCOMPARE(updated.status, 200);
        QCOMPARE(expiresAt(id).toString(), iso(kStart.addSecs(7200)));
        updated = client().api("PUT", u"/deploy/"_s + id, owner(), QJsonObject {{u"expires_at"_s, QJsonValue::Null}});
        QCOMPARE(updated.status, 200);
        QVERIFY(!updated.json().contains(u"expires_at"_s));
        QVERIFY(expiresAt(id).isNull());
        QVERIFY(listedExpiry(id).isNull());
        m_fixture->clock().advance(3LL * 3600 * 1000);
        QCOMPARE(m_fixture->engine().siteExpiry().sweep(), 0);
        QCOMPARE(client().site(u"kept-site"_s).status, 200);

        // expires_in: null removes it too; a content update leaves the expiry as it is.
        updated = client().api("PUT", u"/deploy/"_s + id, owner(), QJsonObject {{u"expires_in"_s, 60}});
        QCOMPARE(updated.status, 200);
        updated = client().api("PUT", u"/deploy/"_s + id, owner(), QJsonObject {{u"html"_s, u"<p>new</p>"_s}});
        QCOMPARE(updated.status, 200);
        QCOMPARE(expiresAt(id).toString(), iso(m_fixture->clock().now().addSecs(60)));
        updated = client().api("PUT", u"/deploy/"_s + id, owner(), QJsonObject {{u"expires_in"_s, QJsonValue::Null}});
        QCOMPARE(updated.status, 200);
        QVERIFY(expiresAt(id).isNull());
    }

    void refusedExpiries_data()
    {
        QTest::addColumn<QJsonObject>("fields");
        QTest::addColumn<QString>("error");
        const QString both = u"Provide either expires_at or expires_in, not both"_s;
        QTest::newRow("both") << QJsonObject {{u"expires_in"_s, 60}, {u"expires_at"_s, u"2027-01-01T00:00:00Z"_s}}
                              << both;
        QTest::newRow("both, one null") << QJsonObject {{u"expires_in"_s, 60}, {u"expires_at"_s, QJsonValue::Null}}
                                        << both;
        QTest::newRow("past") << QJsonObject {{u"expires_at"_s, u"2026-11-27T05:59:59Z"_s}}
                              << u"expires_at must be in the future"_s;
        QTest::newRow("now") << QJsonObject {{u"expires_at"_s, u"2026-11-27T06:00:00Z"_s}}
                             << u"expires_at must be in the future"_s;
        QTest::newRow("beyond ten years") << QJsonObject {{u"expires_at"_s, u"2036-12-01T00:00:00Z"_s}}
                                          << u"expires_at must be at most ten years ahead"_s;
        QTest::newRow("no offset") << QJsonObject {{u"expires_at"_s, u"2026-12-31T00:00:00"_s}}
                                   << u"expires_at must be an RFC 3339 time, e.g. 2026-12-31T00:00:00Z"_s;
        QTest::newRow("not a time") << QJsonObject {{u"expires_at"_s, u"tomorrow"_s}}
                                    << u"expires_at must be an RFC 3339 time, e.g. 2026-12-31T00:00:00Z"_s;
        QTest::newRow("zero seconds") << QJsonObject {{u"expires_in"_s, 0}}
                                      << u"expires_in must be a whole number of seconds from 1 to 315360000"_s;
        QTest::newRow("fraction") << QJsonObject {{u"expires_in"_s, 1.5}}
                                  << u"expires_in must be a whole number of seconds from 1 to 315360000"_s;
        QTest::newRow("too long") << QJsonObject {{u"expires_in"_s, 315360001}}
                                  << u"expires_in must be a whole number of seconds from 1 to 315360000"_s;
        QTest::newRow("a string") << QJsonObject {{u"expires_in"_s, u"60"_s}}
                                  << u"\"expires_in\" must be a number or null"_s;
    }
    void refusedExpiries()
    {
        QFETCH(QJsonObject, fields);
        QFETCH(QString, error);
        QVERIFY(start());
        const TestReply created = deploy(fields);
        QCOMPARE(created.status, 400);
        QCOMPARE(created.error(), error);
        // The same on an update, which changes nothing.
        const QString id = m_fixture->deploySite(owner(), u"refused-site"_s);
        QVERIFY(!id.isEmpty());
        const TestReply updated = client().api("PUT", u"/deploy/"_s + id, owner(), fields);
        QCOMPARE(updated.status, 400);
        QCOMPARE(updated.error(), error);
        QVERIFY(expiresAt(id).isNull());
    }

    void survivesARestart()
    {
        QVERIFY(start());
        const TestReply created = deploy({{u"slug"_s, u"restarted-site"_s}, {u"expires_in"_s, 600}});
        QCOMPARE(created.status, 200);
        const QString id = created.json().value(u"id"_s).toString();
        QVERIFY(m_fixture->restart());
        QCOMPARE(expiresAt(id).toString(), iso(kStart.addSecs(600)));
        QCOMPARE(client().site(u"restarted-site"_s).status, 200);

        // Expired while the server was down: gone as the server starts again.
        m_fixture->stop();
        m_fixture->clock().advance(601 * 1000);
        QVERIFY(m_fixture->restart());
        QCOMPARE(client().site(u"restarted-site"_s).status, 404);
        QCOMPARE(client().api("GET", u"/deploy/"_s + id, owner()).status, 404);
    }

    void agentsSitesExpireWhenTheOwnerSaysSo()
    {
        QVERIFY(start());
        const auto agent = [this] { return client().request("POST", client().apiHost(), u"/auth/session"_s).json(); };
        // The default: agents' sites stay.
        const QJsonObject first = agent();
        TestReply created = deploy({{u"slug"_s, u"agent-default"_s}}, first.value(u"api_key"_s).toString().toLatin1());
        QCOMPARE(created.status, 200);
        QVERIFY(expiresAt(created.json().value(u"id"_s).toString(), first.value(u"api_key"_s).toString().toLatin1())
                    .isNull());

        QVERIFY(m_fixture->engine().agentSiteLifetime().set(24 * 3600));
        const QJsonObject second = agent();
        const QByteArray agentKey = second.value(u"api_key"_s).toString().toLatin1();
        created = deploy({{u"slug"_s, u"agent-page"_s}}, agentKey);
        QCOMPARE(created.status, 200);
        const QString id = created.json().value(u"id"_s).toString();
        QCOMPARE(expiresAt(id, agentKey).toString(), iso(kStart.addSecs(24 * 3600)));
        // An agent may still ask for its own time; people's sites are untouched.
        created = deploy({{u"slug"_s, u"agent-hour"_s}, {u"expires_in"_s, 3600}}, agentKey);
        QCOMPARE(created.status, 200);
        const QString hourId = created.json().value(u"id"_s).toString();
        QCOMPARE(expiresAt(hourId, agentKey).toString(), iso(kStart.addSecs(3600)));
        created = deploy({{u"slug"_s, u"owner-page"_s}});
        QVERIFY(expiresAt(created.json().value(u"id"_s).toString()).isNull());

        // Ann claims the agent: its sites expire no more.
        const QByteArray ann = m_fixture->keyFor(u"ann@example.com"_s);
        const TestReply claimed = client().api(
            "POST", u"/auth/claim"_s, ann, QJsonObject {{u"claim_token"_s, second.value(u"claim_token"_s).toString()}});
        QCOMPARE(claimed.status, 200);
        QVERIFY(expiresAt(id, ann).isNull());
        QVERIFY(expiresAt(hourId, ann).isNull());
        m_fixture->clock().advance(25LL * 3600 * 1000);
        QCOMPARE(m_fixture->engine().siteExpiry().sweep(), 0);
        QCOMPARE(client().site(u"agent-page"_s).status, 200);
        QCOMPARE(client().site(u"agent-hour"_s).status, 200);

        // Back to never: a new agent's site stays again.
        QVERIFY(m_fixture->engine().agentSiteLifetime().set(std::nullopt));
        QVERIFY(!m_fixture->engine().agentSiteLifetime().seconds());
        const QJsonObject third = agent();
        const QByteArray thirdKey = third.value(u"api_key"_s).toString().toLatin1();
        created = deploy({{u"slug"_s, u"agent-later"_s}}, thirdKey);
        QVERIFY(expiresAt(created.json().value(u"id"_s).toString(), thirdKey).isNull());
    }

    void anExtendedExpiryHolds()
    {
        // The delete is conditional on the stored expiry: a server that saw the site due before its owner moved the
        // expiry deletes nothing.
        QVERIFY(start());
        const TestReply created = deploy({{u"slug"_s, u"extended-site"_s}, {u"expires_in"_s, 60}});
        const QString id = created.json().value(u"id"_s).toString();
        QCOMPARE(client().api("PUT", u"/deploy/"_s + id, owner(), QJsonObject {{u"expires_in"_s, 3600}}).status, 200);
        auto database = m_fixture->database();
        QVERIFY(database->open());
        DeploymentRepository repository(*database);
        const Result<void> removed = repository.remove(id, kStart.addSecs(61)); // as seen before the extension
        QVERIFY(!removed);
        QCOMPARE(removed.error().kind, Error::Kind::NotFound);
        QCOMPARE(client().site(u"extended-site"_s).status, 200);
        QCOMPARE(expiresAt(id).toString(), iso(kStart.addSecs(3600)));
    }

    void twoServersDeleteOnce()
    {
        if (qEnvironmentVariableIsEmpty(PostgresCluster::kEnvironmentVariable))
            QSKIP("no PostgreSQL test cluster (BERTH_TEST_POSTGRES)");
        PostgresTestDatabase database(qEnvironmentVariable(PostgresCluster::kEnvironmentVariable));
        QString error;
        QVERIFY2(database.create(&error), qPrintable(error));
        ManualClock clock(kStart);
        EngineSettings settings;
        settings.databaseUrl = database.url();
        settings.clock = &clock;
        settings.expirySweepMs = 60 * 60 * 1000; // the test sweeps each server itself
        EngineFixture a;
        QVERIFY(a.start(settings));
        QTemporaryDir folderB;
        settings.dataDir = folderB.path();
        settings.listenPort = 0;
        Engine b(settings);
        QVERIFY(b.start());

        QStringList ids;
        for (int i = 0; i < 5; ++i) {
            const TestReply created = a.client().api("POST", u"/deploy"_s, a.ownerKey(),
                QJsonObject {{u"slug"_s, u"shared-%1"_s.arg(i)}, {u"html"_s, u"<p>x</p>"_s}, {u"expires_in"_s, 60}});
            QCOMPARE(created.status, 200);
            ids.append(created.json().value(u"id"_s).toString());
        }
        QSignalSpy expiredOnA(&a.engine().siteExpiry(), &SiteExpiry::siteExpired);
        QSignalSpy expiredOnB(&b.siteExpiry(), &SiteExpiry::siteExpired);
        clock.advance(61 * 1000);
        // B first, then A: A finds the rows B deleted gone, and takes none of them.
        QCOMPARE(b.siteExpiry().sweep(), 5);
        QCOMPARE(a.engine().siteExpiry().sweep(), 0);
        QCOMPARE(expiredOnA.size() + expiredOnB.size(), 5);
        // A, which deleted nothing, stops serving them too (the database tells every server).
        QTRY_COMPARE(a.client().site(u"shared-0"_s).status, 404);
        for (const QString &id : ids)
            QCOMPARE(a.client().api("GET", u"/deploy/"_s + id, a.ownerKey()).status, 404);
    }
};

QTEST_GUILESS_MAIN(TestSiteExpiry)
#include "tst_siteexpiry.moc"
