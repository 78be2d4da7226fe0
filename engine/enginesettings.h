#pragma once

#include "domain/ratelimits.h"

#include <QHostAddress>
#include <QList>
#include <QString>

namespace berth {

class Clock;

// How an Engine serves: where it listens, where it keeps its data, and the addresses it announces.
struct EngineSettings
{
    QString dataDir;                              // database and blobs; empty: QStandardPaths::AppDataLocation
    QHostAddress listenAddress = QHostAddress(QHostAddress::LocalHost);
    quint16 listenPort = 8080;                    // 0 picks a free port
    QString siteDomain;                           // sites at http://<slug>.<siteDomain>; empty: "localhost:<port>"
    QString baseUrl;                              // the API's base URL; empty: "http://localhost:<port>"
    QList<QHostAddress> trustedProxies;           // peers whose X-Forwarded-For is believed; none by default
    int apiRequestsPerMinute = RateLimits::kDefaultApiRequestsPerMinute; // per API key and minute
    const Clock *clock = nullptr;                 // the time (tests pass a ManualClock); null: the system clock
};

} // namespace berth
