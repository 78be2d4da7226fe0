#include "domain/deploy/publishchecks.h"

#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/htmlscanner.h"
#include "domain/deploy/secretscan.h"

#include <QFile>
#include <QHash>
#include <QSet>
#include <QUrl>
#include <optional>

using namespace Qt::StringLiterals;

namespace berth::PublishChecks {

namespace {

QString sizeText(qint64 bytes)
{
    return u"%1 MB"_s.arg(QString::number(double(bytes) / double(kMiB), 'f', 1));
}

QString extensionOf(const QString &path)
{
    const qsizetype slash = path.lastIndexOf(u'/');
    const qsizetype dot = path.lastIndexOf(u'.');
    return dot > slash + 1 ? path.sliced(dot + 1).toLower() : QString();
}

bool isImage(const QString &extension)
{
    static const QSet<QString> images {u"png"_s, u"jpg"_s, u"jpeg"_s, u"gif"_s, u"webp"_s, u"avif"_s, u"bmp"_s,
        u"tif"_s, u"tiff"_s, u"heic"_s, u"ico"_s, u"svg"_s};
    return images.contains(extension);
}

// Files whose bytes are not text a secret would be pasted into: judged by name and size only.
bool isBinaryMedia(const QString &extension)
{
    static const QSet<QString> media {u"mp4"_s, u"webm"_s, u"mov"_s, u"mp3"_s, u"wav"_s, u"ogg"_s, u"flac"_s, u"woff"_s,
        u"woff2"_s, u"ttf"_s, u"otf"_s, u"eot"_s, u"zip"_s, u"gz"_s, u"pdf"_s, u"wasm"_s};
    return (isImage(extension) && extension != u"svg") || media.contains(extension);
}

bool isHtml(const QString &extension)
{
    return extension == u"html" || extension == u"htm";
}

QByteArray readHead(const QString &path, qint64 maxBytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return file.read(qMin(maxBytes, file.size())); // a buffer of the file's size, not of the most it may read
}

using Finding = PublishIssue::Finding;

// The English line `berthd deploy` prints for a secret found in path.
QString secretMessage(Finding finding, const QString &path)
{
    switch (finding) {
    case Finding::EnvFile:
        return u"%1 looks like an environment file (.env), which usually holds passwords and keys"_s.arg(path);
    case Finding::SshKeyFile:
        return u"%1 looks like an SSH private key"_s.arg(path);
    case Finding::PrivateKeyBlock:
        return u"%1 contains a private key block"_s.arg(path);
    case Finding::AwsAccessKey:
        return u"%1 contains what looks like an AWS access key"_s.arg(path);
    case Finding::GitHubToken:
        return u"%1 contains what looks like a GitHub token"_s.arg(path);
    case Finding::SlackToken:
        return u"%1 contains what looks like a Slack token"_s.arg(path);
    case Finding::StripeSecretKey:
        return u"%1 contains what looks like a Stripe secret key"_s.arg(path);
    case Finding::GoogleApiKey:
        return u"%1 contains what looks like a Google API key"_s.arg(path);
    default:
        return path;
    }
}

// Where a relative reference of a page points, as a path relative to the folder; empty when it is not a reference
// to check (another site, a fragment, a template, data: or mailto:), "/" when it climbs out of the folder.
QString referencedPath(const QString &page, QStringView value)
{
    value = value.trimmed();
    if (value.isEmpty() || value.startsWith(u'#') || value.startsWith(u'?') || value.startsWith(u"//"))
        return {};
    if (value.contains(u"{{") || value.contains(u"{%") || value.contains(u"${"))
        return {};
    for (const QChar c : value) {
        if (c == u':')
            return {}; // a scheme before any "/", "?" or "#": http:, mailto:, data:, javascript:
        if (c == u'/' || c == u'?' || c == u'#')
            break;
    }
    qsizetype end = value.size();
    for (const QChar stop : {u'?', u'#'}) {
        const qsizetype at = value.indexOf(stop);
        if (at >= 0 && at < end)
            end = at;
    }
    const QString decoded = QUrl::fromPercentEncoding(value.first(end).toUtf8());
    const bool fromRoot = decoded.startsWith(u'/');
    const qsizetype pageSlash = page.lastIndexOf(u'/');
    QStringList segments = fromRoot || pageSlash < 0 ? QStringList() : page.first(pageSlash).split(u'/');
    const QStringList parts = decoded.split(u'/');
    for (const QString &part : parts) {
        if (part.isEmpty() || part == u".")
            continue;
        if (part == u"..") {
            if (segments.isEmpty())
                return u"/"_s;
            segments.removeLast();
            continue;
        }
        segments.append(part);
    }
    QString path = segments.join(u'/');
    if (decoded.endsWith(u'/') || decoded.endsWith(u"/.") || decoded.endsWith(u"/..") || decoded == u"."
        || decoded == u"..")
        path += path.isEmpty() ? QString() : u"/"_s;
    return path.isEmpty() ? u"./"_s : path;
}

// Whether the folder has what the server would answer for that path (a file, a clean URL, a folder's index).
bool answers(const QSet<QString> &paths, const QString &path)
{
    if (path == u"./")
        return paths.contains(u"index.html"_s);
    if (path.endsWith(u'/'))
        return paths.contains(path + u"index.html"_s) || paths.contains(path.chopped(1) + u".html"_s);
    return paths.contains(path) || paths.contains(path + u".html"_s) || paths.contains(path + u"/index.html"_s);
}

struct Collector
{
    QList<PublishIssue> issues;
    QHash<int, int> counts;

