#include "lan/siteporthandler.h"

namespace berth {

SitePortHandler::SitePortHandler(SiteRequests &sites, const QString &slug)
    : m_sites(sites)
    , m_slug(slug)
{
}

void SitePortHandler::setSlug(const QString &slug)
{
    QMutexLocker locker(&m_mutex);
    m_slug = slug;
}

QString SitePortHandler::slug() const
{
    QMutexLocker locker(&m_mutex);
    return m_slug;
}

void SitePortHandler::handle(const HttpRequest &request, ResponseSink sink)
{
    m_sites.handleSite(request, slug(), std::move(sink));
}

BodyLimit SitePortHandler::bodyLimit(const RequestHead &head) const
{
    return m_sites.siteBodyLimit(head);
}

} // namespace berth
