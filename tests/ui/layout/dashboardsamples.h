#pragma once

#include "instance/enginesettings.h"

#include <QHash>
#include <QList>
#include <QString>

namespace berth::test {

class Dashboard;

// What the layout check shows every window with: public and private sites (two with 30-character slugs, the first
// with a long title that elides, a history and custom domains), a morning's submissions, counters and visits, keys,
// people, and a webhook whose receiver is not there. With ACME on (useAcme), one domain has a certificate kept from an
// earlier run and the other's order fails, so both states show.
class DashboardSamples final
{
public:
    struct Site
    {
        QString slug, title;
        bool isPrivate = false;
    };
    static const QList<Site> &sites();
    static QString firstSlug();

    // Before the dashboard starts: ACME on, towards a server that is not there, and the kept certificate in place.
    static bool useAcme(Dashboard &dashboard, EngineSettings &settings);
    // Once it runs: everything above, made through the engine (and HTTP for the visits).
    bool add(Dashboard &dashboard);
    QString id(const QString &slug) const { return m_ids.value(slug); }
    const QHash<QString, QString> &ids() const { return m_ids; }

private:
    static bool addTraffic(Dashboard &dashboard);
    bool addWebhook(Dashboard &dashboard);

    QHash<QString, QString> m_ids; // slug -> id
};

} // namespace berth::test
