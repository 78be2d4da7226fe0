#include "instance/engineparts.h"

#include <QDir>

using namespace Qt::StringLiterals;

namespace berth {

Engine::Parts::Parts(const EngineSettings &settings, QObject *engineContext)
    : clock(settings.clock ? *settings.clock : systemClock)
    , rateLimiter(clock)
    , rateLimits(rateLimiter, clock)
    , gateChecks(passwordChecks,
          // One site at a time on all but one worker: a flood at one site always leaves a worker to the others.
          {kPasswordCheckThreads, qMax(1, kPasswordCheckThreads - 1), kMaxGateChecksQueuedPerSite,
              kMaxGateChecksQueued})
    , database(QDir(settings.dataDir).filePath(u"berth.sqlite"_s), settings.databaseUrl)
    , blobBackend(settings.databaseUrl.isEmpty() ? nullptr : new PostgresBlobBackend(settings.databaseUrl))
    , blobs(QDir(settings.dataDir).filePath(u"blobs"_s))
    , deploymentRepository(database)
    , userRepository(database)
    , keyRepository(database)
    , settingsRepository(database)
    , submissionRepository(database)
    , counterRepository(database)
    , analyticsRepository(database)
    , allowListRepository(database)
    , signInRequestRepository(database)
    , agentClaimRepository(database)
    , rateWindowRepository(database)
    , storeTotals(database)
    , webhookRepository(database)
    , eventRepository(database)
    , shareLinkRepository(database)
    , domainRepository(database)
    , addresses(QString(), QString())
    , accounts(userRepository, keyRepository, clock)
    , siteLoader(deploymentRepository, blobs, siteTable)
    , garbage(deploymentRepository, blobs, siteTable, workers, faults)
    , history(deploymentRepository, blobs, siteLoader, garbage, clock, faults)
    , deployments(deploymentRepository, blobs, siteLoader, garbage, history, plans, clock, workers, faults)
    , customDomains(domainRepository, settingsRepository, customDomainTable, addresses, clock)
    , sync(database, siteLoader)
    , agentSiteLifetime(settingsRepository)
    , siteExpiry(deploymentRepository, deployments, clock)
    , submissions(submissionRepository, deploymentRepository, userRepository, plans, clock)
    , counters(counterRepository, deploymentRepository, userRepository, plans, clock)
    , trafficCounter(clock)
    , analytics(trafficCounter, analyticsRepository, deploymentRepository, clock)
    , accessControl(clock)
    , shareLinks(shareLinkRepository, deployments, shareLinkTable, addresses, clock)
    , signInPolicy(settingsRepository, allowListRepository, clock)
    , planSettings(settingsRepository, plans)
    , otp(database, signInRequestRepository, signInPolicy, accounts, mailer, clock)
    , agents(
          database, userRepository, keyRepository, agentClaimRepository, deploymentRepository, accounts, plans, clock)
    , usage(deploymentRepository, submissionRepository, counterRepository, plans, clock)
    , eventRecorder(webhookRepository, eventRepository, submissionRepository, addresses, clock)
    , changeJournal(database)
    , webhooks(webhookRepository, eventRepository, deploymentRepository, settingsRepository, eventRecorder, clock)
    , deliveryScheduler(eventRepository, webhookRepository, clock, DeliveryNode::forDataFolder(settings.dataDir),
          [this](const QUrl &url, QObject *context, std::function<void(QString)> done) {
              checkWebhookTarget(url, webhooks.targets(), context, std::move(done));
          })
    , router(accounts, rateLimits, settings.apiRequestsPerMinute, settings.trustedProxies)
    , statusController(addresses)
    , deploymentsController(deployments, customDomains, addresses)
    , versionsController(deployments, history, addresses)
    , submissionsController(submissions)
    , countersController(counters)
    , analyticsController(analytics)
    , authController(agents, otp, signInPolicy, rateLimits, addresses, apiOrigins, settings.trustedProxies)
    , keysController(accounts, clock)
    , meController(usage, addresses)
    , openApiController(router, addresses)
    , mcpController(router, accounts, apiOrigins, clock)
    , metricsController(storeTotals, clock)
    , webhooksController(webhooks)
    , shareLinksController(shareLinks, deployments, addresses)
    , lan(settingsRepository, siteTable,
          LanService::Options {
              {settings.sitePortFirst, settings.sitePortLast}, settings.lanName, settings.lanTestAddresses})
    , builtinEndpoints(submissions, counters, rateLimits, settings.trustedProxies)
    , shareLinkGate(shareLinkTable, accessControl, clock)
    , privateGate(accessControl, rateLimits, gateChecks, settings.trustedProxies)
    , siteServer(siteTable, blobs, addresses, privateGate, clock, engineContext)
    , trafficRecorder(trafficCounter, settings.trustedProxies)
    , dispatcher(addresses, router, siteServer, engineContext)
{
    if (blobBackend) {
        reconnectingBackend = std::make_unique<ReconnectingBlobBackend>(*blobBackend);
        blobs.setBackend(reconnectingBackend.get(), settings.blobCacheBytes);
    }
}

} // namespace berth
