#pragma once

#include "http/requesthandler.h"

#include <QMutex>
#include <QString>

namespace berth {

// What serves a site's requests once it is known which site they are for (the engine's HostDispatcher).
class SiteRequests
{
public:
    virtual ~SiteRequests() = default;
    virtual void handleSite(const HttpRequest &request, const QString &slug, ResponseSink sink) = 0;
    virtual BodyLimit siteBodyLimit(const RequestHead &head) const = 0;
};

// The handler behind one site's own LAN port: every request there is for that site, whatever its Host, so the
// site is its own origin (root-relative links work) and no other site or the API is reachable through the port.
// The slug changes with a rename while requests are served: guarded.
class SitePortHandler final : public RequestHandler
{
public:
    SitePortHandler(SiteRequests &sites, const QString &slug);
    Q_DISABLE_COPY_MOVE(SitePortHandler)

    void setSlug(const QString &slug);
    QString slug() const;

    void handle(const HttpRequest &request, ResponseSink sink) override;
    BodyLimit bodyLimit(const RequestHead &head) const override;

private:
    SiteRequests &m_sites;
    mutable QMutex m_mutex;
    QString m_slug;
};

} // namespace berth
