#pragma once

#include <QHash>
#include <QReadWriteLock>
#include <QString>
#include <QStringList>
#include <optional>

namespace berth {

// The custom domains that serving threads look Host up in: name (ASCII, lower case) -> the slug of the site that
// holds it. Published whole by the engine's thread (CustomDomainService) after every change, so a serving thread
// never queries the database for it; readers hold the lock only for a hash lookup.
class CustomDomainTable final
{
public:
    CustomDomainTable() = default;
    Q_DISABLE_COPY_MOVE(CustomDomainTable)

    // For a Host value already lower-cased and without its port.
    std::optional<QString> slugFor(const QString &host) const;
    void replace(QHash<QString, QString> slugsByName);
    QStringList names() const; // sorted

private:
    mutable QReadWriteLock m_lock;
    QHash<QString, QString> m_slugsByName;
};

} // namespace berth
