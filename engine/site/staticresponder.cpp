#include "staticresponder.h"

#include "byterange.h"
#include "domain/sitetable.h"
#include "siterules.h"
#include "storage/blobstore.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr QByteArrayView kHtmlCachePolicy = "no-cache";
constexpr QByteArrayView kAssetCachePolicy = "public, max-age=300";
// A private site's files are for the visitor's own browser only, and depend on the access cookie: shared caches
// must not store them, and a browser keeps no copy of its pages.
constexpr QByteArrayView kPrivateHtmlCachePolicy = "private, no-store";
constexpr QByteArrayView kPrivateAssetCachePolicy = "private, max-age=300";
// Threads that bring files from the database into this node's cache (blobs in PostgreSQL); each has a connection.
constexpr int kFetchThreads = 4;

bool isHtml(const QByteArray &contentType)
{
    return contentType.startsWith("text/html");
}

// Whether Accept-Encoding allows gzip (an explicit q=0 refuses it).
bool acceptsGzip(const QByteArray &acceptEncoding)
{
    for (const QByteArray &item : acceptEncoding.split(',')) {
        const QList<QByteArray> parts = item.split(';');
        const QByteArray coding = parts.first().trimmed().toLower();
        if (coding != "gzip" && coding != "x-gzip" && coding != "*")
            continue;
        for (qsizetype i = 1; i < parts.size(); ++i) {
            const QByteArray parameter = parts.at(i).trimmed();
            if (parameter.startsWith("q=") && parameter.mid(2).toDouble() <= 0.0)
                return false;
        }
        return true;
    }
    return false;
}

// Whether an If-None-Match list names this ETag (or is "*"); weak comparison, as RFC 9110 asks.
bool etagMatches(const QByteArray &ifNoneMatch, const QByteArray &etag)
{
    for (const QByteArray &candidate : ifNoneMatch.split(',')) {
        QByteArray trimmed = candidate.trimmed();
        if (trimmed.startsWith("W/"))
            trimmed = trimmed.mid(2);
        if (trimmed == "*" || trimmed == etag)
            return true;
    }
    return false;
}
} // namespace

// One encoding of a file: either bytes in memory or a file on disk.
struct StaticResponder::Representation
{
    QByteArray body; // when in memory
    QString filePath; // when streamed
    qint64 size = 0;
    QByteArray etag;
    bool gzip = false;
    bool readable = true;
};

StaticResponder::StaticResponder(const BlobStore &blobs, const SiteAddresses &addresses)
    : m_blobs(blobs)
    , m_pages(blobs, addresses)
{
    m_fetches.setMaxThreadCount(kFetchThreads);
}

void StaticResponder::respondFile(const HttpRequest &request, std::shared_ptr<const Site> site, const QString &path,
    const SiteFile &file, int status, ResponseSink sink)
{
    const bool ready = !m_blobs.hasBackend() || file.size == 0
        || (m_blobs.isCached(file.blob) && (file.gzipSize == 0 || m_blobs.isCached(file.blob, "gz")));
    if (ready) {
        sink.send(respond(request, *site, path, file, status));
        return;
    }
    // The callback keeps its own snapshot alive: the file it points into belongs to it. A failed fetch is logged
    // by the store; the answer is then the 500 of a file that cannot be read.
    const SiteFile *wanted = &file;
    m_fetches.start([this, request, site = std::move(site), path, wanted, status, sink]() mutable {
        m_blobs.fetch(wanted->blob);
        if (wanted->gzipSize > 0)
            m_blobs.fetch(wanted->blob, "gz");
        sink.send(respond(request, *site, path, *wanted, status));
    });
}

bool StaticResponder::isRenderedDocument(const Site &site, const QString &path)
{
    return site.deployment.storageType == u"html" && path == u"index.html";
}

void StaticResponder::respondRendered(
    const HttpRequest &request, std::shared_ptr<const Site> site, const SiteFile &file, int status, ResponseSink sink)
{
    if (const auto page = m_pages.find(*site)) {
        sink.send(build(request, *site, u"index.html"_s, file, status, page.get()));
        return;
    }
    // The page may take a while to render (a large document): on the render pool, answered from there. The
    // callback keeps its own snapshot alive: the file it points into belongs to it.
    const SiteFile *document = &file;
    m_pages.render(site, file, [this, request, site, document, status, sink](std::shared_ptr<const RenderedPage> page) {
        sink.send(page ? build(request, *site, u"index.html"_s, *document, status, page.get())
                       : HttpResponse::jsonError(500, u"The file could not be read"_s));
    });
}