    void add(PublishIssue issue)
    {
        if (++counts[int(issue.kind)] <= kMaxIssuesPerKind)
            issues.append(std::move(issue));
    }
    void finish()
    {
        for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
            if (it.value() > kMaxIssuesPerKind) {
                const auto kind = PublishIssue::Kind(it.key());
                const int more = it.value() - kMaxIssuesPerKind;
                issues.append({kind, QString(), u"... and %1 more of this kind (%2)"_s.arg(more).arg(kindName(kind)),
                    Finding::MoreOfKind, {}, more});
            }
        }
    }
};

void checkReferences(Collector &found, const FolderFile &page, const QSet<QString> &paths, qint64 &budget)
{
    const QByteArray bytes = readHead(page.absolutePath, qMin(kMaxScannedHtmlBytes, budget));
    budget -= bytes.size();
    const QString html = QString::fromUtf8(bytes);
    HtmlScanner scanner(html);
    HtmlTag tag;
    QSet<QString> reported;
    while (scanner.next(tag)) {
        if (tag.closing)
            continue;
        if (tag.isNamed("base"_L1))
            return; // a <base href> moves every relative reference: leave the page alone
        QStringView value;
        bool loads = false;
        if (tag.isNamed("a"_L1) || tag.isNamed("link"_L1) || tag.isNamed("area"_L1)) {
            value = tag.attribute("href"_L1);
        } else if (tag.isNamed("img"_L1) || tag.isNamed("script"_L1) || tag.isNamed("iframe"_L1)
            || tag.isNamed("source"_L1) || tag.isNamed("audio"_L1) || tag.isNamed("video"_L1) || tag.isNamed("embed"_L1)
            || tag.isNamed("track"_L1) || tag.isNamed("input"_L1)) {
            value = tag.attribute("src"_L1);
            loads = true;
        }
        if (value.isNull())
            continue;
        const QString target = referencedPath(page.relativePath, value);
        if (target.isEmpty() || answers(paths, target))
            continue;
        const QString written = value.trimmed().toString();
        if (reported.contains(written))
            continue;
        reported.insert(written);
        const bool outside = target == u"/"_s;
        const QString why = outside ? u"which is outside the folder"_s : u"which is not in the folder"_s;
        const Finding finding = loads ? (outside ? Finding::SourceOutside : Finding::SourceMissing)
                                      : (outside ? Finding::LinkOutside : Finding::LinkMissing);
        found.add({PublishIssue::Kind::BrokenReference, page.relativePath,
            u"%1 %2 \"%3\", %4"_s.arg(page.relativePath, loads ? u"loads"_s : u"links to"_s, written, why), finding,
            written});
    }
}

} // namespace

