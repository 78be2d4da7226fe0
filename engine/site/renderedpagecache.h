#pragma once

#include "domain/common/contentcoding.h"
#include "domain/common/threadlocalcache.h"

#include <QByteArray>
#include <QCache>
#include <QHash>
#include <QMutex>
#include <QString>
#include <QThreadPool>
#include <functional>
#include <memory>

namespace berth {

class BlobStore;
class SiteAddresses;
struct Site;
struct SiteFile;

// A single-HTML deployment's document with its title, description, favicon and image written into
// <head>, and its brotli, zstd and gzip encodings. Made once per version and settings, then served from memory; any
// change to the deployment (content, fields, slug) changes the key, so nothing is ever stale.
struct RenderedPage
{
    QByteArray body;
    QByteArray etag;
    EncodedVariants encoded; // by ContentCoding; empty when compressing does not pay
    std::array<QByteArray, kContentCodingCount> encodedEtags;
};

// Thread-safe. Rendering (reading the blob, injecting the metadata, compressing) runs on a small pool of its own,
// never on a serving thread: the first request for a version waits for it, together with any other request that
// arrives meanwhile, and every later one is answered from memory.
class RenderedPageCache final
{
public:
    static constexpr qint64 kBudgetBytes = 32 * 1024 * 1024;
    static constexpr int kRenderThreads = 2;
    // Rendered while the first visitor waits: larger pages are compressed at about gzip's speed.
    static constexpr qint64 kBestCompressionBytes = 32 * 1024;
    // The pages one serving thread keeps found, so that a request for one takes no lock another thread takes. They
    // are the shared ones (not copies); the bound keeps how long one outlives its eviction from the cache short.
    static constexpr int kThreadEntries = 64;

    using PageCallback = std::function<void(std::shared_ptr<const RenderedPage>)>;

    RenderedPageCache(const BlobStore &blobs, const SiteAddresses &addresses);
    ~RenderedPageCache();
    Q_DISABLE_COPY_MOVE(RenderedPageCache)

    // The page when it is rendered already; null otherwise. Never waits for a render.
    std::shared_ptr<const RenderedPage> find(const Site &site);
    // Renders the page on the pool (once, however many ask) and calls done there with it, or with null when the
    // document cannot be read. site must stay alive until then: pass the shared snapshot's object.
    void render(std::shared_ptr<const Site> site, const SiteFile &document, PageCallback done);

private:
    static QString keyOf(const Site &site);
    std::shared_ptr<const RenderedPage> make(const Site &site, const SiteFile &document) const;

    const quint64 m_id;
    const BlobStore &m_blobs;
    const SiteAddresses &m_addresses;
    QMutex m_mutex;
    QCache<QString, std::shared_ptr<const RenderedPage>> m_cache; // cost: bytes
    QHash<QString, QList<PageCallback>> m_waiting; // renders in flight, and who waits for them
    QThreadPool m_pool;
};

} // namespace berth
