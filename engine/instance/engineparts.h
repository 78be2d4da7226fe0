#pragma once

// The parts an Engine is made of, and the order they are built and destroyed in: private to the instance layer.
#include "api/analyticscontroller.h"
#include "api/apiorigins.h"
#include "api/apirouter.h"
#include "api/authcontroller.h"
#include "api/counterscontroller.h"
#include "api/deploymentscontroller.h"
#include "api/keyscontroller.h"
#include "api/mcpcontroller.h"
#include "api/mecontroller.h"
#include "api/metricscontroller.h"
#include "api/openapicontroller.h"
#include "api/sharelinkscontroller.h"
#include "api/statuscontroller.h"
#include "api/submissionscontroller.h"
#include "api/versionscontroller.h"
#include "api/webhookscontroller.h"
#include "domain/accounts/accountservice.h"
#include "domain/accounts/agentservice.h"
#include "domain/accounts/otpservice.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/accounts/smtpmailer.h"
#include "domain/acme/acmemanager.h"
#include "domain/analytics/analyticsservice.h"
#include "domain/common/changejournal.h"
#include "domain/common/clock.h"
#include "domain/common/randomid.h"
#include "domain/deploy/agentsitelifetime.h"
#include "domain/deploy/blobgarbage.h"
#include "domain/deploy/customdomainservice.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/deploymentsync.h"
#include "domain/deploy/faultpoints.h"
#include "domain/deploy/siteexpiry.h"
#include "domain/deploy/siteloader.h"
#include "domain/deploy/versionhistory.h"
#include "domain/events/deliveryscheduler.h"
#include "domain/events/eventrecorder.h"
#include "domain/events/targetcheck.h"
#include "domain/events/webhookservice.h"
#include "domain/plans/plansettings.h"
#include "domain/plans/plantable.h"
#include "domain/ratelimit/ratelimiter.h"
#include "domain/ratelimit/ratelimitservice.h"
#include "domain/sharing/sharelinkservice.h"
#include "domain/sharing/sharelinktable.h"
#include "domain/siterules/accesscontrol.h"
#include "domain/siterules/customdomaintable.h"
#include "domain/siterules/siteaddresses.h"
#include "domain/siterules/sitetable.h"
#include "domain/visitors/counterservice.h"
#include "domain/visitors/submissionservice.h"
#include "domain/visitors/usagereport.h"
#include "http/accesslog.h"
#include "http/httpservice.h"
#include "http/tlscertificatestore.h"
#include "http/tlscredentials.h"
#include "http/tlsdirectorywatcher.h"
#include "instance/databasemarker.h"
#include "instance/engine.h"
#include "instance/enginesettings.h"
#include "instance/hostdispatcher.h"
#include "instance/processlimits.h"
#include "lan/lanservice.h"
#include "site/builtinendpoints.h"
#include "site/gatechecks.h"
#include "site/privategate.h"
#include "site/sharelinkgate.h"
#include "site/sitelimits.h"
#include "site/siteserver.h"
#include "site/trafficrecorder.h"
#include "storage/agentclaimrepository.h"
#include "storage/allowlistrepository.h"
#include "storage/apikeyrepository.h"
#include "storage/blobstore.h"
#include "storage/counterrepository.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/domainrepository.h"
#include "storage/eventrepository.h"
#include "storage/postgresblobbackend.h"
#include "storage/ratewindowrepository.h"
#include "storage/reconnectingblobbackend.h"
#include "storage/settingsrepository.h"
#include "storage/sharelinkrepository.h"
#include "storage/signinrequestrepository.h"
#include "storage/storetotals.h"
#include "storage/submissionrepository.h"
#include "storage/userrepository.h"
#include "storage/webhookrepository.h"

#include <QThreadPool>
#include <QTimer>
#include <memory>
#include <optional>

namespace berth {

// Argon2id takes ~64 MiB and tens of ms per check: two at a time.
inline constexpr int kPasswordCheckThreads = 2;

// Everything the engine is made of, grouped by layer from the bottom up. Members are destroyed in reverse order, so
// each layer goes away before what it depends on: the HTTP service first, the clock last.
struct Engine::Parts
{
    Parts(const EngineSettings &settings, QObject *engineContext);

    // Time, rate limits and the thread pools that do heavy work off the serving threads.
    SystemClock systemClock;
    const Clock &clock;
    RateLimiter rateLimiter; // the node's own counts
    RateLimitService rateLimits; // what every limit asks: rateLimiter, or with shared limits the database
    QThreadPool workers; // deploys: decoding, hashing, blob writes
    QThreadPool passwordChecks; // the password gate's Argon2id checks, apart so that they cannot delay deploys
    GateChecks gateChecks; // their queues: per site, bounded, taken in turn

