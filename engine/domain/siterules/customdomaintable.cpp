#include "domain/siterules/customdomaintable.h"

namespace berth {

std::optional<QString> CustomDomainTable::slugFor(const QString &host) const
{
    QReadLocker locker(&m_lock);
    const auto found = m_slugsByName.constFind(host);
    if (found == m_slugsByName.cend())
        return std::nullopt;
    return *found;
}

void CustomDomainTable::replace(QHash<QString, QString> slugsByName)
{
    QWriteLocker locker(&m_lock);
    m_slugsByName.swap(slugsByName);
    // The old map is freed after the lock is released, when slugsByName goes out of scope.
}

QStringList CustomDomainTable::names() const
{
    QReadLocker locker(&m_lock);
    QStringList names = m_slugsByName.keys();
    locker.unlock();
    names.sort();
    return names;
}

} // namespace berth
