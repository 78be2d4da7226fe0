// Host header and slug parsing. The first input line is a Host header, read as HttpRequest::host() does and
// dispatched by two instances' SiteAddresses; the whole input, as UTF-8, is also a slug candidate and a folder name
// for SlugRules. Checks: host() lower-cases and strips a port, a slug found in a Host is one label directly under
// the site domain, a slug that validates is made only of a-z, 0-9 and single inner hyphens and round-trips
// through its own site URL, and fromName() always proposes a valid slug.
#include "fuzzcheck.h"

#include <QUrl>
#include <domain/deploy/slugrules.h>
#include <domain/siterules/siteaddresses.h>
#include <http/httprequest.h>

using namespace berth;
using berth::fuzz::check;

namespace {

void checkHost(const SiteAddresses &addresses, const QString &host)
{
    const std::optional<QString> slug = addresses.slugForHost(host);
    if (!slug)
        return;
    check(!slug->isEmpty() && !slug->contains(u'.'));
    const QString siteHost = QUrl(QStringLiteral("http://") + addresses.siteDomain()).host();
    check(host == *slug + u'.' + siteHost);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const SiteAddresses local(QStringLiteral("http://localhost:8080"), QStringLiteral("localhost:8080"));
    static const SiteAddresses hosted(QStringLiteral("https://berth.example.com"), QStringLiteral("sites.example.com"));
    const QByteArray input = fuzz::bytes(data, size);

    HttpRequest request;
    request.headers.append({"host", fuzz::splitFirstLine(input).first});
    const QString host = request.host();
    check(host == host.toLower());
    if (!host.startsWith(u'['))
        check(!host.contains(u':'));
    checkHost(local, host);
    checkHost(hosted, host);
    local.isApiHost(host);
    hosted.isApiHost(host);

    const QString text = QString::fromUtf8(input);
    if (SlugRules::validate(text).isEmpty()) {
        check(text.size() >= SlugRules::kMinLength && text.size() <= SlugRules::kMaxLength);
        check(!text.startsWith(u'-') && !text.endsWith(u'-') && !text.contains(QStringLiteral("--")));
        for (const QChar c : text)
            check((c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9') || c == u'-');
        for (const SiteAddresses *addresses : {&local, &hosted})
            check(addresses->slugForHost(QUrl(addresses->siteUrl(text)).host()) == text);
    }
    check(SlugRules::validate(SlugRules::fromName(text)).isEmpty());
    return 0;
}
