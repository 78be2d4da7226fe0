#include "sitetable.h"

namespace berth {

const SiteFile *Site::file(const QString &path) const
{
    const auto it = files.constFind(path);
    return it == files.constEnd() ? nullptr : &it.value();
}

std::shared_ptr<const Site> Site::make(const Deployment &deployment, const QList<StoredFile> &files)
{
    auto site = std::make_shared<Site>();
    site->deployment = deployment;
    site->files.reserve(files.size());
    for (const StoredFile &file : files)
        site->files.insert(file.path, SiteFile{file.blob, file.size, file.contentType, '"' + file.blob + '"'});
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

int SiteTable::size() const
{
    QReadLocker locker(&m_lock);
    return int(m_bySlug.size());
}

} // namespace berth
