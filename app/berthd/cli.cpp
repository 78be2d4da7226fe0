#include "app/berthd/cli.h"

#include "core/error.h"
#include "instance/engine.h"
#include "storage/databaseurl.h"

using namespace Qt::StringLiterals;

namespace berth::Cli {

QTextStream &out()
{
    static QTextStream stream(stdout);
    return stream;
}

QTextStream &err()
{
    static QTextStream stream(stderr);
    return stream;
}

int usageError(const QString &message, const QString &command)
{
    err() << "berthd: " << message << "\n"
          << "Try 'berthd " << (command.isEmpty() ? QString() : command + u' ') << "--help'.\n";
    err().flush();
    return ExitUsage;
}

int failure(const QString &message)
{
    err() << "berthd: " << message << "\n";
    err().flush();
    return ExitFailure;
}

int refusal(const Error &error, const QString &command)
{
    return error.kind == Error::Kind::BadRequest ? usageError(error.message, command) : failure(error.message);
}

const QCommandLineOption &dataDirOption()
{
    static const QCommandLineOption option(
        u"data-dir"_s, u"Where the database and files live (default: %1)."_s.arg(u"~/.local/share/berth"_s), u"DIR"_s);
    return option;
}

const QCommandLineOption &databaseOption()
{
    static const QCommandLineOption option(u"database"_s,
        u"The instance's PostgreSQL database: postgresql://USER:PASSWORD@HOST:PORT/DBNAME (default: "
        "$BERTH_DATABASE, else SQLite in the data folder)."_s,
        u"URL"_s);
    return option;
}

QString databaseUrl(const QCommandLineParser &parser)
{
    return parser.isSet(databaseOption()) ? parser.value(databaseOption()) : qEnvironmentVariable("BERTH_DATABASE");
}

Result<EngineSettings> instanceSettings(const QCommandLineParser &parser)
{
    EngineSettings settings;
    settings.dataDir = parser.value(dataDirOption());
    // The URL may hold a password: only what is wrong with it is said, never the URL.
    settings.databaseUrl = databaseUrl(parser);
    if (!settings.databaseUrl.isEmpty()) {
        if (const Result<DatabaseUrl> url = DatabaseUrl::parse(settings.databaseUrl); !url)
            return Error {Error::Kind::BadRequest, u"--database: "_s + url.error().message};
    }
    return settings;
}

std::optional<int> parse(QCommandLineParser &parser, const QStringList &arguments, const Command &command,
    const QList<QCommandLineOption> &options)
{
    parser.setApplicationDescription(command.description);
    parser.addHelpOption();
    parser.addOptions(options);
    parser.addOption(dataDirOption());
    parser.addOption(databaseOption());
    if (!command.arguments.isEmpty())
        parser.addPositionalArgument(command.arguments, QString(), command.arguments);
    if (!parser.parse(arguments))
        return usageError(parser.errorText(), command.name);
    if (parser.isSet(u"help"_s)) {
        QString help = parser.helpText();
        help.replace(u"berthd [options]"_s, u"berthd "_s + command.name + u" [options]"_s);
        out() << help;
        out().flush();
        return ExitOk;
    }
    const qsizetype count = parser.positionalArguments().size();
    if (count < command.minArguments)
        return usageError(u"'%1' needs %2"_s.arg(command.name, command.arguments), command.name);
    if (count > command.maxArguments)
        return usageError(
            u"unexpected argument '%1'"_s.arg(parser.positionalArguments().at(command.maxArguments)), command.name);
    return std::nullopt;
}

std::unique_ptr<Engine> openEngine(const EngineSettings &settings, bool announceFirstKey)
{
    auto engine = std::make_unique<Engine>(settings);
    // On PostgreSQL the message names the database without its password (Database::displayName()).
    if (const Result<void> opened = engine->open(); !opened) {
        failure(opened.error().message);
        return nullptr;
    }
    // This command made the owner of a fresh instance: its first key is shown here, once, or never (serve shows it
    // only when it makes the owner). Standard error, so that the command's own output stays as it is.
    if (const auto key = engine->ownerFirstKey(); key && announceFirstKey) {
        const Result<DatabaseUrl> url = DatabaseUrl::parse(settings.databaseUrl);
        const QString where
            = url ? u"database (%1)"_s.arg(url.value().redacted()) : u"data folder (%1)"_s.arg(engine->dataDir());
        err() << "berthd: a new Berth " << where << ".\n"
              << "Owner API key (shown once; keep it safe):\n"
              << *key << "\n";
        err().flush();
    }
    return engine;
}

int run(const QStringList &arguments, const Command &command, const Action &action,
    const QList<QCommandLineOption> &options, const Check &check)
{
    QCommandLineParser parser;
    if (const auto exit = parse(parser, arguments, command, options))
        return *exit;
    if (const QString problem = check ? check(parser) : QString(); !problem.isEmpty())
        return usageError(problem, command.name);
    const Result<EngineSettings> settings = instanceSettings(parser);
    if (!settings)
        return usageError(settings.error().message, command.name);
    const auto engine = openEngine(settings.value());
    return engine ? action(parser, *engine) : ExitFailure;
}

void printTable(const QList<QStringList> &rows)
{
    QList<qsizetype> widths;
    for (const QStringList &row : rows) {
        for (qsizetype i = 0; i < row.size(); ++i) {
            if (widths.size() <= i)
                widths.append(0);
            widths[i] = qMax(widths.at(i), row.at(i).size());
        }
    }
    for (const QStringList &row : rows) {
        QString line;
        for (qsizetype i = 0; i < row.size(); ++i)
            line += i + 1 < row.size() ? row.at(i).leftJustified(widths.at(i) + 2) : row.at(i);
        out() << line << "\n";
    }
    out().flush();
}

} // namespace berth::Cli
