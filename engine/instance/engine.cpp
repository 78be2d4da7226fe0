#include "instance/engine.h"

#include "api/apirouter.h"
#include "api/authcontroller.h"
#include "api/counterscontroller.h"
#include "api/deploymentscontroller.h"
#include "api/keyscontroller.h"
#include "api/mcpcontroller.h"
#include "api/mecontroller.h"
#include "api/openapicontroller.h"
#include "api/statuscontroller.h"
#include "api/submissionscontroller.h"
#include "api/versionscontroller.h"
#include "domain/accounts/accountservice.h"
#include "domain/accounts/agentservice.h"
#include "domain/accounts/otpservice.h"
#include "domain/accounts/signinpolicy.h"
#include "domain/accounts/smtpmailer.h"
#include "domain/common/clock.h"
#include "domain/common/randomid.h"
#include "domain/deploy/blobgarbage.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/deploymentsync.h"
#include "domain/deploy/faultpoints.h"
#include "domain/deploy/siteloader.h"
#include "domain/deploy/versionhistory.h"
#include "domain/plans/plansettings.h"
#include "domain/plans/plantable.h"
#include "domain/ratelimit/ratelimiter.h"
#include "domain/ratelimit/ratelimitservice.h"
#include "domain/siterules/accesscontrol.h"
#include "domain/siterules/siteaddresses.h"
#include "domain/siterules/sitetable.h"
#include "domain/visitors/counterservice.h"
#include "domain/visitors/submissionservice.h"
#include "domain/visitors/usagereport.h"
#include "http/httpservice.h"
#include "http/tlscredentials.h"
#include "instance/databasemarker.h"
#include "instance/hostdispatcher.h"
#include "instance/processlimits.h"
#include "lan/lanservice.h"
#include "site/builtinendpoints.h"
#include "site/privategate.h"
#include "site/siteserver.h"
#include "storage/agentclaimrepository.h"
#include "storage/allowlistrepository.h"
#include "storage/apikeyrepository.h"
#include "storage/blobstore.h"
#include "storage/counterrepository.h"
#include "storage/database.h"
#include "storage/deploymentrepository.h"
#include "storage/postgresblobbackend.h"
#include "storage/ratewindowrepository.h"
#include "storage/reconnectingblobbackend.h"
#include "storage/settingsrepository.h"
#include "storage/signinrequestrepository.h"
#include "storage/submissionrepository.h"
#include "storage/userrepository.h"

#include <QDir>
#include <QElapsedTimer>
#include <QStandardPaths>
#include <QThread>
#include <QThreadPool>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr char kCookieSecretSetting[] = "cookie_secret"; // signs private sites' access cookies
constexpr int kCookieSecretBytes = 32;
constexpr char kVersionsKeptSetting[] = "versions_kept"; // how many versions each deployment keeps
constexpr int kPasswordCheckThreads = 2; // Argon2id takes ~64 MiB and tens of ms per check
constexpr int kStopPollMs = 20; // how often a graceful stop looks whether connections are done
} // namespace

