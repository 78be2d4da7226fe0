#include "domain/siterules/customdomainname.h"

#include "domain/siterules/siteaddresses.h"

#include <QHostAddress>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth::CustomDomainName {

namespace {

constexpr int kMaxNameLength = 253; // DNS: 255 octets on the wire
constexpr int kMaxLabelLength = 63;

Error refused(const QString &message)
{
    return {Error::Kind::BadRequest, message};
}

bool isLabel(QStringView label)
{
    if (label.isEmpty() || label.size() > kMaxLabelLength || label.startsWith(u'-') || label.endsWith(u'-'))
        return false;
    for (const QChar c : label) {
        if (!((c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9') || c == u'-'))
            return false;
    }
    return true;
}

// The site domain's host, without the port it may be announced with.
QString siteHost(const SiteAddresses &addresses)
{
    const QString domain = addresses.siteDomain().toLower();
    const qsizetype colon = domain.lastIndexOf(u':');
    return colon >= 0 ? domain.first(colon) : domain;
}

bool isUnder(const QString &name, const QString &domain)
{
    return !domain.isEmpty() && (name == domain || name.endsWith(u'.' + domain));
}

} // namespace

Result<QString> normalise(const QString &name, const SiteAddresses &addresses)
{
    QString text = name.trimmed();
    if (text.endsWith(u'.')) // the fully qualified spelling names the same host
        text.chop(1);
    if (text.isEmpty())
        return refused(u"A domain name must not be empty"_s);
    const QString quoted = u"\"%1\""_s.arg(name.left(kMaxNameLength));
    if (text.contains(u'*'))
        return refused(u"Wildcard domains are not supported: %1"_s.arg(quoted));
    if (QHostAddress address; address.setAddress(text.startsWith(u'[') ? text.mid(1).chopped(1) : text))
        return refused(u"%1 is an IP address; a custom domain is a host name"_s.arg(quoted));
    const QString ascii = QString::fromLatin1(QUrl::toAce(text)).toLower();
    const QStringList labels = ascii.split(u'.');
    if (ascii.isEmpty() || ascii.size() > kMaxNameLength || !std::all_of(labels.cbegin(), labels.cend(), isLabel))
        return refused(u"%1 is not a valid host name"_s.arg(quoted));
    if (labels.size() < 2)
        return refused(u"%1 needs at least two labels, such as docs.example.org"_s.arg(quoted));
    if (labels.constLast() == u"local")
        return refused(u"%1 is a .local name; those belong to LAN sharing"_s.arg(quoted));
    if (isUnder(ascii, siteHost(addresses)))
        return refused(u"%1 is under the site domain; each site has its address there already"_s.arg(quoted));
    if (addresses.isApiHost(ascii))
        return refused(u"%1 is the API's host"_s.arg(quoted));
    return ascii;
}

} // namespace berth::CustomDomainName
