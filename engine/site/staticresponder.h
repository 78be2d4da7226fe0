#pragma once

#include "http/httpresponse.h"
#include "http/requesthandler.h"
#include "site/hotfilecache.h"
#include "site/renderedpagecache.h"

#include <QThreadPool>
#include <memory>

namespace berth {

class BlobStore;
class SiteAddresses;
struct Site;
struct SiteFile;

// Turns a resolved file of a site into the response a browser expects: the right Content-Type, a
// strong ETag and 304 for a match, the cache policy, one byte range (206/416) for media seeking,
// the precompressed brotli, zstd or gzip variant that Accept-Encoding prefers (with Vary; each encoding with its own
// ETag; a range always of the file as it is; the file as it is when the client refuses every encoding, identity
// included), and the body from memory for small files or streamed from disk for large ones.
//
// Cache policy: HTML is "no-cache" (always revalidated, so a deploy shows at once); every other file
// is "public, max-age=300" and then revalidated by its ETag. A private site's HTML is "private, no-store" and its
// other files "private, max-age=300", all with "Vary: Cookie", so that no shared cache keeps them.
class StaticResponder final
{
public:
    StaticResponder(const BlobStore &blobs, const SiteAddresses &addresses);
    Q_DISABLE_COPY_MOVE(StaticResponder)

    HttpResponse respond(
        const HttpRequest &request, const Site &site, const QString &path, const SiteFile &file, int status);
    // The same, answered through sink: at once when the file is in this node's folder, else once a fetch pool thread
    // has brought it from the database (blobs in PostgreSQL: the folder is a cache, and no serving thread waits).
    void respondFile(const HttpRequest &request, std::shared_ptr<const Site> site, const QString &path,
        const SiteFile &file, int status, ResponseSink sink);
    // The same for a file served as a page rendered with the deployment's metadata (isRenderedDocument): from
    // memory once rendered; the first request waits for the render pool and is answered from there.
    void respondRendered(const HttpRequest &request, std::shared_ptr<const Site> site, const SiteFile &file, int status,
        ResponseSink sink);
    static bool isRenderedDocument(const Site &site, const QString &path);

private:
    struct Representation;
    Representation choose(const HttpRequest &request, const Site &site, const QString &path, const SiteFile &file,
        bool range, const RenderedPage *page);
    HttpResponse build(const HttpRequest &request, const Site &site, const QString &path, const SiteFile &file,
        int status, const RenderedPage *page);
    HttpResponse buildWithoutRules(const HttpRequest &request, const Site &site, const QString &path,
        const SiteFile &file, int status, const RenderedPage *page);

    const BlobStore &m_blobs;
    HotFileCache m_hotFiles;
    RenderedPageCache m_pages;
    QThreadPool m_fetches; // last: its tasks use the members above, and it waits for them when it goes
};

} // namespace berth
