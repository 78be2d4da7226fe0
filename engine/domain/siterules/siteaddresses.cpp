#include "domain/siterules/siteaddresses.h"

#include <QHostAddress>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
QString withoutPort(const QString &hostAndPort)
{
    if (hostAndPort.startsWith(u'['))
        return hostAndPort.left(hostAndPort.indexOf(u']') + 1);
    const qsizetype colon = hostAndPort.lastIndexOf(u':');
    return colon < 0 ? hostAndPort : hostAndPort.left(colon);
}
} // namespace

SiteAddresses::SiteAddresses(const QString &baseUrl, const QString &siteDomain)
    : m_baseUrl(baseUrl.endsWith(u'/') ? baseUrl.chopped(1) : baseUrl)
    , m_siteDomain(siteDomain.toLower())
    , m_siteHost(withoutPort(m_siteDomain))
{
    const QUrl url(m_baseUrl);
    m_scheme = url.scheme().isEmpty() ? u"http"_s : url.scheme();
    m_apiHost = url.host().toLower();
}

QString SiteAddresses::siteUrl(const QString &slug) const
{
    return m_scheme + u"://"_s + slug + u'.' + m_siteDomain;
}

QString SiteAddresses::shareUrl(const QString &slug, const QByteArray &token) const
{
    return siteUrl(slug) + u"/?_token="_s + QString::fromLatin1(token);
}

QString SiteAddresses::versionUrl(const QString &slug, int number) const
{
    return siteUrl(u'v' + QString::number(number) + u"--"_s + slug);
}

std::optional<SiteAddresses::VersionLabel> SiteAddresses::versionLabel(const QString &label)
{
    const qsizetype separator = label.indexOf(u"--"_s);
    if (!label.startsWith(u'v') || separator < 2 || separator + 2 >= label.size())
        return std::nullopt;
    const QStringView digits = QStringView(label).mid(1, separator - 1);
    if (digits.startsWith(u'0')) // one address per version
        return std::nullopt;
    bool ok = false;
    const int number = digits.toInt(&ok);
    for (const QChar c : digits) {
        if (c < u'0' || c > u'9')
            return std::nullopt;
    }
    if (!ok || number < 1)
        return std::nullopt;
    return VersionLabel {label.mid(separator + 2), number};
}

std::optional<QString> SiteAddresses::slugForHost(const QString &host) const
{
    if (host.size() <= m_siteHost.size() + 1 || !host.endsWith(m_siteHost))
        return std::nullopt;
    const qsizetype dot = host.size() - m_siteHost.size() - 1;
    if (host.at(dot) != u'.')
        return std::nullopt;
    const QString label = host.left(dot);
    if (label.contains(u'.'))
        return std::nullopt;
    return label;
}

bool SiteAddresses::isApiHost(const QString &host) const
{
    if (host == m_apiHost || host == u"localhost")
        return true;
    const QString bare = host.startsWith(u'[') ? host.mid(1, host.size() - 2) : host;
    return !QHostAddress(bare).isNull();
}

} // namespace berth
