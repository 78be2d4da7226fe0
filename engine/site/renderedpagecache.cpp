#include "site/renderedpagecache.h"

#include "domain/deploy/pagemetadata.h"
#include "domain/siterules/siteaddresses.h"
#include "domain/siterules/sitetable.h"
#include "storage/blobstore.h"
#include "storage/contentdigest.h"

using namespace Qt::StringLiterals;

namespace berth {

RenderedPageCache::RenderedPageCache(const BlobStore &blobs, const SiteAddresses &addresses)
    : m_id(ThreadLocalCaches::newOwnerId())
    , m_blobs(blobs)
    , m_addresses(addresses)
    , m_cache(kBudgetBytes)
{
    m_pool.setMaxThreadCount(kRenderThreads);
    m_pool.setObjectName(u"berth-render"_s);
}

RenderedPageCache::~RenderedPageCache()
{
    m_pool.waitForDone();
}

QString RenderedPageCache::keyOf(const Site &site)
{
    const Deployment &deployment = site.deployment;
    return deployment.id + u'/' + QString::number(deployment.versionId) + u'/'
        + QString::number(deployment.updatedAt.toMSecsSinceEpoch()) + u'/' + deployment.slug;
}

namespace {
struct RenderedPages; // the tag of the threads' own caches of rendered pages
} // namespace

std::shared_ptr<const RenderedPage> RenderedPageCache::find(const Site &site)
{
    // A key names one rendering for ever, so a thread's copies never go stale: bounded, they are its own to read.
    using ThreadCopies = ThreadLocalCache<RenderedPages, QString, std::shared_ptr<const RenderedPage>>;
    ThreadCopies &copies = ThreadCopies::of(m_id);
    const QString key = keyOf(site);
    if (const auto *copy = copies.find(key))
        return *copy;
    std::shared_ptr<const RenderedPage> page;
    {
        const QMutexLocker locker(&m_mutex);
        if (const auto *cached = m_cache.object(key))
            page = *cached;
    }
    if (page) {
        page = ThreadLocalCaches::threadOwned(std::move(page));
        copies.insert(key, page, 1, kThreadEntries, kThreadEntries);
    }
    return page;
}

void RenderedPageCache::render(std::shared_ptr<const Site> site, const SiteFile &document, PageCallback done)
{
    const QString key = keyOf(*site);
    std::shared_ptr<const RenderedPage> ready;
    {
        const QMutexLocker locker(&m_mutex);
        if (const auto *cached = m_cache.object(key)) {
            ready = *cached;
        } else {
            auto waiting = m_waiting.find(key);
            const bool inFlight = waiting != m_waiting.end();
            if (!inFlight)
                waiting = m_waiting.insert(key, {});
            waiting->append(std::move(done));
            if (inFlight)
                return;
        }
    }
    if (ready) {
        done(std::move(ready));
        return;
    }
    m_pool.start([this, key, site = std::move(site), document = &document] {
        const auto page = make(*site, *document);
        QList<PageCallback> waiters;
        {
            const QMutexLocker locker(&m_mutex);
            if (page) {
                qsizetype cost = page->body.size();
                for (const QByteArray &encoded : page->encoded)
                    cost += encoded.size();
                cost = qMax<qsizetype>(1, cost);
                m_cache.insert(key, new std::shared_ptr<const RenderedPage>(page), cost);
            }
            waiters = m_waiting.take(key);
        }
        for (const PageCallback &waiter : std::as_const(waiters))
            waiter(page);
    });
}

std::shared_ptr<const RenderedPage> RenderedPageCache::make(const Site &site, const SiteFile &document) const
{
    const Deployment &deployment = site.deployment;
    const QByteArray original = m_blobs.read(document.blob);
    if (original.isNull() && document.size > 0)
        return nullptr;
    const PageMetadata metadata {deployment.title, deployment.description, deployment.favicon, deployment.ogImage,
        m_addresses.siteUrl(deployment.slug) + u'/'};
    auto page = std::make_shared<RenderedPage>();
    page->body = injectPageMetadata(original, metadata);
    const QByteArray hash = ContentDigest::hexOf(page->body).left(40);
    page->etag = '"' + hash + '"';
    const auto effort
        = page->body.size() <= kBestCompressionBytes ? ContentCodings::Effort::Best : ContentCodings::Effort::Fast;
    page->encoded = ContentCodings::encodeWorthServing(page->body, "text/html", effort);
    for (const ContentCoding coding : kContentCodings) {
        if (!page->encoded[size_t(coding)].isEmpty())
            page->encodedEtags[size_t(coding)] = '"' + hash + '-' + ContentCodings::suffix(coding) + '"';
    }
    return page;
}

} // namespace berth