    // Storage: the database, the blob store and one repository per table.
    Database database;
    std::unique_ptr<PostgresBlobBackend> blobBackend; // PostgreSQL: blobs in the database, the folder a cache
    std::unique_ptr<ReconnectingBlobBackend> reconnectingBackend; // blobBackend, past a database restart
    BlobStore blobs;
    DeploymentRepository deploymentRepository;
    UserRepository userRepository;
    ApiKeyRepository keyRepository;
    SettingsRepository settingsRepository;
    SubmissionRepository submissionRepository;
    CounterRepository counterRepository;
    AnalyticsRepository analyticsRepository;
    AllowListRepository allowListRepository;
    SignInRequestRepository signInRequestRepository;
    AgentClaimRepository agentClaimRepository;
    RateWindowRepository rateWindowRepository; // shared rate limits
    StoreTotals storeTotals; // the metrics' counts
    WebhookRepository webhookRepository;
    EventRepository eventRepository; // events and their deliveries
    ShareLinkRepository shareLinkRepository;
    DomainRepository domainRepository; // custom domains

    // Domain: the rules and the services over storage.
    PlanTable plans;
    SiteTable siteTable; // what the serving threads read
    SiteAddresses addresses; // set once the port is known
    AccountService accounts;
    FaultPoints faults; // a test's hook at named points of the deploy path
    SiteLoader siteLoader; // the only writer of siteTable
    BlobGarbage garbage;
    VersionHistory history;
    DeploymentService deployments;
    CustomDomainTable customDomainTable; // what the serving threads route custom domains by
    CustomDomainService customDomains; // the only writer of customDomainTable
    std::unique_ptr<AcmeManager> acme; // certificates by ACME for those names, when on
    DeploymentSync sync; // PostgreSQL: changes made through other servers
    AgentSiteLifetime agentSiteLifetime; // the owner's setting: how long agents' sites live
    SiteExpiry siteExpiry; // takes sites offline when their expiry passes
    SubmissionService submissions;
    CounterService counters;
    TrafficCounter trafficCounter; // page views, counted on the serving threads
    AnalyticsService analytics; // their flush into the database, and the owner's reports
    QTimer analyticsFlush;
    AccessControl accessControl;
    ShareLinkTable shareLinkTable; // named share links, as the serving threads read them
    ShareLinkService shareLinks; // the owner's side of them; opens flushed with the page views
    SignInPolicy signInPolicy;
    PlanSettings planSettings;
    SmtpMailer mailer; // destroyed after otp: mails in flight finish, their answers find no one to tell
    OtpService otp;
    AgentService agents;
    QTimer idleAgentSweep; // removes agents that hold nothing a day after they were made
    UsageReport usage;
    EventRecorder eventRecorder; // changes into events for webhooks, in the changes' transactions
    ChangeJournal changeJournal; // those transactions: the services write through it
    WebhookService webhooks;
    DeliveryScheduler deliveryScheduler; // sends them, on this thread, never waiting

    // The management API: its router and controllers.
    ApiOrigins apiOrigins; // set once the ports are known
    ApiRouter router;
    StatusController statusController;
    DeploymentsController deploymentsController;
    VersionsController versionsController;
    SubmissionsController submissionsController;
    CountersController countersController;
    AnalyticsController analyticsController;
    AuthController authController;
    KeysController keysController;
    MeController meController;
    OpenApiController openApiController;
    McpController mcpController;
    MetricsController metricsController; // GET /metrics, for the owner
    WebhooksController webhooksController;
    ShareLinksController shareLinksController;

    // LAN sharing: <slug>.local names and a port per site; detached before http goes.
    LanService lan;

    // What visitors get.
    BuiltinEndpoints builtinEndpoints;
    ShareLinkGate shareLinkGate; // the private gate's part for named links
    PrivateGate privateGate;
    SiteServer siteServer;
    TrafficRecorder trafficRecorder; // what siteServer tells trafficCounter

    // HTTPS: the certificate each handshake gets by the name it asks for (--tls-cert, --tls-dir, ACME's).
    TlsCertificateStore tlsCertificates;
    std::unique_ptr<TlsDirectoryWatcher> tlsDirectory; // --tls-dir's pairs into tlsCertificates

    // HTTP: the dispatcher between API and sites, and the serving threads in front of it.
    HostDispatcher dispatcher;
    std::unique_ptr<AccessLog> accessLog; // written to by the serving threads: goes after them
    std::unique_ptr<HttpService> http;

    std::optional<QString> ownerFirstKey;
    bool opened = false;
    bool stopping = false;
};

} // namespace berth
