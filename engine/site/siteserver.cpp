#include "siteserver.h"

#include "siteendpoints.h"
#include "sitepathresolver.h"
#include "domain/sitetable.h"
#include "storage/blobstore.h"

#include <QFile>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr QByteArrayView kHtmlCachePolicy = "no-cache";              // always revalidated: a deploy shows at once
constexpr QByteArrayView kAssetCachePolicy = "public, max-age=300"; // then revalidated by ETag

bool isHtml(const QByteArray &contentType) { return contentType.startsWith("text/html"); }

// Whether an If-None-Match list names this ETag (or is "*").
bool etagMatches(const QByteArray &ifNoneMatch, const QByteArray &etag)
{
    for (const QByteArray &candidate : ifNoneMatch.split(',')) {
        const QByteArray trimmed = candidate.trimmed();
        if (trimmed == "*" || trimmed == etag || trimmed == "W/" + etag)
            return true;
    }
    return false;
}
} // namespace

SiteServer::SiteServer(const SiteTable &sites, const BlobStore &blobs)
    : m_sites(sites)
    , m_blobs(blobs)
    , m_cache(blobs)
{
}

void SiteServer::handle(const HttpRequest &request, const QString &slug, ResponseSink sink)
{
    const auto site = m_sites.find(slug);
    if (!site) {
        sink.send(noSitePage());
        return;
    }
    if (m_endpoints && m_endpoints->handle(request, *site, sink))
        return;
    if (request.method != "GET" && request.method != "HEAD") {
        HttpResponse response = HttpResponse::jsonError(405, u"Method not allowed"_s);
        response.setHeader("Allow", "GET, HEAD");
        sink.send(std::move(response));
        return;
    }

    const SitePathResolution resolution = resolveSitePath(*site, request.path);
    switch (resolution.outcome) {
    case SitePathResolution::Outcome::BadPath:
        sink.send(HttpResponse::jsonError(400, u"Invalid path"_s));
        return;
    case SitePathResolution::Outcome::NotFound:
        sink.send(resolution.file ? fileResponse(request, *resolution.file, 404)
                                  : builtinPage(404, u":/pages/not-found.html"_s));
        return;
    case SitePathResolution::Outcome::Found:
        sink.send(fileResponse(request, *resolution.file, 200));
        return;
    }
}

HttpResponse SiteServer::fileResponse(const HttpRequest &request, const SiteFile &file, int status)
{
    HttpResponse response;
    response.status = status;
    response.setHeader("Content-Type", file.contentType);
    response.setHeader("Cache-Control", (isHtml(file.contentType) ? kHtmlCachePolicy : kAssetCachePolicy).toByteArray());
    if (status == 200) {
        response.setHeader("ETag", file.etag);
        if (etagMatches(request.header("if-none-match"), file.etag)) {
            response.status = 304;
            return response;
        }
    }
    if (file.size == 0)
        return response;
    if (HotFileCache::isCacheable(file.size)) {
        response.body = m_cache.get(file.blob);
        if (response.body.isNull())
            return HttpResponse::jsonError(500, u"The file could not be read"_s);
    } else {
        response.filePath = m_blobs.pathOf(file.blob);
        response.fileLength = file.size;
    }
    return response;
}

HttpResponse SiteServer::noSitePage()
{
    return builtinPage(404, u":/pages/no-site.html"_s);
}

HttpResponse SiteServer::builtinPage(int status, const QString &resource)
{
    QFile page(resource);
    const QByteArray html = page.open(QIODevice::ReadOnly) ? page.readAll() : QByteArray("Not found");
    HttpResponse response = HttpResponse::bytes(status, "text/html; charset=utf-8", html);
    response.setHeader("Cache-Control", "no-cache");
    return response;
}

} // namespace berth
