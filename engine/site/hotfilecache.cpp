#include "hotfilecache.h"

#include <QFile>

namespace berth {

HotFileCache::HotFileCache()
    : m_cache(kBudgetBytes)
{
}

QByteArray HotFileCache::get(const QByteArray &key, const QString &path)
{
    if (const QByteArray *cached = m_cache.object(key))
        return *cached;
    QFile file(path);
    if (path.isEmpty() || !file.open(QIODevice::ReadOnly))
        return {};
    QByteArray bytes = file.readAll();
    if (bytes.isNull())
        bytes = QByteArray("");
    m_cache.insert(key, new QByteArray(bytes), qMax<qsizetype>(1, bytes.size()));
    return bytes;
}

} // namespace berth
