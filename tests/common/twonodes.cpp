#include "twonodes.h"

#include <QDirIterator>

using namespace Qt::StringLiterals;

namespace berth::test {

TwoNodes::TwoNodes() = default;

TwoNodes::~TwoNodes()
{
    m_a.reset();
    m_database.reset();
    m_cluster.reset();
}

bool TwoNodes::createDatabase(QString *error)
{
    const QString socketFolder = PostgresCluster::fixtureOrOwn(m_cluster, error);
    if (socketFolder.isEmpty())
        return false;
    m_database = std::make_unique<PostgresTestDatabase>(socketFolder);
    return m_database->create(error);
}

bool TwoNodes::startA()
{
    if (m_a)
        return true;
    m_a = std::make_unique<EngineFixture>();
    EngineSettings settings;
    settings.databaseUrl = m_database->url();
    return m_a->start(settings);
}

TestReply TwoNodes::deployThroughA(const QString &slug, const QJsonArray &files)
{
    TestReply reply = m_a->client().api(
        "POST", u"/deploy"_s, m_a->ownerKey(), QJsonObject {{u"slug"_s, slug}, {u"files"_s, files}});
    if (reply.status != 200)
        qWarning("deploy failed: %d %s", reply.status, reply.body.constData());
    return reply;
}

EngineSettings TwoNodes::nodeSettings(const QString &folder) const
{
    EngineSettings settings;
    settings.dataDir = folder;
    settings.databaseUrl = m_database->url();
    settings.listenPort = 0;
    settings.servingThreads = 2;
    return settings;
}

std::unique_ptr<Engine> TwoNodes::startNode(const EngineSettings &settings)
{
    auto node = std::make_unique<Engine>(settings);
    if (const Result<void> started = node->start(); !started) {
        qWarning("%s", qPrintable(started.error().message));
        return nullptr;
    }
    return node;
}

int filesUnder(const QString &folder)
{
    int count = 0;
    QDirIterator it(folder, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        ++count;
    }
    return count;
}

} // namespace berth::test
