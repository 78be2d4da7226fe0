#include "enginefixture.h"

#include "domain/accountservice.h"

#include <QtTest>

using namespace Qt::StringLiterals;

namespace berth::test {

EngineFixture::EngineFixture() = default;
EngineFixture::~EngineFixture() { stop(); }

bool EngineFixture::start()
{
    return start(EngineSettings());
}

bool EngineFixture::start(EngineSettings settings)
{
    m_settings = std::move(settings);
    m_settings.dataDir = m_dir.path();
    m_settings.listenPort = 0;
    if (!startEngine("start"))
        return false;
    if (const auto key = m_engine->ownerFirstKey())
        m_ownerKey = key->toLatin1();
    return !m_ownerKey.isEmpty();
}

bool EngineFixture::restart()
{
    stop();
    return startEngine("restart");
}

bool EngineFixture::startEngine(const char *what)
{
    m_engine = std::make_unique<Engine>(m_settings);
    QString error;
    if (!m_engine->start(&error)) {
        qWarning("engine did not %s: %s", what, qPrintable(error));
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
