#include "site/staticresponder.h"

#include "domain/common/mimetypes.h"
#include "domain/siterules/sitetable.h"
#include "site/acceptencoding.h"
#include "site/byterange.h"
#include "site/siterules.h"
#include "storage/blobstore.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {
// Header values made once: a QByteArray made from a literal on every request cost an allocation (callgrind).
const QByteArray kHtmlCachePolicy = QByteArrayLiteral("no-cache");
const QByteArray kAssetCachePolicy = QByteArrayLiteral("public, max-age=300");
// A private site's files are for the visitor's own browser only, and depend on the access cookie: shared caches
// must not store them, and a browser keeps no copy of its pages.
const QByteArray kPrivateHtmlCachePolicy = QByteArrayLiteral("private, no-store");
const QByteArray kPrivateAssetCachePolicy = QByteArrayLiteral("private, max-age=300");
const QByteArray kVaryEncoding = QByteArrayLiteral("Accept-Encoding");
const QByteArray kVaryCookie = QByteArrayLiteral("Cookie");
const QByteArray kVaryEncodingAndCookie = QByteArrayLiteral("Accept-Encoding, Cookie");
const QByteArray kBytes = QByteArrayLiteral("bytes");
// Threads that bring files from the database into this node's cache (blobs in PostgreSQL); each has a connection.
constexpr int kFetchThreads = 4;

bool isHtml(const QByteArray &contentType)
{
    return contentType.startsWith("text/html");
}

// Calls visit(item) for each item of a header value separated by `separator`, trimmed, until one returns true; whether
// one did. Views into the value: no list and no copies, as QByteArray::split made on every request.
template<typename Visit>
bool anyItem(QByteArrayView value, char separator, Visit visit)
{
    while (!value.isEmpty()) {
        const qsizetype end = value.indexOf(separator);
        if (visit((end < 0 ? value : value.first(end)).trimmed()))
            return true;
        value = end < 0 ? QByteArrayView() : value.sliced(end + 1);
    }
    return false;
}

// Whether an If-None-Match list names this ETag (or is "*"); weak comparison, as RFC 9110 asks.
bool etagMatches(QByteArrayView ifNoneMatch, QByteArrayView etag)
{
    return anyItem(ifNoneMatch, ',', [etag](QByteArrayView candidate) {
        if (candidate.startsWith("W/"))
            candidate = candidate.sliced(2);
        return candidate == "*" || candidate == etag;
    });
}

// Which encodings a file, or a rendered page, has.
std::array<bool, kContentCodingCount> offeredBy(const SiteFile &file)
{
    std::array<bool, kContentCodingCount> offered {};
    for (const ContentCoding coding : kContentCodings)
        offered[size_t(coding)] = file.variant(coding).size > 0;
    return offered;
}

std::array<bool, kContentCodingCount> offeredBy(const RenderedPage &page)
{
    std::array<bool, kContentCodingCount> offered {};
    for (const ContentCoding coding : kContentCodings)
        offered[size_t(coding)] = !page.encoded[size_t(coding)].isEmpty();
    return offered;
}

// A range applies to the identity encoding of a successful response (so that resumed downloads and seeking never
// mix encodings), and only while If-Range (if any) still names this version.
bool wantsRange(const HttpRequest &request, int status, QByteArrayView identityEtag)
{
    if (status != 200)
        return false;
    const QByteArray ifRange = request.header("if-range");
    return !request.header("range").isEmpty() && (ifRange.isEmpty() || ifRange == identityEtag);
}

// The encoding to send. When the client refuses every encoding the file has, identity included, the header is
// disregarded and the file goes as it is (RFC 9110 allows this instead of a 406): a visitor always gets the page.
EncodingChoice negotiate(const HttpRequest &request, const std::array<bool, kContentCodingCount> &offered, bool range)
{
    if (range)
        return {};
    const EncodingChoice choice = EncodingChoice::negotiate(request.header("accept-encoding"), offered);
    return choice.acceptable ? choice : EncodingChoice {};
}

// The suffix of the stored file that a choice is sent from: empty for the blob itself.
QByteArray suffixOf(const EncodingChoice &choice)
{
    return choice.coding ? ContentCodings::suffix(*choice.coding) : QByteArray();
}
} // namespace

