#pragma once

#include <QHash>
#include <QReadWriteLock>
#include <QString>
#include <optional>

namespace berth {

// The .local names Berth answers for while LAN sharing is on: each site's announced name ("blog.local", or
// "blog-2.local" when the network already had "blog") and the API's ("berth.local"). Written by the engine's
// thread and the mDNS thread, read by the serving threads for every request with such a Host: a lock that
// readers share.
class LanNames final
{
public:
    LanNames() = default;
    Q_DISABLE_COPY_MOVE(LanNames)

    struct Target
    {
        bool api = false;
        QString slug; // when not the API
    };

    // host: lower-cased, without port ("blog.local"). Nothing while LAN sharing is off.
    std::optional<Target> find(const QString &host) const;

    void setSiteName(const QString &deploymentId, const QString &slug, const QString &label); // label: "blog-2"
    void removeSite(const QString &deploymentId);
    void setApiName(const QString &label);
    // The label a site is announced under ("blog-2"); empty when it has none.
    QString siteLabel(const QString &deploymentId) const;
    QString apiLabel() const;
    void clear();

private:
    mutable QReadWriteLock m_lock;
    QHash<QString, Target> m_byHost; // "blog-2.local" -> site blog
    QHash<QString, QString> m_labelById;
    QString m_apiLabel;
};

} // namespace berth