QString kindName(PublishIssue::Kind kind)
{
    switch (kind) {
    case PublishIssue::Kind::NoIndex:
        return u"No index.html"_s;
    case PublishIssue::Kind::BrokenReference:
        return u"Broken link"_s;
    case PublishIssue::Kind::TooLarge:
        return u"Over a limit"_s;
    case PublishIssue::Kind::Secret:
        return u"Possible secret"_s;
    case PublishIssue::Kind::LargeImage:
        return u"Large image"_s;
    case PublishIssue::Kind::LeftOut:
        return u"Left out"_s;
    }
    return {};
}

QList<PublishIssue> check(const FolderListing &listing, SecretMemory *memory)
{
    const QList<FolderFile> &files = listing.files;
    Collector found;
    for (const QString &link : listing.linksOutside)
        found.add({PublishIssue::Kind::LeftOut, link,
            u"%1 is a link to outside the folder (or to nothing): it is left out"_s.arg(link), Finding::LinkLeftOut});
    QSet<QString> paths;
    qint64 total = 0;
    for (const FolderFile &file : files) {
        paths.insert(file.relativePath);
        total += file.size;
    }
    if (!paths.contains(u"index.html"_s))
        found.add({PublishIssue::Kind::NoIndex, QString(),
            u"There is no index.html at the top of the folder: the site's address will show Not found"_s,
            Finding::NoIndex});
    if (files.size() > kMaxFilesPerDeployment)
        found.add({PublishIssue::Kind::TooLarge, QString(),
            u"The folder has %1 files: a site can have at most %2"_s.arg(files.size()).arg(kMaxFilesPerDeployment),
            Finding::TooManyFiles, {}, files.size(), kMaxFilesPerDeployment});
    if (total > kMaxTotalBytes)
        found.add({PublishIssue::Kind::TooLarge, QString(),
            u"The folder holds %1: over the %2 limit for a site"_s.arg(sizeText(total), sizeText(kMaxTotalBytes)),
            Finding::FolderTooLarge, {}, total, kMaxTotalBytes});

    qint64 budget = kMaxScannedTotalBytes; // bytes still to be read, over all files
    for (const FolderFile &file : files) {
        const QString extension = extensionOf(file.relativePath);
        if (file.size > kMaxFileBytes)
            found.add({PublishIssue::Kind::TooLarge, file.relativePath,
                u"%1 is %2: over the %3 per-file limit"_s.arg(
                    file.relativePath, sizeText(file.size), sizeText(kMaxFileBytes)),
                Finding::FileTooLarge, {}, file.size, kMaxFileBytes});
        if (isImage(extension) && file.size > kLargeImageBytes)
            found.add({PublishIssue::Kind::LargeImage, file.relativePath,
                u"%1 is a %2 image: pages that show it load slowly; a smaller or compressed copy helps"_s.arg(
                    file.relativePath, sizeText(file.size)),
                Finding::LargeImage, {}, file.size});
        std::optional<Finding> secret = SecretScan::byName(file.relativePath);
        if (!secret && !isBinaryMedia(extension)) {
            std::optional<SecretMemory::Scan> scan = memory ? memory->recall(file) : std::nullopt;
            bool whole = true; // the scan saw all it would with the budget to spare: worth keeping
            if (!scan && budget > 0) {
                whole = budget >= kMaxScannedSecretBytes;
                const QByteArray head = readHead(file.absolutePath, qMin(kMaxScannedSecretBytes, budget));
                budget -= head.size();
                scan = SecretMemory::Scan {SecretScan::inContent(head)};
            }
            if (scan && memory && whole)
                memory->keep(file, *scan);
            secret = scan ? scan->found : std::nullopt;
        }
        if (secret)
            found.add(
                {PublishIssue::Kind::Secret, file.relativePath, secretMessage(*secret, file.relativePath), *secret});
        if (isHtml(extension) && budget > 0)
            checkReferences(found, file, paths, budget);
    }
    found.finish();
    return found.issues;
}

} // namespace berth::PublishChecks
