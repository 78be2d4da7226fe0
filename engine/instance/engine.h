#pragma once

#include "core/error.h"
#include "instance/enginesettings.h"

#include <QObject>
#include <functional>
#include <memory>
#include <optional>

namespace berth {

class AccountService;
class AcmeManager;
class TlsCertificateStore;
class ApiRouter;
class Clock;
class AgentService;
class AgentSiteLifetime;
class AnalyticsService;
class CounterService;
class CustomDomainService;
class DeploymentService;
class FaultPoints;
class GateChecks;
class LanService;
class OtpService;
class PlanSettings;
class PlanTable;
class ShareLinkService;
class SignInPolicy;
class SiteExpiry;
class SiteAddresses;
class SiteLoader;
class SiteTable;
class SubmissionService;
class WebhookService;
class VersionHistory;

// The whole service in one object, for both front ends: storage, domain services, and the HTTP
// server in front of them. Owns everything it creates and hands each part what it needs. A QObject only as the
// context on whose thread the API's work is carried out; it has no signals of its own.
class Engine final : public QObject
{
public:
    explicit Engine(EngineSettings settings, QObject *parent = nullptr);
    ~Engine() override;
    Q_DISABLE_COPY_MOVE(Engine)

    // Storage and services without the network (what `berthd key create` needs).
    // An Error whose message is for the operator (the log, the dashboard's start-up page, berthd's stderr).
    Result<void> open();
    // open(), then listen and serve every live site.
    Result<void> start();

    // A graceful stop: no new connections or requests (503), requests in progress (deploys included) answered,
    // then done() on this thread; at the deadline (settings.stopDeadlineMs) done() comes anyway. Serving stops
    // for good either way; destroy the engine afterwards.
    void stop(std::function<void()> done);

    quint16 port() const;
    quint16 httpsPort() const; // 0 without TLS
    int servingThreads() const;
    QString dataDir() const;
    const Clock &clock() const; // the time the engine goes by (the settings' clock, or the system's)
    const SiteAddresses &addresses() const;
    // The owner's first API key, when the owner account was created by this open(): shown once.
    std::optional<QString> ownerFirstKey() const;

    AccountService &accounts();
    DeploymentService &deployments(); // publishing, and the owner's deployments
    SiteLoader &siteLoader(); // what is served; emits deploymentChanged/deploymentRemoved for the dashboard
    VersionHistory &history(); // kept versions and rollback
    SubmissionService &submissions(); // emits submissionReceived for the dashboard
    WebhookService &webhooks(); // users' webhooks and where deliveries may go
    CounterService &counters(); // emits counterChanged for the dashboard
    AnalyticsService &analytics(); // page views per site and day, for the owner's reports (the Traffic view)
    // Custom domains: their policy, and the names that serve sites (names(), namesChanged) for certificates.
    CustomDomainService &customDomains();
    const SiteTable &sites() const;
    const PlanTable &plans() const;

    // Signing in, for the owner's controls (dashboard, berthd):
    AgentService &agents(); // agent identities and claims; emits agentClaimed
    OtpService &signIns(); // sign-in codes: pending requests (codes to relay); emits requestsChanged
    SignInPolicy &signInPolicy(); // sign-ups open or closed, the allow-list, agent sessions, SMTP
    PlanSettings &planSettings(); // changes to plans() that persist
    // How many versions each deployment keeps (default 10): an owner setting that persists. Versions over
    // the count go at the next deploy of their deployment. False for a count under 1 or when it cannot be stored.
    bool setVersionsKept(int count);
    const ApiRouter &apiRouter() const; // the API's route table (the OpenAPI document's test compares with it)
    // Sharing on the local network: the switch, the addresses and names in use (works once start() succeeded).
    LanService &lan();
    const LanService &lan() const;
    // HTTPS certificates by name (SNI): what --tls-cert and --tls-dir gave, and where certificates obtained while
    // serving go (TlsCertificateStore::install, from any thread; new handshakes get them at once).
    TlsCertificateStore &tlsCertificates();
    // Access log lines dropped because the disk was full, failing or too slow (0 without an access log).
    qint64 accessLogDroppedLines() const;
    // Writes the access log's waiting lines now (they are written within a fraction of a second anyway).
    void flushAccessLog();
    // Writes the page views counted so far to the database now (done every second anyway).
    void flushAnalytics();
    // Named points of the deploy path where a test may stop the process (berthd's crash-safety build).
    FaultPoints &faultPoints();
    // The private gates' password checks: how many ran, and a test's hook before each.
    GateChecks &gateChecks();
    // Private sites' named share links; their opens are written every second (flush() writes them now).
    ShareLinkService &shareLinks();
    // Sites that expire: the sweep (every EngineSettings::expirySweepMs), and how long agents' sites live.
    SiteExpiry &siteExpiry();
    AgentSiteLifetime &agentSiteLifetime();
    // Certificates by ACME (EngineSettings::acme): the names ordered and each one's state. Null when ACME is off.
    AcmeManager *acme();

private:
    void loadVersionsKept();
    void prepareAcme(); // before listening: the plain port answers ACME challenges from its first request
    void startAcme();
    QStringList acmeNames() const;
    Result<void> startAccessLog();

    struct Parts;
    EngineSettings m_settings;
    std::unique_ptr<Parts> m_parts;
};

} // namespace berth
