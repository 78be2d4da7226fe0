#pragma once

#include <QString>
#include <optional>

namespace berth {

// The public addresses of an instance: the management API's base URL and the domain under which
// every site is a subdomain (http://<slug>.<siteDomain>). Also the reverse: which Host is what.
class SiteAddresses final
{
public:
    // siteDomain may carry a port ("localhost:8080"); baseUrl is absolute ("http://localhost:8080").
    // Sites use the base URL's scheme, so an instance behind a TLS proxy announces https everywhere.
    SiteAddresses(const QString &baseUrl, const QString &siteDomain);

    QString baseUrl() const { return m_baseUrl; }
    QString siteDomain() const { return m_siteDomain; }
    bool isHttps() const { return m_scheme == QLatin1String("https"); }
    QString siteUrl(const QString &slug) const;
    QString shareUrl(const QString &slug, const QByteArray &token) const;
    // The read-only address of a kept version: http://v<number>--<slug>.<siteDomain>. No slug has a double hyphen
    // (SlugRules), so such a label never names a site.
    QString versionUrl(const QString &slug, int number) const;

    struct VersionLabel
    {
        QString slug;
        int number = 0;
    };
    // "v3--my-site" -> {"my-site", 3}; nothing for any other label.
    static std::optional<VersionLabel> versionLabel(const QString &label);

    // For a Host value already lower-cased and without its port: the slug it names, if it is a
    // single label directly under the site domain.
    std::optional<QString> slugForHost(const QString &host) const;
    // Whether a Host (lower-cased, no port) addresses the management API: the base URL's host,
    // localhost, or an IP literal (so the API answers on a LAN address too).
    bool isApiHost(const QString &host) const;

private:
    QString m_baseUrl; // without a trailing slash
    QString m_siteDomain; // as announced, with port when given
    QString m_siteHost; // lower-cased, without port
    QString m_scheme;
    QString m_apiHost;
};

} // namespace berth
