#include "instance/engine.h"

#include "domain/common/randomid.h"
#include "instance/engineparts.h"

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
constexpr int kStopPollMs = 20; // how often a graceful stop looks whether connections are done
constexpr int kAnalyticsFlushMs = 1000; // how often page views are written
} // namespace

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
    m_parts->analyticsController.registerRoutes(m_parts->router);
    m_parts->authController.registerRoutes(m_parts->router);
    m_parts->keysController.registerRoutes(m_parts->router);
    // For agents and scripts: GET /auth/me, GET /openapi.json and /mcp.
    m_parts->meController.registerRoutes(m_parts->router);
    m_parts->openApiController.registerRoutes(m_parts->router);
    m_parts->mcpController.registerRoutes(m_parts->router);
    m_parts->metricsController.registerRoutes(m_parts->router);
    m_parts->webhooksController.registerRoutes(m_parts->router);
    m_parts->shareLinksController.registerRoutes(m_parts->router);
    m_parts->privateGate.setShareLinks(&m_parts->shareLinkGate);
    // Opens counted on the serving threads are written with the page views, and a site's links go with it.
    connect(&m_parts->analyticsFlush, &QTimer::timeout, this, [this] { m_parts->shareLinks.flush(); });
    connect(&m_parts->siteLoader, &SiteLoader::deploymentRemoved, this,
        [this](const QString &id) { m_parts->shareLinks.forget(id); });
    // PostgreSQL: a link made or revoked through another server.
    connect(
        &m_parts->sync, &DeploymentSync::notified, this, [this](const QString &id) { m_parts->shareLinks.reload(id); });
    // Each change's event is written in the change's own transaction: a crash keeps both or neither.
    m_parts->changeJournal.setWriter(
        [this](const ChangeJournal::Change &change) { return m_parts->eventRecorder.recordChange(change); });
    m_parts->deployments.setChangeJournal(&m_parts->changeJournal);
    m_parts->history.setChangeJournal(&m_parts->changeJournal);
    m_parts->submissions.setChangeJournal(&m_parts->changeJournal);
    connect(&m_parts->eventRecorder, &EventRecorder::deliveriesAdded, &m_parts->deliveryScheduler,
        &DeliveryScheduler::wake);
    connect(
        &m_parts->webhooks, &WebhookService::deliveryRetried, &m_parts->deliveryScheduler, &DeliveryScheduler::wake);
    connect(&m_parts->deliveryScheduler, &DeliveryScheduler::webhookDisabled, &m_parts->webhooks,
        &WebhookService::announceDisabled);
    // mailto: webhooks, through the same SMTP settings and mailer as sign-in codes (read at each mail).
    m_parts->deliveryScheduler.setMailSender([this](const QString &to, const QString &subject, const QString &body) {
        const SmtpConfig smtp = m_parts->signInPolicy.smtp();
        if (!smtp.isConfigured())
            return QtFuture::makeReadyFuture(u"mail is not set up on this server"_s);
        return m_parts->mailer.send(smtp, {smtp.from, to, subject, body});
    });
    m_parts->siteServer.setEndpoints(&m_parts->builtinEndpoints);
    m_parts->siteServer.setTrafficRecorder(&m_parts->trafficRecorder);
    // Off the serving threads, once a second: a crash loses at most the last second of page views.
    connect(&m_parts->analyticsFlush, &QTimer::timeout, this, [this] { m_parts->analytics.flush(); });
    m_parts->siteServer.setLoader([this](const QString &slug) { return m_parts->siteLoader.loadSite(slug); });
    m_parts->siteServer.setVersionLoader(
        [this](const QString &slug, int number) { return m_parts->siteLoader.loadVersion(slug, number); });
    m_parts->dispatcher.setLanNames(&m_parts->lan.names());
    m_parts->dispatcher.setCustomDomains(&m_parts->customDomainTable);
    m_parts->deployments.setCustomDomains(&m_parts->customDomains);
    // A site's change may move its names (a rename) or free them (a delete, an expiry, another server's change).
    connect(&m_parts->siteLoader, &SiteLoader::deploymentChanged, &m_parts->customDomains,
        [this] { m_parts->customDomains.publish(); });
    connect(&m_parts->siteLoader, &SiteLoader::deploymentRemoved, &m_parts->customDomains,
        [this] { m_parts->customDomains.publish(); });
    connect(&m_parts->siteLoader, &SiteLoader::deploymentChanged, &m_parts->lan, &LanService::siteChanged);
    connect(&m_parts->siteLoader, &SiteLoader::deploymentRemoved, &m_parts->lan, &LanService::siteRemoved);
    m_parts->deployments.setAgentSiteLifetime(&m_parts->agentSiteLifetime);
    // On this thread, the database's: a sweep is a few statements, and the serving threads never wait for it.
    connect(&m_parts->idleAgentSweep, &QTimer::timeout, this, [this] {
        if (const Result<int> removed = m_parts->agents.removeIdleAgents(); !removed)
            qWarning().noquote() << "cannot remove idle agents:" << removed.error().message;
    });
}

