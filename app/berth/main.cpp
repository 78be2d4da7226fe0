// berth: the desktop dashboard. Runs the Berth engine in-process, so every site stays live for
// browsers while the window (or the tray icon) is open.
#include "instance/engine.h"
#include "instance/processlimits.h"
#include "ui/mainwindow/instancechannel.h"
#include "ui/mainwindow/mainwindow.h"
#include "ui/mainwindow/startup.h"
#include "ui/settings/appsettings.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/translations.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTextStream>
#include <optional>

using namespace Qt::StringLiterals;

namespace {

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

int usageError(const QString &message)
{
    QTextStream(stderr) << "berth: " << message << "\nTry 'berth --help'.\n";
    return kExitUsage;
}

using Overrides = berth::Startup::Overrides;

// Parses with only a QCoreApplication, so that --help, --version and usage errors work without a display.
// Returns an exit code when the program should stop here.
std::optional<int> parseCommandLine(int argc, char *argv[], Overrides *overrides)
{
    QCoreApplication core(argc, argv);
    QCoreApplication::setApplicationVersion(QStringLiteral(BERTH_VERSION));
    berth::Translations translations;
    translations.install(QLocale::system());

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("main",
        "The Berth dashboard: publish folders as live sites. Options override the saved settings for this run."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption listen(
        u"listen"_s, QCoreApplication::translate("main", "Address and port to listen on."), u"ADDR:PORT"_s);
    const QCommandLineOption dataDir(
        u"data-dir"_s, QCoreApplication::translate("main", "Where the data lives."), u"DIR"_s);
    const QCommandLineOption siteDomain(
        u"site-domain"_s, QCoreApplication::translate("main", "Domain whose subdomains are the sites."), u"DOMAIN"_s);
    const QCommandLineOption baseUrl(
        u"base-url"_s, QCoreApplication::translate("main", "Public base URL of the API."), u"URL"_s);
    const QCommandLineOption database(u"database"_s,
        QCoreApplication::translate("main",
            "Keep the records and the sites' files in this PostgreSQL database, "
            "postgresql://USER:PASSWORD@HOST:PORT/DBNAME (default: $BERTH_DATABASE, else SQLite in the data folder)."),
        u"URL"_s);
    parser.addOptions({listen, dataDir, siteDomain, baseUrl, database});
    if (!parser.parse(QCoreApplication::arguments()))
        return usageError(parser.errorText());
    if (parser.isSet(u"help"_s))
        parser.showHelp(); // exits
    if (parser.isSet(u"help-all"_s))
        parser.process(core); // prints the help with Qt's own options too, and exits
    if (parser.isSet(u"version"_s))
        parser.showVersion(); // exits
    if (!parser.positionalArguments().isEmpty())
        return usageError(u"unexpected argument '%1'"_s.arg(parser.positionalArguments().constFirst()));
    QHostAddress address;
    quint16 port = 0;
    if (parser.isSet(listen) && !berth::AppSettings::parseListen(parser.value(listen), &address, &port))
        return usageError(u"--listen expects ADDR:PORT, e.g. 127.0.0.1:8080, not '%1'"_s.arg(parser.value(listen)));
    const auto take = [&parser](const QCommandLineOption &option, std::optional<QString> &target) {
        if (parser.isSet(option))
            target = parser.value(option);
    };
    take(listen, overrides->listen);
    take(dataDir, overrides->dataDir);
    take(siteDomain, overrides->siteDomain);
    take(baseUrl, overrides->baseUrl);
    // As berthd reads it; a malformed URL or an unreachable database is the start-up's failure to show (Startup).
    take(database, overrides->database);
    if (!overrides->database && !qEnvironmentVariableIsEmpty("BERTH_DATABASE"))
        overrides->database = qEnvironmentVariable("BERTH_DATABASE");
    return std::nullopt;
}

} // namespace

int main(int argc, char *argv[])
{
    Overrides overrides;
    if (const auto exitCode = parseCommandLine(argc, argv, &overrides))
        return *exitCode;

    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(u"berth"_s); // same data folder as berthd
    QCoreApplication::setApplicationVersion(QStringLiteral(BERTH_VERSION));
    QGuiApplication::setApplicationDisplayName(u"Berth"_s);
    QGuiApplication::setDesktopFileName(u"io.berth.Berth"_s);
    QGuiApplication::setWindowIcon(berth::Icons::appIcon());
    berth::Translations translations;
    translations.install(QLocale::system());

    berth::AppSettings settings;
    berth::raiseOpenFileLimit(); // connections are file descriptors: the front door's cap should be the limit
    berth::Prompter startupPrompter;
    berth::Startup startup(settings, overrides, startupPrompter);
    switch (startup.run()) {
    case berth::Startup::Outcome::RaisedOther:
        QTextStream(stdout) << "Berth is already running on this data folder: its window was brought forward.\n";
        return 0;
    case berth::Startup::Outcome::Quit:
        return kExitFailure;
    case berth::Startup::Outcome::Started:
        break;
    }
    settings.setOverrides(startup.overrides()); // what Settings shows as in effect for this run
    berth::Engine &engine = *startup.engine();
    if (const auto key = engine.ownerFirstKey())
        QTextStream(stdout) << "Owner API key (shown once; keep it safe):\n" << *key << "\n";

    berth::MainWindow window(engine, settings);
    // Quit stops serving gracefully (requests in progress, an agent's deploy say, are answered first), then the event
    // loop ends and the window and the engine go.
    QObject::connect(
        &window, &berth::MainWindow::readyToQuit, &engine, [&engine] { engine.stop([] { QCoreApplication::quit(); }); },
        Qt::QueuedConnection);
    QObject::connect(
        startup.channel(), &berth::InstanceChannel::raiseRequested, &window, &berth::MainWindow::bringToFront);
    window.show();
    if (const auto key = engine.ownerFirstKey())
        window.showFirstKey(*key);
    return QApplication::exec();
}