// Everything the engine is made of, grouped by layer from the bottom up. Members are destroyed in reverse order, so
// each layer goes away before what it depends on: the HTTP service first, the clock last.
struct Engine::Parts
{
    Parts(const EngineSettings &settings, QObject *engineContext)
        : clock(settings.clock ? *settings.clock : systemClock)
        , rateLimiter(clock)
        , rateLimits(rateLimiter, clock)
        , database(QDir(settings.dataDir).filePath(u"berth.sqlite"_s), settings.databaseUrl)
        , blobBackend(settings.databaseUrl.isEmpty() ? nullptr : new PostgresBlobBackend(settings.databaseUrl))
        , blobs(QDir(settings.dataDir).filePath(u"blobs"_s))
        , deploymentRepository(database)
        , userRepository(database)
        , keyRepository(database)
        , settingsRepository(database)
        , submissionRepository(database)
        , counterRepository(database)
        , allowListRepository(database)
        , signInRequestRepository(database)
        , agentClaimRepository(database)
        , rateWindowRepository(database)
        , addresses(QString(), QString())
        , accounts(userRepository, keyRepository, clock)
        , siteLoader(deploymentRepository, blobs, siteTable)
        , garbage(deploymentRepository, blobs, siteTable, workers, faults)
        , history(deploymentRepository, blobs, siteLoader, garbage, clock, faults)
        , deployments(deploymentRepository, blobs, siteLoader, garbage, history, plans, clock, workers, faults)
        , sync(database, siteLoader)
        , submissions(submissionRepository, deploymentRepository, userRepository, plans, clock)
        , counters(counterRepository, deploymentRepository, userRepository, plans, clock)
        , accessControl(clock)
        , signInPolicy(settingsRepository, allowListRepository, clock)
        , planSettings(settingsRepository, plans)
        , otp(database, signInRequestRepository, signInPolicy, accounts, mailer, clock)
        , agents(database, userRepository, keyRepository, agentClaimRepository, deploymentRepository, accounts, plans,
              clock)
        , usage(deploymentRepository, submissionRepository, counterRepository, plans, clock)
        , router(accounts, rateLimits, settings.apiRequestsPerMinute, settings.trustedProxies)
        , statusController(addresses)
        , deploymentsController(deployments, addresses)
        , versionsController(deployments, history, addresses)
        , submissionsController(submissions)
        , countersController(counters)
        , authController(agents, otp, signInPolicy, rateLimits, addresses, settings.trustedProxies)
        , keysController(accounts, clock)
        , meController(usage, addresses)
        , openApiController(router, addresses)
        , mcpController(router, accounts, addresses, clock)
        , lan(settingsRepository, siteTable,
              LanService::Options {
                  {settings.sitePortFirst, settings.sitePortLast}, settings.lanName, settings.lanTestAddresses})
        , builtinEndpoints(submissions, counters, rateLimits, settings.trustedProxies)
        , privateGate(accessControl, rateLimits, passwordChecks, settings.trustedProxies)
        , siteServer(siteTable, blobs, addresses, privateGate, engineContext)
        , dispatcher(addresses, router, siteServer, engineContext)
    {
        if (blobBackend) {
            reconnectingBackend = std::make_unique<ReconnectingBlobBackend>(*blobBackend);
            blobs.setBackend(reconnectingBackend.get(), settings.blobCacheBytes);
        }
    }

    // Time, rate limits and the thread pools that do heavy work off the serving threads.
    SystemClock systemClock;
    const Clock &clock;
    RateLimiter rateLimiter; // the node's own counts
    RateLimitService rateLimits; // what every limit asks: rateLimiter, or with shared limits the database
    QThreadPool workers; // deploys: decoding, hashing, blob writes
    QThreadPool passwordChecks; // the password gate's Argon2id checks, apart so that they cannot delay deploys

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
    AllowListRepository allowListRepository;
    SignInRequestRepository signInRequestRepository;
    AgentClaimRepository agentClaimRepository;
    RateWindowRepository rateWindowRepository; // shared rate limits

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
    DeploymentSync sync; // PostgreSQL: changes made through other servers
    SubmissionService submissions;
    CounterService counters;
    AccessControl accessControl;
    SignInPolicy signInPolicy;
    PlanSettings planSettings;
    SmtpMailer mailer; // destroyed after otp: mails in flight finish, their answers find no one to tell
    OtpService otp;
    AgentService agents;
    UsageReport usage;

    // The management API: its router and controllers.
    ApiRouter router;
    StatusController statusController;
    DeploymentsController deploymentsController;
    VersionsController versionsController;
    SubmissionsController submissionsController;
    CountersController countersController;
    AuthController authController;
    KeysController keysController;
    MeController meController;
    OpenApiController openApiController;
    McpController mcpController;

    // LAN sharing: <slug>.local names and a port per site; detached before http goes.
    LanService lan;

    // What visitors get.
    BuiltinEndpoints builtinEndpoints;
    PrivateGate privateGate;
    SiteServer siteServer;

    // HTTP: the dispatcher between API and sites, and the serving threads in front of it.
    HostDispatcher dispatcher;
    std::unique_ptr<HttpService> http;

    std::optional<QString> ownerFirstKey;
    bool opened = false;
    bool stopping = false;
};

