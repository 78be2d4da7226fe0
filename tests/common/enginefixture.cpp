#include "enginefixture.h"

#include "domain/accounts/accountservice.h"

#include <QDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace berth::test {

EngineFixture::EngineFixture() = default;
EngineFixture::~EngineFixture()
{
    stop();
}

bool EngineFixture::start()
{
    return start(EngineSettings());
}

bool EngineFixture::start(EngineSettings settings)
{
    m_settings = std::move(settings);
    m_settings.dataDir = m_dir.path();
    // Berth's default 8080 may be taken by a running Berth: a free port instead, unless the test names its own.
    if (m_settings.listenPort == EngineSettings().listenPort)
        m_settings.listenPort = 0;
    // CTest runs the HTTP suites twice: with one serving thread and with several (BERTH_TEST_SERVING_THREADS).
    if (m_settings.servingThreads == 0)
        m_settings.servingThreads = qEnvironmentVariableIntValue("BERTH_TEST_SERVING_THREADS");
    if (m_settings.servingThreads == 0)
        m_settings.servingThreads = 1;
    if (!choosePostgres())
        return false;
    if (!startEngine("start"))
        return false;
    if (const auto key = m_engine->ownerFirstKey())
        m_ownerKey = key->toLatin1();
    return !m_ownerKey.isEmpty();
}

bool EngineFixture::startWithClock(const QDateTime &start, EngineSettings settings)
{
    m_clock = std::make_unique<ManualClock>(start);
    settings.clock = m_clock.get();
    return this->start(std::move(settings));
}

QString EngineFixture::deploySite(const QByteArray &key, const QString &slug, const QString &html)
{
    return m_client->api("POST", u"/deploy"_s, key, QJsonObject {{u"html"_s, html}, {u"slug"_s, slug}})
        .json()[u"id"_s]
        .toString();
}

TestReply EngineFixture::deployAsOwner(const QJsonObject &body)
{
    TestReply reply = m_client->api("POST", u"/deploy"_s, m_ownerKey, body);
    if (reply.status != 200)
        qWarning("deploy failed: %d %s", reply.status, reply.body.constData());
    return reply;
}

QString EngineFixture::siteHost(const QString &slug) const
{
    return u"%1.localhost:%2"_s.arg(slug).arg(m_engine->port());
}

bool EngineFixture::choosePostgres()
{
    // CTest runs the HTTP suites a third time on PostgreSQL: the same tests, the backend chosen here.
    if (!m_settings.databaseUrl.isEmpty() || qEnvironmentVariable("BERTH_TEST_DATABASE") != u"postgresql"_s)
        return true;
    if (!m_postgres) {
        QString noCluster;
        QString error;
        m_postgres = PostgresTestDatabase::createInFixtureCluster(&noCluster, &error);
        if (!noCluster.isEmpty()) {
            // Not a skip here: the run asked for PostgreSQL.
            qWarning("BERTH_TEST_DATABASE=postgresql needs %s: the socket folder of a running test cluster "
                     "(berth_pgcluster start DIR, or run the suite through ctest)",
                PostgresCluster::kEnvironmentVariable);
            return false;
        }
        if (!m_postgres) {
            qWarning("%s", qPrintable(error));
            return false;
        }
    }
    m_settings.databaseUrl = m_postgres->url();
    return true;
}

std::unique_ptr<Database> EngineFixture::database() const
{
    return std::make_unique<Database>(QDir(m_dir.path()).filePath(u"berth.sqlite"_s), m_settings.databaseUrl);
}

bool EngineFixture::restart()
{
    stop();
    return startEngine("restart");
}

bool EngineFixture::startEngine(const char *what)
{
    m_engine = std::make_unique<Engine>(m_settings);
    if (const Result<void> started = m_engine->start(); !started) {
        qWarning("engine did not %s: %s", what, qPrintable(started.error().message));
        return false;
    }
    m_client = std::make_unique<HttpTestClient>(m_engine->port());
    return true;
}

void EngineFixture::stop()
{
    m_client.reset();
    m_engine.reset();
}

QByteArray EngineFixture::keyFor(const QString &email, const QString &plan)
{
    const auto user = m_engine->accounts().ensureUser(email, plan);
    if (!user)
        return {};
    const auto key = m_engine->accounts().createKey(user.value().id, u"test"_s);
    return key ? key.value().secret.toLatin1() : QByteArray();
}

} // namespace berth::test
