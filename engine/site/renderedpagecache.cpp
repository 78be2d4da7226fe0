#include "renderedpagecache.h"

#include "domain/gzip.h"
#include "domain/pagemetadata.h"
#include "domain/siteaddresses.h"
#include "domain/sitetable.h"
#include "storage/blobstore.h"

#include <QCryptographicHash>

using namespace Qt::StringLiterals;

namespace berth {

RenderedPageCache::RenderedPageCache(const BlobStore &blobs, const SiteAddresses &addresses)
    : m_blobs(blobs)
    , m_addresses(addresses)
    , m_cache(kBudgetBytes)
{
}

std::shared_ptr<const RenderedPage> RenderedPageCache::page(const Site &site, const SiteFile &document)
{
    const Deployment &deployment = site.deployment;
    const QString key = deployment.id + u'/' + QString::number(deployment.versionId) + u'/'
        + deployment.updatedAt.toString(Qt::ISODateWithMs) + u'/' + deployment.slug;
    if (const auto *cached = m_cache.object(key))
        return *cached;

    const QByteArray original = m_blobs.read(document.blob);
    if (original.isNull() && document.size > 0)
        return nullptr;
    const PageMetadata metadata{deployment.title, deployment.description, deployment.favicon, deployment.ogImage,
                                m_addresses.siteUrl(deployment.slug) + u'/'};
    auto page = std::make_shared<RenderedPage>();
    page->body = injectPageMetadata(original, metadata);
    const QByteArray hash = QCryptographicHash::hash(page->body, QCryptographicHash::Sha256).toHex().left(40);
    page->etag = '"' + hash + '"';
    if (Gzip::isWorthCompressing("text/html", page->body.size())) {
        QByteArray compressed = Gzip::compress(page->body);
        if (Gzip::isWorthKeeping(page->body.size(), compressed.size())) {
            page->gzip = std::move(compressed);
            page->gzipEtag = '"' + hash + "-gz\"";
        }
    }
    const qsizetype cost = qMax<qsizetype>(1, page->body.size() + page->gzip.size());
    auto shared = std::shared_ptr<const RenderedPage>(std::move(page));
    m_cache.insert(key, new std::shared_ptr<const RenderedPage>(shared), cost);
    return shared;
}

} // namespace berth