Engine::~Engine()
{
    // Serving threads first: nothing new arrives while the rest winds down. Then finish deploy work before the
    // services it reports to go away.
    m_parts->lan.detach();
    m_parts->http.reset();
    if (m_parts->opened) {
        m_parts->analytics.flush(); // what the serving threads counted last
        m_parts->shareLinks.flush();
    }
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
    mapLargeBuffersApart();
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
    if (Result<void> links = m_parts->shareLinks.load(); !links)
        return links;
    m_parts->customDomains.publish();

    HttpConfig config;
    config.servingThreads = m_settings.servingThreads > 0 ? m_settings.servingThreads : QThread::idealThreadCount();
    config.maxConnections = m_settings.maxConnections;
    config.maxConnectionsPerAddress = m_settings.maxConnectionsPerAddress;
    config.uncappedAddresses = m_settings.trustedProxies; // a reverse proxy carries many clients
    if (Result<void> logging = startAccessLog(); !logging)
        return logging;
    m_parts->http = std::make_unique<HttpService>(m_parts->dispatcher, config);
    m_parts->http->setAccessLog(m_parts->accessLog.get());
    m_parts->metricsController.setSources({[http = m_parts->http.get()] { return http->requestTotals(); },
        [http = m_parts->http.get()] { return http->liveConnections(); },
        [http = m_parts->http.get()] { return qMax(1, http->servingThreads()); },
        [this] { return accessLogDroppedLines(); }, [this] { return m_parts->deployments.deploysCommitted(); },
        [this] { return m_parts->analytics.lastSavedAt(); }, [this] { return m_parts->analytics.failedFlushes(); }});
    const bool tls = !m_settings.tlsCertFile.isEmpty() || !m_settings.tlsKeyFile.isEmpty();
    if (tls) {
        if (m_settings.tlsCertFile.isEmpty() || m_settings.tlsKeyFile.isEmpty())
            return Error {Error::Kind::BadRequest, u"HTTPS needs both a certificate and a key file"_s};
        const Result<TlsCredentials> credentials = TlsCredentials::load(m_settings.tlsCertFile, m_settings.tlsKeyFile);
        if (!credentials)
            return credentials.error();
        m_parts->tlsCertificates.setFallback(credentials.value());
        if (!m_settings.tlsDir.isEmpty()) {
            m_parts->tlsDirectory = std::make_unique<TlsDirectoryWatcher>(m_parts->tlsCertificates, m_settings.tlsDir);
            if (Result<void> watching = m_parts->tlsDirectory->start(); !watching)
                return watching;
        }
    }
    // ACME alone turns HTTPS on too: each name is served its own certificate once it arrives, and a handshake for a
    // name without one fails (there is no certificate for everything else).
    const bool https = tls || m_settings.acme.enabled();
    if (https)
        m_parts->http->setTls(m_parts->tlsCertificates, m_settings.httpsPort, m_settings.httpsRedirect);
    prepareAcme();
    if (Result<void> listening = m_parts->http->listen(m_settings.listenAddress, m_settings.listenPort); !listening)
        return listening;

    // With HTTPS, the addresses announced (API, sites, share links, QR codes) are the HTTPS ones; with ACME alone the
    // plain ones, since the default host (localhost) gets no certificate.
    const quint16 port = tls ? m_parts->http->httpsPort() : m_parts->http->serverPort();
    const QString scheme = tls ? u"https"_s : u"http"_s;
    const QString baseUrl
        = m_settings.baseUrl.isEmpty() ? u"%1://localhost:%2"_s.arg(scheme).arg(port) : m_settings.baseUrl;
    const QString siteDomain = m_settings.siteDomain.isEmpty() ? u"localhost:%1"_s.arg(port) : m_settings.siteDomain;
    m_parts->addresses = SiteAddresses(baseUrl, siteDomain);
    QList<ApiOrigins::Listener> listeners {{u"http"_s, m_parts->http->serverPort()}};
    if (https)
        listeners.append({u"https"_s, m_parts->http->httpsPort()});
    m_parts->apiOrigins.set(baseUrl, m_settings.listenAddress, listeners);
    // Behind a TLS proxy every request is HTTPS to the browser. With TLS here each request says so itself
    // (HttpRequest::secure): a plain-HTTP visitor must not get a cookie its browser would drop.
    m_parts->privateGate.setSecureCookies(m_parts->addresses.isHttps() && !https);
    m_parts->lan.attach(*m_parts->http, m_parts->dispatcher, m_parts->dispatcher, m_settings.listenAddress,
        m_parts->http->serverPort());
    m_parts->lan.setEnabled(m_settings.lanSharing);
    // Once listening, and before any deploy can be in flight: the store's walk runs on a worker. The start's reads
    // leave freed heap behind: returned to the system once the walk is done too.
    m_parts->garbage.sweepStore().then([] { releaseFreedMemory(); });
    m_parts->idleAgentSweep.start(m_settings.idleAgentSweepMs);
    m_parts->siteExpiry.start(m_settings.expirySweepMs); // on this thread, as a DELETE runs
    m_parts->deliveryScheduler.start(); // pending deliveries, those left by the last run too
    m_parts->analyticsFlush.start(kAnalyticsFlushMs);
    startAcme(); // once the addresses are known: they may be among the names
    return {};
}

