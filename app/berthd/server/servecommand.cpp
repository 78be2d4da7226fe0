#include "app/berthd/server/servecommand.h"

#include "app/berthd/cli.h"
#include "app/berthd/server/accesslogoptions.h"
#include "app/berthd/server/acmeoptions.h"
#include "app/berthd/server/tlsoptions.h"
#include "app/berthd/shutdownsignals.h"
#include "domain/deploy/slugrules.h"
#include "domain/siterules/siteaddresses.h"
#include "instance/datadirlock.h"
#include "instance/engine.h"
#include "instance/listenaddress.h"
#include "instance/processlimits.h"
#include "lan/lanservice.h"
#include "storage/databaseurl.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QTextStream>
#include <QUrl>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

using Cli::err;
using Cli::out;
using Cli::usageError;
const QCommandLineOption &kDataDir = Cli::dataDirOption();

// With --lan: where other devices reach the API (what LAN sharing cannot do is logged by the engine, once).
void printLanSharing(const Engine &engine)
{
    const LanService &lan = engine.lan();
    if (!lan.isEnabled())
        return;
    const QStringList urls = lan.apiUrls();
    out() << "  LAN:   " << (urls.isEmpty() ? u"no LAN address"_s : urls.join(u", "_s)) << "\n"
          << "         sites at " << (lan.isHttps() ? "https" : "http")
          << "://<slug>.local:" << (lan.isHttps() ? lan.httpsPort() : lan.port()) << "/ and on their own ports\n";
}

