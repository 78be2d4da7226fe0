#pragma once

#include <QByteArray>
#include <QCache>
#include <QString>

#include <memory>

namespace berth {

class BlobStore;
class SiteAddresses;
struct Site;
struct SiteFile;

// A single-HTML deployment's document with its title, description, favicon and image written into
// <head>, and its gzip encoding. Made once per version and settings, then served from memory; any
// change to the deployment (content, fields, slug) changes the key, so nothing is ever stale.
struct RenderedPage
{
    QByteArray body;
    QByteArray gzip; // empty when compressing does not pay
    QByteArray etag;
    QByteArray gzipEtag;
};

class RenderedPageCache final
{
public:
    static constexpr qint64 kBudgetBytes = 32 * 1024 * 1024;

    RenderedPageCache(const BlobStore &blobs, const SiteAddresses &addresses);
    Q_DISABLE_COPY_MOVE(RenderedPageCache)

    // Null when the document cannot be read.
    std::shared_ptr<const RenderedPage> page(const Site &site, const SiteFile &document);

private:
    const BlobStore &m_blobs;
    const SiteAddresses &m_addresses;
    QCache<QString, std::shared_ptr<const RenderedPage>> m_cache; // cost: bytes
};

} // namespace berth