Engine::Engine(EngineSettings settings, QObject *parent)
    : QObject(parent)
    , m_settings(std::move(settings))
{
    if (m_settings.dataDir.isEmpty())
        m_settings.dataDir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    m_parts = std::make_unique<Parts>(m_settings, this);
    m_parts->passwordChecks.setMaxThreadCount(kPasswordCheckThreads);
    m_parts->deployments.setWorkersYieldToServing(m_settings.workersYieldToServing);
    m_parts->garbage.setWorkersYieldToServing(m_settings.workersYieldToServing);
    m_parts->statusController.registerRoutes(m_parts->router);
    m_parts->deploymentsController.registerRoutes(m_parts->router);
    m_parts->versionsController.registerRoutes(m_parts->router);
    m_parts->submissionsController.registerRoutes(m_parts->router);
    m_parts->countersController.registerRoutes(m_parts->router);
    m_parts->authController.registerRoutes(m_parts->router);
    m_parts->keysController.registerRoutes(m_parts->router);
    // For agents and scripts: GET /auth/me, GET /openapi.json and /mcp.
    m_parts->meController.registerRoutes(m_parts->router);
    m_parts->openApiController.registerRoutes(m_parts->router);
    m_parts->mcpController.registerRoutes(m_parts->router);
    m_parts->siteServer.setEndpoints(&m_parts->builtinEndpoints);
    m_parts->siteServer.setLoader([this](const QString &slug) { return m_parts->siteLoader.loadSite(slug); });
    m_parts->dispatcher.setLanNames(&m_parts->lan.names());
    connect(&m_parts->siteLoader, &SiteLoader::deploymentChanged, &m_parts->lan, &LanService::siteChanged);
    connect(&m_parts->siteLoader, &SiteLoader::deploymentRemoved, &m_parts->lan, &LanService::siteRemoved);
}

Engine::~Engine()
{
    // Serving threads first: nothing new arrives while the rest winds down. Then finish deploy work before the
    // services it reports to go away.
    m_parts->lan.detach();
    m_parts->http.reset();
    m_parts->passwordChecks.waitForDone();
    m_parts->workers.waitForDone();
}

Result<void> Engine::open()
{
    if (m_parts->opened)
        return {};
    if (!QDir().mkpath(m_settings.dataDir))
        return Error {Error::Kind::Internal, u"Cannot create the data directory %1"_s.arg(m_settings.dataDir)};
    Result<void> ready = m_parts->database.open();
    if (ready)
        ready = m_parts->blobs.init();
    if (!ready)
        return ready;
    auto owner = m_parts->accounts.ensureOwner();
    if (!owner)
        return owner.error();
    if (owner.value().firstKey)
        m_parts->ownerFirstKey = owner.value().firstKey->secret;
    // A broken plan table must not lock the owner out of fixing it (berthd plans ...): keep the defaults.
    if (const Result<void> loaded = m_parts->planSettings.load(); !loaded)
        qWarning("%s", qPrintable(loaded.error().message));

    QString secret = m_parts->settingsRepository.value(QLatin1String(kCookieSecretSetting));
    if (secret.isEmpty()) {
        secret = QString::fromLatin1(RandomId::token(kCookieSecretBytes));
        if (const Result<void> stored
            = m_parts->settingsRepository.setValue(QLatin1String(kCookieSecretSetting), secret);
            !stored) {
            qWarning().noquote() << "cannot store the instance secret:" << stored.error().message;
            return Error {Error::Kind::Internal, u"Cannot store the instance secret"_s};
        }
    }
    m_parts->accessControl.setSecret(secret.toLatin1());
    loadVersionsKept();
    m_parts->opened = true;
    return {};
}

void Engine::loadVersionsKept()
{
    bool ok = false;
    const int kept = m_parts->settingsRepository.value(QLatin1String(kVersionsKeptSetting)).toInt(&ok);
    m_parts->history.setVersionsKept(ok && kept > 0 ? kept : VersionHistory::kDefaultVersionsKept);
}

bool Engine::setVersionsKept(int count)
{
    if (count < 1)
        return false;
    if (!m_parts->settingsRepository.setValue(QLatin1String(kVersionsKeptSetting), QString::number(count)))
        return false;
    m_parts->history.setVersionsKept(count);
    return true;
}

