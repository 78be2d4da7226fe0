#include "site/sitepathresolver.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// No backslash, NUL, or "." or ".." segment: checked in one pass, as this runs for every request.
bool isSafe(const QString &path)
{
    if (!path.startsWith(u'/'))
        return false;
    qsizetype segmentStart = 1;
    for (qsizetype i = 1; i <= path.size(); ++i) {
        const QChar c = i < path.size() ? path.at(i) : QChar(u'/');
        if (c == u'\\' || (c.isNull() && i < path.size()))
            return false;
        if (c != u'/')
            continue;
        const QStringView segment = QStringView(path).sliced(segmentStart, i - segmentStart);
        if (segment == u"." || segment == u"..")
            return false;
        segmentStart = i + 1;
    }
    return true;
}

SitePathResolution found(const Site &site, const QString &path, int status = 200)
{
    const SiteFile *file = site.file(path);
    if (!file)
        return {};
    return {
        status == 200 ? SitePathResolution::Outcome::Found : SitePathResolution::Outcome::NotFound, path, file, status};
}

} // namespace

SitePathResolution resolveSitePath(const Site &site, const QString &requestPath)
{
    if (!isSafe(requestPath))
        return {SitePathResolution::Outcome::BadPath, {}, nullptr, 400};

    QString relative = requestPath.mid(1);
    while (relative.contains(u"//"_s))
        relative.replace(u"//"_s, u"/"_s);
    if (!relative.isEmpty() && !relative.endsWith(u'/')) {
        if (auto exact = found(site, relative); exact.file) // the common case: a file's own path
            return exact;
    }

    QStringList candidates;
    if (relative.isEmpty() || relative.endsWith(u'/')) {
        candidates << relative + u"index.html"_s;
        if (!relative.isEmpty())
            candidates << relative.chopped(1) + u".html"_s;
    } else {
        candidates << relative + u".html"_s << relative + u"/index.html"_s;
    }
    for (const QString &candidate : std::as_const(candidates)) {
        if (auto resolution = found(site, candidate); resolution.file)
            return resolution;
    }

    if (site.deployment.isSpa) {
        if (auto resolution = found(site, u"index.html"_s); resolution.file) {
            resolution.fallback = true;
            return resolution;
        }
    }
    if (auto resolution = found(site, u"404.html"_s, 404); resolution.file)
        return resolution;
    return {SitePathResolution::Outcome::NotFound, {}, nullptr, 404};
}

} // namespace berth
