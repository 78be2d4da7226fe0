#pragma once

#include <QHostAddress>
#include <QString>

namespace berth {

// How an Engine serves: where it listens, where it keeps its data, and the addresses it announces.
struct EngineSettings
{
    QString dataDir;                              // database and blobs; empty: QStandardPaths::AppDataLocation
    QHostAddress listenAddress = QHostAddress(QHostAddress::LocalHost);
    quint16 listenPort = 8080;                    // 0 picks a free port
    QString siteDomain;                           // sites at http://<slug>.<siteDomain>; empty: "localhost:<port>"
    QString baseUrl;                              // the API's base URL; empty: "http://localhost:<port>"
};

} // namespace berth
