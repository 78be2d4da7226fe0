#include "site/siterules.h"

#include "domain/siterules/sitetable.h"

using namespace Qt::StringLiterals;

namespace berth::SiteRules {

namespace {

// A Location as ASCII: the rule's own text may hold other characters, which go out percent-encoded as UTF-8.
QByteArray asciiLocation(const QString &location)
{
    QByteArray out;
    const QByteArray utf8 = location.toUtf8();
    out.reserve(utf8.size());
    for (const char c : utf8) {
        const auto byte = uchar(c);
        if (byte > 0x20 && byte < 0x7f) {
            out.append(c);
        } else {
            out.append('%');
            out.append(QByteArray::number(byte, 16).toUpper().rightJustified(2, '0'));
        }
    }
    return out;
}

} // namespace

HttpResponse redirect(const Site &site, const RedirectMatch &match)
{
    HttpResponse response;
    response.status = match.status;
    response.setHeader("Location", asciiLocation(match.location));
    markVersion(response, site);
    if (site.deployment.isProtected) { // only admitted visitors get here: not for shared caches either
        response.setHeader("Cache-Control", "private, no-store");
        response.setHeader("Vary", "Cookie");
    }
    return response;
}

void markVersion(HttpResponse &response, const Site &site)
{
    if (site.version > 0)
        response.setHeader("X-Robots-Tag", "noindex");
}

void applyHeaders(HttpResponse &response, const Site &site, const QString &requestPath)
{
    markVersion(response, site);
    if (site.headers.isEmpty())
        return;
    const bool isPrivate = site.deployment.isProtected;
    for (const auto &[name, value] : site.headers.match(requestPath)) {
        if (isPrivate && HeaderRules::isCachePolicy(name))
            continue;
        response.setHeader(name, value);
    }
}

} // namespace berth::SiteRules