bool isLanName(const QString &name)
{
    const auto labelChar = [](QChar c) { return (c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9') || c == u'-'; };
    return !name.isEmpty() && name.size() <= SlugRules::kMaxLength && !name.startsWith(u'-') && !name.endsWith(u'-')
        && std::all_of(name.cbegin(), name.cend(), labelChar);
}

} // namespace

int serve(const QStringList &arguments, const EngineHook &beforeServing)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(u"Serve the Berth API and every published site.\n"
                                     "Sites are at http://<slug>.<site domain>; the API at the base URL."_s);
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption listen(u"listen"_s,
        u"Address and port to listen on (default 127.0.0.1:8080; port 0 picks a free one)."_s, u"ADDR:PORT"_s,
        u"127.0.0.1:8080"_s);
    const QCommandLineOption siteDomain(
        u"site-domain"_s, u"Domain whose subdomains are the sites (default localhost:PORT)."_s, u"DOMAIN"_s);
    const QCommandLineOption baseUrl(
        u"base-url"_s, u"Public base URL of the API (default http://localhost:PORT)."_s, u"URL"_s);
    const QCommandLineOption trustedProxy(u"trusted-proxy"_s,
        u"A reverse proxy whose X-Forwarded-For is believed for per-IP limits (repeatable; default none)."_s,
        u"ADDR"_s);
    const QCommandLineOption apiRate(u"api-rate"_s,
        u"Management API requests per minute per API key (default %1)."_s.arg(RateLimits::kDefaultApiRequestsPerMinute),
        u"N"_s);
    const QCommandLineOption threads(u"threads"_s, u"Threads that serve visitors (default: one per core)."_s, u"N"_s);
    const QCommandLineOption maxConnections(
        u"max-connections"_s, u"Open connections in all; 50 of them are kept for the API (default 1000)."_s, u"N"_s);
    const QCommandLineOption perAddress(u"max-connections-per-address"_s,
        u"Open connections one client address may hold; IPv6 counts per /64 (default 64; 0: no cap)."_s, u"N"_s);
    const QCommandLineOption stopTimeout(u"stop-timeout"_s,
        u"On SIGTERM/SIGINT, how long requests in progress may take to finish, in seconds (default 30)."_s,
        u"SECONDS"_s);
    const QCommandLineOption lan(u"lan"_s,
        u"Share on the local network: also listen on this machine's LAN addresses, announce every site as "
        "<slug>.local (mDNS, through Avahi) and give each site its own port."_s);
    const QCommandLineOption sitePorts(
        u"site-ports"_s, u"With --lan: the range of the sites' own ports (default 8100-8199)."_s, u"FIRST-LAST"_s);
    const QCommandLineOption lanName(
        u"lan-name"_s, u"With --lan: the API's mDNS name, announced as NAME.local (default berth)."_s, u"NAME"_s);
    const QCommandLineOption database(u"database"_s,
        u"Keep accounts, sites' records and submissions in this PostgreSQL database instead of SQLite in the data "
        "folder: postgresql://USER:PASSWORD@HOST:PORT/DBNAME (default: $BERTH_DATABASE, else SQLite). Sites' "
        "files are then kept there too, and the data folder holds a cache of them."_s,
        u"URL"_s);
    const QCommandLineOption blobCache(u"blob-cache-mb"_s,
        u"With --database: the most this node keeps of sites' files in its data folder, in MiB (default 4096); "
        "the least recently used go first."_s,
        u"MIB"_s);
    const QCommandLineOption sharedRateLimits(u"shared-rate-limits"_s,
        u"With --database: count every rate limit in the database, so that all servers on it share one count per "
        "client (a database round trip per limited request). Default: each server counts on its own."_s);
    parser.addOptions({listen, kDataDir, siteDomain, baseUrl, trustedProxy, apiRate, threads, maxConnections,
        perAddress, stopTimeout, lan, sitePorts, lanName, database, blobCache, sharedRateLimits});
    parser.addOptions(TlsOptions::options());
    parser.addOptions(AccessLogOptions::options());
    parser.addOptions(AcmeOptions::options());
    if (!parser.parse(arguments))
        return usageError(parser.errorText(), u"serve"_s);
    if (parser.isSet(u"help"_s)) {
        out() << parser.helpText().replace(u"berthd [options]"_s, u"berthd [serve] [options]"_s);
        return ExitOk;
    }
    if (parser.isSet(u"version"_s)) {
        out() << "berthd " << QCoreApplication::applicationVersion() << "\n";
        return ExitOk;
    }
    if (!parser.positionalArguments().isEmpty())
        return usageError(u"unexpected argument '%1'"_s.arg(parser.positionalArguments().constFirst()), u"serve"_s);

    // --data-dir and --database (or $BERTH_DATABASE) as every admin command reads them.
    const Result<EngineSettings> instance = Cli::instanceSettings(parser);
    if (!instance)
        return usageError(instance.error().message, u"serve"_s);
    EngineSettings settings = instance.value();
    if (!parseListenAddress(parser.value(listen), &settings.listenAddress, &settings.listenPort))
        return usageError(
            u"--listen expects ADDR:PORT, e.g. 127.0.0.1:8080, not '%1'"_s.arg(parser.value(listen)), u"serve"_s);
    // SQLite means one server, whose own limits are exact already: refused rather than ignored, so that nobody
    // believes their limits are shared when they are not.
    settings.sharedRateLimits = parser.isSet(sharedRateLimits);
    if (settings.sharedRateLimits && settings.databaseUrl.isEmpty())
        return usageError(u"--shared-rate-limits needs --database (PostgreSQL): with SQLite there is one server, "
                          "whose own limits are exact already"_s,
            u"serve"_s);
    settings.workersYieldToServing = true; // a server: its visitors first (EngineSettings)
    settings.siteDomain = parser.value(siteDomain);
    settings.baseUrl = parser.value(baseUrl);
    if (!settings.baseUrl.isEmpty() && !QUrl(settings.baseUrl).isValid())
        return usageError(u"--base-url expects an absolute URL"_s, u"serve"_s);
    for (const QString &value : parser.values(trustedProxy)) {
        const QHostAddress address(value);
        if (address.isNull())
            return usageError(u"--trusted-proxy expects an IP address, not '%1'"_s.arg(value), u"serve"_s);
        settings.trustedProxies.append(address);
    }
    if (parser.isSet(apiRate)) {
        bool ok = false;
        settings.apiRequestsPerMinute = parser.value(apiRate).toInt(&ok);
        if (!ok || settings.apiRequestsPerMinute < 1)
            return usageError(u"--api-rate expects a positive whole number"_s, u"serve"_s);
    }

    const auto wholeNumber = [&parser](const QCommandLineOption &option, int minimum, int *value) {
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        *value = parser.value(option).toInt(&ok);
        return ok && *value >= minimum;
    };
    if (!wholeNumber(threads, 1, &settings.servingThreads))
        return usageError(u"--threads expects a positive whole number"_s, u"serve"_s);
    if (!wholeNumber(maxConnections, 1, &settings.maxConnections))
        return usageError(u"--max-connections expects a positive whole number"_s, u"serve"_s);
    if (!wholeNumber(perAddress, 0, &settings.maxConnectionsPerAddress))
        return usageError(u"--max-connections-per-address expects a whole number"_s, u"serve"_s);
    int stopSeconds = settings.stopDeadlineMs / 1000;
    if (!wholeNumber(stopTimeout, 0, &stopSeconds) || stopSeconds > 24 * 3600)
        return usageError(u"--stop-timeout expects a number of seconds"_s, u"serve"_s);
    settings.stopDeadlineMs = stopSeconds * 1000;
    int cacheMiB = int(settings.blobCacheBytes / (1024 * 1024));
    if (!wholeNumber(blobCache, 1, &cacheMiB))
        return usageError(u"--blob-cache-mb expects a positive whole number"_s, u"serve"_s);
    settings.blobCacheBytes = qint64(cacheMiB) * 1024 * 1024;
    if (const QString tlsError = TlsOptions::apply(parser, &settings); !tlsError.isEmpty())
        return usageError(tlsError, u"serve"_s);
    if (const QString logError = AccessLogOptions::apply(parser, &settings); !logError.isEmpty())
        return usageError(logError, u"serve"_s);
    if (const QString acmeError = AcmeOptions::apply(parser, &settings); !acmeError.isEmpty())
        return usageError(acmeError, u"serve"_s);
    settings.lanSharing = parser.isSet(lan);
    if (parser.isSet(sitePorts)) {
        const QStringList range = parser.value(sitePorts).split(u'-');
        bool firstOk = false;
        bool lastOk = false;
        const int first = range.value(0).toInt(&firstOk);
        const int last = range.value(1).toInt(&lastOk);
        if (range.size() != 2 || !firstOk || !lastOk || first < 1 || last > 65535 || first > last)
            return usageError(u"--site-ports expects a range of ports such as 8100-8199"_s, u"serve"_s);
        settings.sitePortFirst = quint16(first);
        settings.sitePortLast = quint16(last);
    }
    if (parser.isSet(lanName)) {
        settings.lanName = parser.value(lanName).toLower();
        if (!isLanName(settings.lanName))
            return usageError(u"--lan-name expects a name such as berth (letters, digits, hyphens)"_s, u"serve"_s);
    }

    raiseOpenFileLimit();
    DataDirLock lock(settings.dataDir); // one data folder, one server: a second one would drift from the first
    if (!lock.tryLock()) {
        err() << "berthd: " << lock.error() << "\n";
        return ExitFailure;
    }
    Engine engine(settings);
    if (beforeServing)
        beforeServing(engine);
    // Before anything can be announced: a SIGTERM after the banner always finds the handler in place. The stop is
    // graceful: requests in progress (deploys included) are answered first, new ones refused.
    ShutdownSignals shutdown;
    QObject::connect(&shutdown, &ShutdownSignals::received, &engine, [&engine, stopping = false](int) mutable {
        if (stopping)
            return;
        stopping = true;
        out() << "Stopping.\n";
        out().flush();
        engine.stop([] { QCoreApplication::quit(); });
    });
    if (const Result<void> started = engine.start(); !started) {
        err() << "berthd: " << started.error().message << "\n";
        return ExitFailure;
    }
    const SiteAddresses &addresses = engine.addresses();
    out() << "Berth " << QCoreApplication::applicationVersion() << " is serving\n"
          << "  Listening on " << settings.listenAddress.toString() << ':' << engine.port() << " ("
          << engine.servingThreads() << " serving threads)\n";
    if (engine.httpsPort() != 0)
        out() << "  HTTPS on port " << engine.httpsPort() << (settings.httpsRedirect ? " (HTTP redirects to it)" : "")
              << "\n";
    out() << "  API:   " << addresses.baseUrl() << "\n"
          << "  Sites: " << addresses.siteUrl(u"<slug>"_s) << "\n"
          << "  Data:  " << engine.dataDir() << "\n";
    if (!settings.accessLog.isEmpty() && settings.accessLog != u"-"_s)
        out() << "  Access log: " << QDir(engine.dataDir()).absoluteFilePath(settings.accessLog) << "\n";
    if (const Result<DatabaseUrl> url = DatabaseUrl::parse(settings.databaseUrl); url)
        out() << "  Database: " << url.value().redacted() << "\n"; // without its password
    if (settings.sharedRateLimits)
        out() << "  Rate limits: shared by every server on the database\n";
    printLanSharing(engine);
    if (const auto key = engine.ownerFirstKey())
        out() << "\nOwner API key (shown once; keep it safe):\n" << *key << "\n";
    out() << "\nPress Ctrl+C to stop.\n";
    out().flush();
    return QCoreApplication::exec();
}

} // namespace berth
