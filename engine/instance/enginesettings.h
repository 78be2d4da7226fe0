#pragma once

#include "domain/acme/acmesettings.h"
#include "domain/ratelimit/ratelimits.h"

#include <QHostAddress>
#include <QList>
#include <QString>

namespace berth {

class Clock;

// How an Engine serves: where it listens, where it keeps its data, and the addresses it announces.
struct EngineSettings
{
    QString dataDir; // database and blobs; empty: QStandardPaths::AppDataLocation
    QString databaseUrl; // postgresql://user:password@host:port/dbname; empty: SQLite in dataDir
    // With PostgreSQL, blobs live in the database and dataDir keeps a cache of them of at most this size.
    qint64 blobCacheBytes = qint64(4) * 1024 * 1024 * 1024;
    QHostAddress listenAddress = QHostAddress(QHostAddress::LocalHost);
    quint16 listenPort = 8080; // 0 picks a free port
    QString siteDomain; // sites at http://<slug>.<siteDomain>; empty: "localhost:<port>"
    QString baseUrl; // the API's base URL; empty: "http://localhost:<port>"
    QList<QHostAddress> trustedProxies; // peers whose X-Forwarded-For is believed; none by default
    int apiRequestsPerMinute = RateLimits::kDefaultApiRequestsPerMinute; // per API key and minute
    // PostgreSQL only: every rate limit counted in the database, so that all servers on it share one count per client
    // (a round trip per limited request, on the engine's thread). Off: each server counts on its own.
    bool sharedRateLimits = false;
    int servingThreads = 0; // threads that serve visitors; 0: one per core
    // Deploy work (decoding, hashing, storing) at a lower CPU priority than serving (domain/workerpriority.h), so that
    // a large deploy barely moves visitors' latency. berthd turns it on; the dashboard leaves it off, since there the
    // person publishing is the one waiting, and a busy desktop would hold the deploy back.
    bool workersYieldToServing = false;
    int maxConnections = 1000; // open connections in all (50 of them kept for the API)
    int maxConnectionsPerAddress = 64; // per client address (IPv6: per /64); 0: no cap
    // HTTPS on its own port (same address) when both PEM files are given; the announced addresses then default to
    // https://localhost:<httpsPort>. httpsRedirect: the plain port answers 308 to the HTTPS one.
    QString tlsCertFile;
    QString tlsKeyFile;
    // With HTTPS: a folder of NAME.pem/NAME.key pairs, each served to handshakes naming NAME (SNI), read again when
    // they change (http/tlsdirectorywatcher.h); other names get tlsCertFile. Empty: none.
    QString tlsDir;
    quint16 httpsPort = 8443; // 0 picks a free one
    bool httpsRedirect = false;
    // Certificates by ACME for the names served (domain/acme/acmemanager.h); off without a directory URL.
    AcmeSettings acme;
    // Sites whose file tables stay in memory; the least recently requested beyond are read again on their next request.
    int loadedSites = 1000;
    int stopDeadlineMs = 30000; // a graceful stop waits this long for requests in progress
    // How often agents that hold nothing a day after they were made are looked for and removed (their age is read
    // from the clock; tests sweep often and move the clock).
    int idleAgentSweepMs = 10 * 60 * 1000;
    // How often sites whose expiry passed are looked for and taken offline: each goes within this of its time (tests
    // sweep often and move the clock).
    int expirySweepMs = 30 * 1000;
    // LAN sharing (off by default): also listen on the machine's LAN addresses, announce <slug>.local names (mDNS)
    // and give each site a port of its own from sitePortFirst-sitePortLast. Engine::lan() switches it while serving.
    bool lanSharing = false;
    quint16 sitePortFirst = 8100;
    quint16 sitePortLast = 8199;
    QString lanName = QStringLiteral("berth"); // the API's mDNS name: berth.local
    QList<QHostAddress> lanTestAddresses; // tests: loopback addresses that stand in for the LAN; no mDNS
    // The access log (http/accesslog.h): one line per answered request, in Apache's vhost_combined format, to this
    // file (relative: in dataDir; "-": standard output); empty: none. Rotated at midnight (UTC), keeping
    // accessLogKeepDays older files.
    QString accessLog;
    int accessLogKeepDays = 14;
    bool accessLogAnonymize = false; // IPv4 without its last octet, IPv6 cut to /48
    const Clock *clock = nullptr; // the time (tests pass a ManualClock); null: the system clock
};

} // namespace berth
