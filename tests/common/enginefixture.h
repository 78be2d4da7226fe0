#pragma once

#include "domain/common/clock.h"
#include "httptestclient.h"
#include "instance/engine.h"
#include "postgrescluster.h"
#include "storage/database.h"

#include <QTemporaryDir>
#include <memory>

namespace berth::test {

// A real Engine on an ephemeral loopback port over a fresh temporary data directory.
class EngineFixture
{
public:
    EngineFixture();
    ~EngineFixture();

    bool start(); // false (with a QWARN) when the engine does not start
    // With settings of the test's own (a ManualClock, trusted proxies, limits); the fixture sets the data
    // directory and port 0. Kept for restart().
    bool start(EngineSettings settings);
    // start(settings) on a ManualClock the fixture owns, set to `start`: tests advance time instead of waiting.
    bool startWithClock(const QDateTime &start, EngineSettings settings = {});
    bool restart(); // stops and starts again on the same data directory
    void stop();

    Engine &engine() { return *m_engine; }
    HttpTestClient &client() { return *m_client; }
    QString dataDir() const { return m_dir.path(); }
    QByteArray ownerKey() const { return m_ownerKey; }
    // A new key for the user with this email (created with the plan when missing).
    QByteArray keyFor(const QString &email, const QString &plan = QStringLiteral("free"));
    ManualClock &clock() { return *m_clock; } // after startWithClock()
    // A one-page site of the key's user, deployed through the API: its id, or empty when the deploy failed.
    QString deploySite(const QByteArray &key, const QString &slug, const QString &html = QStringLiteral("<p>site</p>"));
    // POST /deploy of this body with the owner's key; a failure is printed (with a QWARN) for the test's log.
    TestReply deployAsOwner(const QJsonObject &body);
    QString siteHost(const QString &slug) const; // "<slug>.localhost:<port>"
    // The engine's database (its SQLite file, or its PostgreSQL database), for a test to look at or change rows;
    // not yet opened. After start().
    std::unique_ptr<Database> database() const;

private:
    bool startEngine(const char *what);
    bool choosePostgres(); // BERTH_TEST_DATABASE=postgresql: a fresh database in the test cluster

    QTemporaryDir m_dir;
    std::unique_ptr<PostgresTestDatabase> m_postgres; // dropped after the engine that uses it
    std::unique_ptr<ManualClock> m_clock; // outlives the engine that reads it
    EngineSettings m_settings;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<HttpTestClient> m_client;
    QByteArray m_ownerKey;
};

} // namespace berth::test
