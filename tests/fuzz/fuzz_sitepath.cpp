// Which file answers a request: a raw request-target is split and percent-decoded as the front door does
// (HttpRequest::splitTarget), then resolved against a small in-memory site (the first byte picks single-page-app
// mode). An answer must be a file of the site, and a path with a "." or ".." segment, a backslash or a NUL must be
// refused, whatever encoding it arrived in.
#include "fuzzcheck.h"

#include <QStringList>
#include <domain/siterules/sitetable.h>
#include <http/httprequest.h>
#include <site/sitepathresolver.h>

using namespace berth;
using namespace Qt::StringLiterals;
using berth::fuzz::check;

namespace {

// Held by a pointer, as the SiteTable holds sites (a Site is not copyable).
std::shared_ptr<const Site> makeSite(bool isSpa)
{
    auto site = std::make_shared<Site>();
    site->deployment.slug = QStringLiteral("fuzz-site");
    site->deployment.isSpa = isSpa;
    const char *const paths[] = {"index.html", "about.html", "docs/index.html", "docs/a b.html", "css/site.css",
        "404.html", "é/ü.txt", "a/b/c/d.js"};
    for (const char *path : paths) {
        SiteFile file;
        file.size = 1;
        file.contentType = "text/plain";
        site->files.insert(QString::fromUtf8(path), file);
    }
    return site;
}

bool hasUnsafeSegment(const QString &path)
{
    if (path.contains(u'\\') || path.contains(QChar(u'\0')))
        return true;
    const QStringList segments = path.split(u'/');
    return segments.contains(u"."_s) || segments.contains(u".."_s);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    static const std::shared_ptr<const Site> plain = makeSite(false);
    static const std::shared_ptr<const Site> spa = makeSite(true);
    const Site &site = data[0] & 1 ? *spa : *plain;

    QString path;
    QByteArray query;
    HttpRequest::splitTarget(fuzz::bytes(data + 1, size - 1), &path, &query);

    const SitePathResolution resolution = resolveSitePath(site, path);
    switch (resolution.outcome) {
    case SitePathResolution::Outcome::BadPath:
        check(resolution.status == 400 && resolution.file == nullptr);
        break;
    case SitePathResolution::Outcome::Found:
        check(resolution.status == 200);
        check(resolution.file != nullptr && resolution.file == site.file(resolution.path));
        break;
    case SitePathResolution::Outcome::NotFound:
        check(resolution.status == 404);
        check(resolution.file == nullptr || resolution.path == u"404.html"_s);
        break;
    }
    if (hasUnsafeSegment(path))
        check(resolution.outcome == SitePathResolution::Outcome::BadPath);
    if (!path.startsWith(u'/'))
        check(resolution.outcome == SitePathResolution::Outcome::BadPath);
    return 0;
}
