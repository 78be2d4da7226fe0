#include "hotfilecache.h"

#include <QFile>

namespace berth {

HotFileCache::HotFileCache()
    : m_cache(kBudgetBytes)
{
}

QByteArray HotFileCache::load(const QByteArray &key, const QString &path)
{
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