Result<void> Engine::start()
{
    // One server on SQLite has nothing to share its limits with: refused, so that nobody believes they are shared.
    if (m_settings.sharedRateLimits && m_settings.databaseUrl.isEmpty())
        return Error {Error::Kind::BadRequest, u"Shared rate limits need a PostgreSQL database (--database)"_s};
    if (Result<void> opened = open(); !opened)
        return opened;
    // Serving says which database the folder belongs to: berthd backup must not copy a stale berth.sqlite.
    if (Result<void> marked = DatabaseMarker::record(m_settings.dataDir, !m_settings.databaseUrl.isEmpty()); !marked)
        return marked;
    if (m_settings.sharedRateLimits)
        m_parts->rateLimits.share(m_parts->rateWindowRepository, this);
    // Listening before loading: a change committed after the load is notified or found by the resync.
    if (Result<void> synced = m_parts->sync.start(); !synced)
        return synced;
    m_parts->siteTable.setLoadedLimit(m_settings.loadedSites);
    if (Result<void> loaded = m_parts->siteLoader.loadSites(); !loaded)
        return loaded;

    HttpConfig config;
    config.servingThreads = m_settings.servingThreads > 0 ? m_settings.servingThreads : QThread::idealThreadCount();
    config.maxConnections = m_settings.maxConnections;
    config.maxConnectionsPerAddress = m_settings.maxConnectionsPerAddress;
    config.uncappedAddresses = m_settings.trustedProxies; // a reverse proxy carries many clients
    m_parts->http = std::make_unique<HttpService>(m_parts->dispatcher, config);
    const bool tls = !m_settings.tlsCertFile.isEmpty() || !m_settings.tlsKeyFile.isEmpty();
    if (tls) {
        if (m_settings.tlsCertFile.isEmpty() || m_settings.tlsKeyFile.isEmpty())
            return Error {Error::Kind::BadRequest, u"HTTPS needs both a certificate and a key file"_s};
        const Result<TlsCredentials> credentials = TlsCredentials::load(m_settings.tlsCertFile, m_settings.tlsKeyFile);
        if (!credentials)
            return credentials.error();
        m_parts->http->setTls(credentials.value().configuration, m_settings.httpsPort, m_settings.httpsRedirect);
    }
    if (Result<void> listening = m_parts->http->listen(m_settings.listenAddress, m_settings.listenPort); !listening)
        return listening;

    // With HTTPS, the addresses announced (API, sites, share links, QR codes) are the HTTPS ones.
    const quint16 port = tls ? m_parts->http->httpsPort() : m_parts->http->serverPort();
    const QString scheme = tls ? u"https"_s : u"http"_s;
    const QString baseUrl
        = m_settings.baseUrl.isEmpty() ? u"%1://localhost:%2"_s.arg(scheme).arg(port) : m_settings.baseUrl;
    const QString siteDomain = m_settings.siteDomain.isEmpty() ? u"localhost:%1"_s.arg(port) : m_settings.siteDomain;
    m_parts->addresses = SiteAddresses(baseUrl, siteDomain);
    // Behind a TLS proxy every request is HTTPS to the browser. With TLS here each request says so itself
    // (HttpRequest::secure): a plain-HTTP visitor must not get a cookie its browser would drop.
    m_parts->privateGate.setSecureCookies(m_parts->addresses.isHttps() && !tls);
    m_parts->lan.attach(*m_parts->http, m_parts->dispatcher, m_parts->dispatcher, m_settings.listenAddress,
        m_parts->http->serverPort());
    m_parts->lan.setEnabled(m_settings.lanSharing);
    // Once listening, and before any deploy can be in flight: the store's walk runs on a worker. The start's reads
    // leave freed heap behind: returned to the system once the walk is done too.
    m_parts->garbage.sweepStore().then([] { releaseFreedMemory(); });
    return {};
}

void Engine::stop(std::function<void()> done)
{
    if (m_parts->stopping)
        return; // the stop under way calls its own done()
    if (!m_parts->http) {
        done();
        return;
    }
    m_parts->stopping = true;
    m_parts->http->drain();
    // Requests in progress keep their connections until answered (a deploy's commit runs on this thread, so the
    // event loop must keep running meanwhile): wait for the connections to close, or for the deadline.
    auto *poll = new QTimer(this);
    auto deadline = std::make_shared<QElapsedTimer>();
    deadline->start();
    connect(poll, &QTimer::timeout, this, [this, poll, deadline, done = std::move(done)] {
        const int live = m_parts->http->liveConnections();
        if (live > 0 && deadline->elapsed() < m_settings.stopDeadlineMs)
            return;
        if (live > 0)
            qWarning("berth: %d connection(s) still open at the stop deadline; closing them", live);
        poll->deleteLater();
        m_parts->lan.detach();
        m_parts->http.reset();
        done();
    });
    poll->start(kStopPollMs);
}

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
CounterService &Engine::counters()
{
    return m_parts->counters;
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

} // namespace berth