Result<void> Engine::startAccessLog()
{
    if (m_settings.accessLog.isEmpty())
        return {};
    AccessLogOptions options;
    options.path = m_settings.accessLog == u"-"_s ? m_settings.accessLog
                                                  : QDir(m_settings.dataDir).absoluteFilePath(m_settings.accessLog);
    options.keepDays = m_settings.accessLogKeepDays;
    options.anonymize = m_settings.accessLogAnonymize;
    if (const Clock *clock = m_settings.clock) // else the log reads the system clock, cheaper than a QDateTime
        options.nowMs = [clock] { return clock->now().toMSecsSinceEpoch(); };
    auto log = std::make_unique<AccessLog>(std::move(options));
    if (Result<void> started = log->start(); !started)
        return started;
    m_parts->accessLog = std::move(log);
    return {};
}

qint64 Engine::accessLogDroppedLines() const
{
    return m_parts->accessLog ? m_parts->accessLog->droppedLines() : 0;
}

void Engine::flushAccessLog()
{
    if (m_parts->accessLog)
        m_parts->accessLog->flush();
}

void Engine::flushAnalytics()
{
    m_parts->analytics.flush();
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
    m_parts->idleAgentSweep.stop();
    m_parts->siteExpiry.stop();
    m_parts->deliveryScheduler.stop();
    if (m_parts->acme)
        m_parts->acme->stop();
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
        m_parts->analyticsFlush.stop();
        m_parts->analytics.flush();
        m_parts->shareLinks.flush();
        done();
    });
    poll->start(kStopPollMs);
}

} // namespace berth