StaticResponder::Representation StaticResponder::choose(const HttpRequest &request, const Site &site,
    const QString &path, const SiteFile &file, bool wantsRange, const RenderedPage *page)
{
    const bool gzipAllowed = !wantsRange && acceptsGzip(request.header("accept-encoding"));
    Representation chosen;
    if (isRenderedDocument(site, path)) {
        if (!page) {
            chosen.readable = false;
            return chosen;
        }
        chosen.gzip = gzipAllowed && !page->gzip.isEmpty();
        chosen.body = chosen.gzip ? page->gzip : page->body;
        chosen.etag = chosen.gzip ? page->gzipEtag : page->etag;
        chosen.size = chosen.body.size();
        return chosen;
    }

    chosen.gzip = gzipAllowed && file.gzipSize > 0;
    chosen.size = chosen.gzip ? file.gzipSize : file.size;
    chosen.etag = chosen.gzip ? file.gzipEtag : file.etag;
    const auto diskPath
        = [&] { return chosen.gzip ? m_blobs.variantPathOf(file.blob, "gz") : m_blobs.pathOf(file.blob); };
    if (chosen.size == 0) {
        chosen.body = QByteArray("");
    } else if (HotFileCache::isCacheable(chosen.size)) {
        chosen.body = m_hotFiles.get(chosen.gzip ? file.gzipKey : file.blob, diskPath);
        chosen.readable = !chosen.body.isNull();
    } else {
        chosen.filePath = diskPath();
        chosen.readable = !chosen.filePath.isEmpty();
    }
    return chosen;
}

HttpResponse StaticResponder::respond(
    const HttpRequest &request, const Site &site, const QString &path, const SiteFile &file, int status)
{
    return build(request, site, path, file, status, nullptr);
}

HttpResponse StaticResponder::build(const HttpRequest &request, const Site &site, const QString &path,
    const SiteFile &file, int status, const RenderedPage *page)
{
    HttpResponse response = buildWithoutRules(request, site, path, file, status, page);
    SiteRules::applyHeaders(response, site, request.path);
    return response;
}

HttpResponse StaticResponder::buildWithoutRules(const HttpRequest &request, const Site &site, const QString &path,
    const SiteFile &file, int status, const RenderedPage *page)
{
    // A range applies to the identity encoding of a successful response, and only while If-Range (if
    // any) still names this version.
    const QByteArray rangeHeader = request.header("range");
    const QByteArray ifRange = request.header("if-range");
    const bool wantsRange = status == 200 && !rangeHeader.isEmpty() && (ifRange.isEmpty() || ifRange == file.etag);

    Representation chosen = choose(request, site, path, file, wantsRange, page);
    if (!chosen.readable)
        return HttpResponse::jsonError(500, u"The file could not be read"_s);

    HttpResponse response;
    response.status = status;
    response.setHeader("Content-Type", file.contentType);
    const bool html = isHtml(file.contentType);
    const bool isPrivate = site.deployment.isProtected;
    if (isPrivate)
        response.setHeader("Cache-Control", (html ? kPrivateHtmlCachePolicy : kPrivateAssetCachePolicy).toByteArray());
    else
        response.setHeader("Cache-Control", (html ? kHtmlCachePolicy : kAssetCachePolicy).toByteArray());
    const bool variesByEncoding = file.gzipSize > 0 || html;
    if (variesByEncoding || isPrivate)
        response.setHeader("Vary",
            variesByEncoding && isPrivate ? "Accept-Encoding, Cookie"
                : isPrivate               ? "Cookie"
                                          : "Accept-Encoding");
    if (status != 200) {
        response.body = chosen.body;
        response.filePath = chosen.filePath;
        if (chosen.gzip)
            response.setHeader("Content-Encoding", "gzip");
        return response;
    }

    response.setHeader("ETag", chosen.etag);
    response.setHeader("Accept-Ranges", "bytes");
    if (etagMatches(request.header("if-none-match"), chosen.etag)) {
        response.status = 304;
        return response;
    }
    if (chosen.gzip)
        response.setHeader("Content-Encoding", "gzip");

    qint64 offset = 0;
    qint64 length = chosen.size;
    if (wantsRange) {
        const ByteRange range = ByteRange::parse(rangeHeader, chosen.size);
        if (range.kind == ByteRange::Kind::Unsatisfiable) {
            HttpResponse refused = HttpResponse::jsonError(416, u"Requested range not satisfiable"_s);
            refused.setHeader("Content-Range", range.contentRange(chosen.size));
            return refused;
        }
        if (range.kind == ByteRange::Kind::Satisfiable) {
            response.status = 206;
            response.setHeader("Content-Range", range.contentRange(chosen.size));
            offset = range.first;
            length = range.length;
        }
    }
    if (!chosen.filePath.isEmpty()) {
        response.filePath = chosen.filePath;
        response.fileOffset = offset;
        response.fileLength = length;
    } else {
        response.body = (offset == 0 && length == chosen.size) ? chosen.body : chosen.body.mid(offset, length);
    }
    return response;
}

} // namespace berth
