#include "dashboardsamples.h"

#include "domain/accounts/accountservice.h"
#include "domain/acme/acmemanager.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/events/webhookservice.h"
#include "domain/visitors/counterservice.h"
#include "domain/visitors/submissionservice.h"
#include "testcertificates.h"
#include "uitestsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {

using Site = DashboardSamples::Site;

// Public and private sites, two with 30-character slugs, the first with a long title that elides.
const QList<Site> kSites {
    {u"spring-garden-open-day-program"_s, u"Spring garden open day: the programme, the map and the stalls"_s, false},
    {u"annual-general-meeting-minutes"_s, u"Minutes"_s, true},
    {u"launch-day"_s, u"Launch day"_s, true},
    {u"team-handbook"_s, u"Team handbook"_s, false},
};
const QString kCertifiedName = u"garden.example.org"_s;
const QString kFailingName = u"open-day.example.org"_s;

} // namespace

const QList<Site> &DashboardSamples::sites()
{
    return kSites;
}

QString DashboardSamples::firstSlug()
{
    return kSites.constFirst().slug;
}

bool DashboardSamples::useAcme(Dashboard &dashboard, EngineSettings &settings)
{
    settings.acme.directoryUrl = u"http://127.0.0.1:1/directory"_s;
    settings.acme.email = u"ops@example.org"_s;
    settings.httpsPort = 0; // with ACME the engine listens for HTTPS too: any free port, as tests run side by side
    QTemporaryDir made;
    TestCertificates certificates;
    const QDir folder(QDir(dashboard.fixture().dataDir()).filePath(u"certificates"_s));
    return certificates.make(made.path(), {kCertifiedName}) && folder.mkpath(u"."_s)
        && QFile::copy(certificates.serverCert, folder.filePath(kCertifiedName + u".pem"_s))
        && QFile::copy(certificates.serverKey, folder.filePath(kCertifiedName + u".key"_s));
}

bool DashboardSamples::add(Dashboard &dashboard)
{
    const User owner = dashboard.owner();
    DeploymentService &deployments = dashboard.engine().deployments();
    const auto finished = [](const QFuture<Result<Deployment>> &future) {
        return QTest::qWaitFor([&] { return future.isFinished(); }, 10'000) && future.result();
    };
    for (const Site &site : kSites) {
        DeployRequest request;
        request.slug = site.slug;
        request.title = site.title;
        request.protect = site.isPrivate;
        request.files = QList<FileUpload> {{u"index.html"_s, "<h1>Hello</h1>", "text/html; charset=utf-8"}};
        const auto future = deployments.create(owner, request);
        if (!finished(future))
            return false;
        m_ids.insert(site.slug, future.result().value().id);
    }
    // The first site's history: two versions more, the files and the title grown.
    for (const QByteArray &style : {QByteArray("h1 { color: green }"), QByteArray(4000, ' ')}) {
        DeployRequest request;
        request.title = kSites.constFirst().title;
        request.files = QList<FileUpload> {{u"index.html"_s, "<h1>Open day</h1>", "text/html; charset=utf-8"},
            {u"style.css"_s, style, "text/css; charset=utf-8"}};
        if (!finished(deployments.update(owner, m_ids.value(firstSlug()), request)))
            return false;
    }
    // The first site's own names: one with a certificate kept from an earlier run, one whose order fails.
    DeployRequest named;
    named.domains = QStringList {kCertifiedName, kFailingName};
    if (!finished(deployments.update(owner, m_ids.value(firstSlug()), named)))
        return false;
    const AcmeManager *acme = dashboard.engine().acme();
    if (acme && !QTest::qWaitFor([&] { return acme->status(kFailingName).state == CertificateStatus::State::Failed; }))
        return false;
    // Launch day goes offline by itself in a week: the list's Expires column and its Expiry dialog.
    DeployRequest expiring;
    expiring.expiresIn = 7 * 24 * 3600;
    if (!finished(deployments.update(owner, m_ids.value(u"launch-day"_s), expiring)))
        return false;
    const Deployment launch = deployments.get(owner, m_ids.value(u"launch-day"_s)).value();
    // A morning's sign-ups, three counters, a few keys and people: windows with what they are made for.
    const QStringList names {u"Ana Lima"_s, u"Ben Ortiz"_s, u"Chen Wei"_s, u"Dora K."_s, u"Eli"_s};
    for (int i = 0; i < 24; ++i) {
        const QString name = names.at(i % names.size());
        const QJsonObject form {{u"email"_s, u"%1.%2@example.com"_s.arg(name.section(u' ', 0, 0).toLower()).arg(i)},
            {u"name"_s, name},
            {u"message"_s, i % 3 ? u"Count me in!"_s : u"Can I bring a friend? She builds boats too."_s}};
        if (!dashboard.engine().submissions().receive(launch, form))
            return false;
    }
    for (const QString &counter : {u"visits"_s, u"signups"_s, u"newsletter-clicks"_s}) {
        if (!dashboard.engine().counters().increment(launch, counter))
            return false;
    }
    for (const QString &label : {u"laptop"_s, u"deploy script on the build server"_s, u"ci"_s}) {
        if (!dashboard.engine().accounts().createKey(owner.id, label))
            return false;
    }
    return addTraffic(dashboard) && addWebhook(dashboard)
        && dashboard.engine().accounts().ensureUser(u"ana@example.com"_s, u"free"_s)
        && dashboard.engine().accounts().ensureUser(u"ben.ortiz@example.org"_s, u"free"_s);
}

// Visits to the first (public) site over HTTP, from a few referrers, with a missing page: its Traffic window.
bool DashboardSamples::addTraffic(Dashboard &dashboard)
{
    const QString slug = kSites.constFirst().slug;
    const QList<std::pair<QString, QByteArray>> visits {{u"/"_s, "https://news.example.org/a"},
        {u"/"_s, "https://forum.example.net/t/1"}, {u"/style.css"_s, {}}, {u"/programme"_s, {}},
        {u"/"_s, "https://news.example.org/b"}};
    for (const auto &[path, referrer] : visits) {
        QList<QPair<QByteArray, QByteArray>> headers {{"User-Agent", "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0"}};
        if (!referrer.isEmpty())
            headers.append({"Referer", referrer});
        if (dashboard.client().site(slug, path, "GET", headers).status == 0)
            return false;
    }
    dashboard.engine().flushAnalytics();
    return true;
}

// A webhook of launch-day whose receiver is not there: its test delivery waits for another attempt.
bool DashboardSamples::addWebhook(Dashboard &dashboard)
{
    WebhookService &webhooks = dashboard.engine().webhooks();
    if (!webhooks.setTargets(WebhookTargets::Policy::Any))
        return false;
    std::optional<Result<Webhook>> added;
    webhooks.add(dashboard.owner(),
        {u"http://127.0.0.1:9/hooks/launch-day"_s, {u"submission.created"_s}, m_ids.value(u"launch-day"_s)},
        [&](Result<Webhook> answer) { added = std::move(answer); });
    return QTest::qWaitFor([&] { return added.has_value(); }, 5000) && *added
        && webhooks.ping(dashboard.owner(), added->value().id);
}

} // namespace berth::test
