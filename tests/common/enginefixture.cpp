#include "enginefixture.h"

#include "domain/accountservice.h"

#include <QtTest>

using namespace Qt::StringLiterals;

namespace berth::test {

EngineFixture::EngineFixture() = default;
EngineFixture::~EngineFixture() { stop(); }

bool EngineFixture::start()
{
    EngineSettings settings;
    settings.dataDir = m_dir.path();
    settings.listenPort = 0;
    m_engine = std::make_unique<Engine>(settings);
    QString error;
    if (!m_engine->start(&error)) {
        qWarning("engine did not start: %s", qPrintable(error));
        return false;
    }
    if (const auto key = m_engine->ownerFirstKey())
        m_ownerKey = key->toLatin1();
    m_client = std::make_unique<HttpTestClient>(m_engine->port());
    return !m_ownerKey.isEmpty();
}

bool EngineFixture::restart()
{
    stop();
    EngineSettings settings;
    settings.dataDir = m_dir.path();
    settings.listenPort = 0;
    m_engine = std::make_unique<Engine>(settings);
    QString error;
    if (!m_engine->start(&error)) {
        qWarning("engine did not restart: %s", qPrintable(error));
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