// One encoding of a file: either bytes in memory or a file on disk.
struct StaticResponder::Representation
{
    QByteArray body; // when in memory
    QString filePath; // when streamed
    qint64 size = 0;
    QByteArray etag;
    std::optional<ContentCoding> coding; // none: identity
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
    // Only the encoding this request gets needs to be here: the others are fetched when a request chooses them.
    const EncodingChoice choice = negotiate(request, offeredBy(file), wantsRange(request, status, file.etag));
    const QByteArray suffix = suffixOf(choice);
    const bool ready = !m_blobs.hasBackend() || file.size == 0 || m_blobs.isCached(file.blob, suffix);
    if (ready) {
        sink.send(respond(request, *site, path, file, status));
        return;
    }
    // The callback keeps its own snapshot alive: the file it points into belongs to it. A failed fetch is logged
    // by the store; the answer is then the 500 of a file that cannot be read.
    const SiteFile *wanted = &file;
    m_fetches.start([this, request, site = std::move(site), path, wanted, suffix, status, sink]() mutable {
        m_blobs.fetch(wanted->blob, suffix);
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
    const QString &path, const SiteFile &file, bool range, const RenderedPage *page)
{
    Representation chosen;
    if (isRenderedDocument(site, path)) {
        if (!page) {
            chosen.readable = false;
            return chosen;
        }
        const EncodingChoice choice = negotiate(request, offeredBy(*page), range);
        chosen.coding = choice.coding;
        chosen.body = choice.coding ? page->encoded[size_t(*choice.coding)] : page->body;
        chosen.etag = choice.coding ? page->encodedEtags[size_t(*choice.coding)] : page->etag;
        chosen.size = chosen.body.size();
        return chosen;
    }

    const EncodingChoice choice = negotiate(request, offeredBy(file), range);
    chosen.coding = choice.coding;
    const SiteFile::Variant *variant = choice.coding ? &file.variant(*choice.coding) : nullptr;
    chosen.size = variant ? variant->size : file.size;
    chosen.etag = variant ? variant->etag : file.etag;
    const auto diskPath
        = [&] { return variant ? m_blobs.variantPathOf(file.blob, suffixOf(choice)) : m_blobs.pathOf(file.blob); };
    if (chosen.size == 0) {
        chosen.body = QByteArray("");
    } else if (HotFileCache::isCacheable(chosen.size)) {
        chosen.body = m_hotFiles.get(variant ? variant->etag : file.blob, diskPath);
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
    const bool range = wantsRange(request, status, page ? page->etag : file.etag);
    Representation chosen = choose(request, site, path, file, range, page);
    if (!chosen.readable)
        return HttpResponse::jsonError(500, u"The file could not be read"_s);

    // A fresh response whose header names are all different: appended, with names and values that are literals,
    // where setHeader's search and a QByteArray made from each name cost more than the rest of the answer.
    HttpResponse response;
    response.status = status;
    response.headers.reserve(7);
    const auto add = [&response](const QByteArray &name, const QByteArray &value) {
        response.headers.append({name, value});
    };
    add(QByteArrayLiteral("Content-Type"), file.contentType);
    const bool html = isHtml(file.contentType);
    const bool isPrivate = site.deployment.isProtected;
    if (isPrivate)
        add(QByteArrayLiteral("Cache-Control"), html ? kPrivateHtmlCachePolicy : kPrivateAssetCachePolicy);
    else
        add(QByteArrayLiteral("Cache-Control"), html ? kHtmlCachePolicy : kAssetCachePolicy);
    // Whether the answer depends on Accept-Encoding: always for content that may be compressed.
    const bool variesByEncoding = html || file.hasVariants() || MimeTypes::isCompressible(file.contentType);
    if (variesByEncoding || isPrivate)
        add(QByteArrayLiteral("Vary"),
            variesByEncoding && isPrivate ? kVaryEncodingAndCookie
                : isPrivate               ? kVaryCookie
                                          : kVaryEncoding);
    const auto addContentEncoding = [&] {
        if (chosen.coding)
            add(QByteArrayLiteral("Content-Encoding"), ContentCodings::token(*chosen.coding));
    };
    if (status != 200) {
        response.body = chosen.body;
        response.filePath = chosen.filePath;
        addContentEncoding();
        return response;
    }

    add(QByteArrayLiteral("ETag"), chosen.etag);
    add(QByteArrayLiteral("Accept-Ranges"), kBytes);
    if (etagMatches(request.header("if-none-match"), chosen.etag)) {
        response.status = 304;
        return response;
    }
    addContentEncoding();

    qint64 offset = 0;
    qint64 length = chosen.size;
    if (range) {
        const ByteRange asked = ByteRange::parse(request.header("range"), chosen.size);
        if (asked.kind == ByteRange::Kind::Unsatisfiable) {
            HttpResponse refused = HttpResponse::jsonError(416, u"Requested range not satisfiable"_s);
            refused.setHeader("Content-Range", asked.contentRange(chosen.size));
            return refused;
        }
        if (asked.kind == ByteRange::Kind::Satisfiable) {
            response.status = 206;
            add(QByteArrayLiteral("Content-Range"), asked.contentRange(chosen.size));
            offset = asked.first;
            length = asked.length;
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
