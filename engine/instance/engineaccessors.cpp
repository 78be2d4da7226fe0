// Engine's accessors: what the front ends and the tests reach through it (engine.cpp wires and runs the parts).
#include "instance/engine.h"
#include "instance/engineparts.h"

namespace berth {

quint16 Engine::port() const
{
    return m_parts->http ? m_parts->http->serverPort() : 0;
}

quint16 Engine::httpsPort() const
{
    return m_parts->http ? m_parts->http->httpsPort() : 0;
}

int Engine::servingThreads() const
{
    return m_parts->http ? m_parts->http->servingThreads() : 0;
}

QString Engine::dataDir() const
{
    return m_settings.dataDir;
}
const Clock &Engine::clock() const
{
    return m_parts->clock;
}
const SiteAddresses &Engine::addresses() const
{
    return m_parts->addresses;
}
std::optional<QString> Engine::ownerFirstKey() const
{
    return m_parts->ownerFirstKey;
}
AccountService &Engine::accounts()
{
    return m_parts->accounts;
}
DeploymentService &Engine::deployments()
{
    return m_parts->deployments;
}
SiteLoader &Engine::siteLoader()
{
    return m_parts->siteLoader;
}
VersionHistory &Engine::history()
{
    return m_parts->history;
}
SubmissionService &Engine::submissions()
{
    return m_parts->submissions;
}
WebhookService &Engine::webhooks()
{
    return m_parts->webhooks;
}
CounterService &Engine::counters()
{
    return m_parts->counters;
}
AnalyticsService &Engine::analytics()
{
    return m_parts->analytics;
}
CustomDomainService &Engine::customDomains()
{
    return m_parts->customDomains;
}
const SiteTable &Engine::sites() const
{
    return m_parts->siteTable;
}
const PlanTable &Engine::plans() const
{
    return m_parts->plans;
}
AgentService &Engine::agents()
{
    return m_parts->agents;
}
OtpService &Engine::signIns()
{
    return m_parts->otp;
}
SignInPolicy &Engine::signInPolicy()
{
    return m_parts->signInPolicy;
}
PlanSettings &Engine::planSettings()
{
    return m_parts->planSettings;
}
const ApiRouter &Engine::apiRouter() const
{
    return m_parts->router;
}
TlsCertificateStore &Engine::tlsCertificates()
{
    return m_parts->tlsCertificates;
}

LanService &Engine::lan()
{
    return m_parts->lan;
}
const LanService &Engine::lan() const
{
    return m_parts->lan;
}
FaultPoints &Engine::faultPoints()
{
    return m_parts->faults;
}

ShareLinkService &Engine::shareLinks()
{
    return m_parts->shareLinks;
}

GateChecks &Engine::gateChecks()
{
    return m_parts->gateChecks;
}

SiteExpiry &Engine::siteExpiry()
{
    return m_parts->siteExpiry;
}

AgentSiteLifetime &Engine::agentSiteLifetime()
{
    return m_parts->agentSiteLifetime;
}

} // namespace berth
