#include "cli.h"

#include "core/error.h"
#include "engine.h"

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

std::optional<int> parse(QCommandLineParser &parser, const QStringList &arguments, const Command &command,
    const QList<QCommandLineOption> &options)
{
    parser.setApplicationDescription(command.description);
    parser.addHelpOption();
    parser.addOptions(options);
    parser.addOption(dataDirOption());
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

std::unique_ptr<Engine> openEngine(const QCommandLineParser &parser)
{
    EngineSettings settings;
    settings.dataDir = parser.value(dataDirOption());
    auto engine = std::make_unique<Engine>(settings);
    if (const Result<void> opened = engine->open(); !opened) {
        failure(opened.error().message);
        return nullptr;
    }
    // This command made the owner of a fresh data folder: its first key is shown here, once, or never (serve
    // shows it only when it makes the owner). Standard error, so that the command's own output stays as it is.
    if (const auto key = engine->ownerFirstKey()) {
        err() << "berthd: a new Berth data folder (" << engine->dataDir() << ").\n"
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
    const auto engine = openEngine(parser);
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
