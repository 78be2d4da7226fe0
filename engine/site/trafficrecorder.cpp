#include "site/trafficrecorder.h"

#include "domain/analytics/trafficcounter.h"
#include "domain/siterules/sitetable.h"
#include "http/clientaddress.h"

#include <QUrl>

namespace berth {

namespace {

// Words in the user agents of crawlers, link previews, monitors and command-line clients. Short and linear: each
// is looked for once in a user agent lower-cased once.
constexpr QByteArrayView kBotWords[] = {"bot", "crawl", "spider", "slurp", "curl", "wget", "python", "go-http-client",
    "java/", "libwww", "httpclient", "headless", "lighthouse", "facebookexternalhit", "preview", "monitor"};

bool isPrefetch(const HttpRequest &request)
{
    return request.header("sec-purpose").toLower().contains("prefetch")
        || request.header("purpose").toLower().contains("prefetch");
}

qint64 bodyBytes(const HttpResponse &response)
{
    if (response.filePath.isEmpty())
        return response.body.size();
    return qMax<qint64>(0, response.fileLength);
}

} // namespace

TrafficRecorder::TrafficRecorder(TrafficCounter &counter, QList<QHostAddress> trustedProxies)
    : m_counter(counter)
    , m_trustedProxies(std::move(trustedProxies))
{
}

bool TrafficRecorder::isBot(QByteArrayView userAgent)
{
    if (userAgent.trimmed().isEmpty())
        return true;
    const QByteArray lower = userAgent.toByteArray().toLower();
    return std::any_of(
        std::begin(kBotWords), std::end(kBotWords), [&](QByteArrayView word) { return lower.contains(word); });
}

void TrafficRecorder::watch(const HttpRequest &request, const Site &site, ResponseSink &sink)
{
    SiteHit hit;
    hit.deploymentId = site.deployment.id;
    const QByteArray userAgent = request.header("user-agent");
    const bool visitor = request.method == "GET" && !isPrefetch(request) && !isBot(userAgent);
    if (!visitor) {
        sink.observe([this, hit](const HttpResponse &response) mutable {
            hit.bytes = bodyBytes(response);
            m_counter.record(hit, {}, {});
        });
        return;
    }
    hit.path = request.path;
    const QString ownHost = request.host();
    const QString referrerHost = QUrl(QString::fromUtf8(request.header("referer"))).host().toLower();
    if (!referrerHost.isEmpty() && referrerHost != ownHost)
        hit.referrerHost = referrerHost;
    const QByteArray address = clientAddress(request, m_trustedProxies).toString().toUtf8();
    sink.observe([this, hit, address, userAgent](const HttpResponse &response) mutable {
        hit.bytes = bodyBytes(response);
        if (response.status == 404)
            hit.kind = SiteHit::Kind::NotFound;
        else if (response.status == 200 && response.header("content-type").toLower().startsWith("text/html"))
            hit.kind = SiteHit::Kind::View;
        m_counter.record(hit, address, userAgent);
    });
}

} // namespace berth
