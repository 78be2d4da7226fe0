#pragma once

#include "enginefixture.h"
#include "httptestclient.h"
#include "instance/engine.h"
#include "postgrescluster.h"

#include <QJsonArray>
#include <QJsonObject>
#include <memory>

namespace berth::test {

// Nodes on one fresh PostgreSQL database, as on several machines: node A, an EngineFixture that takes the
// deploys, and further nodes each started on an empty data folder of its own, which fills as a cache from the
// database. The database is in the cluster the CTest fixture runs, or else in one this object starts for itself.
class TwoNodes final
{
    Q_DISABLE_COPY_MOVE(TwoNodes)
public:
    TwoNodes();
    ~TwoNodes(); // node A first, then the database, then a cluster of its own

    bool createDatabase(QString *error); // in initTestCase, before anything else
    QString databaseUrl() const { return m_database->url(); }

    bool startA(); // once; true again when A already runs
    EngineFixture &a() { return *m_a; }
    const EngineFixture &a() const { return *m_a; }
    // A deploy of these files to slug by A's owner, through A's API. A failure is warned about with its answer.
    TestReply deployThroughA(const QString &slug, const QJsonArray &files);

    // What another node runs with: `folder` as its data folder, the shared database, a free port, two serving threads.
    EngineSettings nodeSettings(const QString &folder) const;
    // That node started, or null (with a warning) when it does not start.
    static std::unique_ptr<Engine> startNode(const EngineSettings &settings);
    std::unique_ptr<Engine> startNode(const QString &folder) const { return startNode(nodeSettings(folder)); }

private:
    std::unique_ptr<PostgresCluster> m_cluster; // only when no CTest fixture runs one
    std::unique_ptr<PostgresTestDatabase> m_database;
    std::unique_ptr<EngineFixture> m_a;
};

// How many files a folder holds, in all its subfolders: a node's cache fills file by file.
int filesUnder(const QString &folder);

} // namespace berth::test
