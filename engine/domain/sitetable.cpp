#include "sitetable.h"

#include "storage/blobstore.h"

#include <QFileInfo>

namespace berth {

const SiteFile *Site::file(const QString &path) const
{
    const auto it = files.constFind(path);
    return it == files.constEnd() ? nullptr : &it.value();
}

namespace {

// Reads and compiles one rules file. This runs where a version is committed or loaded, never on a serving thread.
void compileRules(Site &site, const StoredFile &file, const BlobStore &blobs)
{
    if (file.size > Site::kMaxRulesFileBytes) {
        site.ruleWarnings.append(QStringLiteral("%1 is larger than %2 KB and is ignored")
                                     .arg(file.path)
                                     .arg(Site::kMaxRulesFileBytes / 1024));
        return;
    }
    const QByteArray text = blobs.read(file.blob);
    if (file.path == u"_redirects")
        site.redirects = RedirectRules::parse(text, &site.ruleWarnings);
    else
        site.headers = HeaderRules::parse(text, &site.ruleWarnings);
}

} // namespace

std::shared_ptr<const Site> Site::make(
    const Deployment &deployment, const QList<StoredFile> &files, const BlobStore &blobs)
{
    auto site = std::make_shared<Site>();
    site->deployment = deployment;
    site->files.reserve(files.size());
    for (const StoredFile &file : files) {
        if (Site::isRulesFile(file.path)) {
            compileRules(*site, file, blobs);
            continue;
        }
        const QString gzipPath = blobs.variantPathOf(file.blob, "gz");
        const qint64 gzipSize = gzipPath.isEmpty() ? 0 : QFileInfo(gzipPath).size();
        SiteFile served {file.blob, file.size, file.contentType, '"' + file.blob + '"', gzipSize, {}, {}};
        if (gzipSize > 0) {
            served.gzipKey = file.blob + ".gz";
            served.gzipEtag = '"' + file.blob + "-gz\"";
        }
        site->files.insert(file.path, std::move(served));
    }
    return site;
}

std::shared_ptr<const Site> SiteTable::find(const QString &slug) const
{
    QReadLocker locker(&m_lock);
    return m_bySlug.value(slug);
}

void SiteTable::put(std::shared_ptr<const Site> site)
{
    QWriteLocker locker(&m_lock);
    const QString &id = site->deployment.id;
    const auto previous = m_slugById.constFind(id);
    if (previous != m_slugById.constEnd() && previous.value() != site->deployment.slug)
        m_bySlug.remove(previous.value());
    m_slugById.insert(id, site->deployment.slug);
    m_bySlug.insert(site->deployment.slug, std::move(site));
}

void SiteTable::remove(const QString &deploymentId)
{
    QWriteLocker locker(&m_lock);
    const QString slug = m_slugById.take(deploymentId);
    if (!slug.isEmpty())
        m_bySlug.remove(slug);
}

QString SiteTable::slugOf(const QString &deploymentId) const
{
    QReadLocker locker(&m_lock);
    return m_slugById.value(deploymentId);
}

QHash<QString, QString> SiteTable::slugsById() const
{
    QReadLocker locker(&m_lock);
    return m_slugById;
}

int SiteTable::size() const
{
    QReadLocker locker(&m_lock);
    return int(m_bySlug.size());
}

} // namespace berth
