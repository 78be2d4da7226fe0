#pragma once

#include "app/berthd/commands.h"
#include "core/error.h"
#include "instance/enginesettings.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QStringList>
#include <QTextStream>
#include <functional>
#include <memory>
#include <optional>

namespace berth {

class Engine;

// What every berthd subcommand shares: its output streams, usage errors (exit 2), the --data-dir and --database
// options, and opening the instance without the network.
namespace Cli {

QTextStream &out();
QTextStream &err();

// Prints the message and a pointer to the command's --help; returns ExitUsage.
int usageError(const QString &message, const QString &command);
// Prints "berthd: message"; returns ExitFailure.
int failure(const QString &message);
// A domain refusal: bad input is a usage error (2), anything else a failure (1).
int refusal(const Error &error, const QString &command);

const QCommandLineOption &dataDirOption();
// --database URL: the instance's PostgreSQL database (default: $BERTH_DATABASE, else SQLite in the data folder).
const QCommandLineOption &databaseOption();
// The database URL the command was given (--database, else $BERTH_DATABASE); empty for SQLite.
QString databaseUrl(const QCommandLineParser &parser);
// Where the instance is: --data-dir and the database URL. BadRequest ("--database: ...", never with the URL's
// password) when the URL is malformed.
Result<EngineSettings> instanceSettings(const QCommandLineParser &parser);

// One administration subcommand: "users plan", its positional arguments and what it does.
struct Command
{
    QString name; // e.g. "users plan"
    QString arguments; // e.g. "USER PLAN", for the help's usage line
    QString description;
    int minArguments = 0;
    int maxArguments = 0;
};

// Parses `arguments` (the program name first) for the command with --help, --data-dir, --database and `options`.
// Returns an exit code when there is nothing more to do (help printed, bad usage); nullopt when the command should run.
std::optional<int> parse(QCommandLineParser &parser, const QStringList &arguments, const Command &command,
    const QList<QCommandLineOption> &options = {});

// The instance of instanceSettings(), opened without listening; null (the reason printed) when it cannot be opened.
// When this made the owner (a fresh instance) and announceFirstKey, the owner's first key goes to standard error.
std::unique_ptr<Engine> openEngine(const EngineSettings &settings, bool announceFirstKey = true);

// What a command does once its arguments are parsed and the instance is open; returns the exit code.
using Action = std::function<int(const QCommandLineParser &parser, Engine &engine)>;
// Finds a usage error in the parsed arguments (empty when there is none), before the instance is opened.
using Check = std::function<QString(const QCommandLineParser &parser)>;

// A whole command: parse(), then `check` and instanceSettings() (a usage error exits with 2 and touches nothing),
// then openEngine(), then `action`.
int run(const QStringList &arguments, const Command &command, const Action &action,
    const QList<QCommandLineOption> &options = {}, const Check &check = {});

// Rows as columns padded to the widest cell; the first row is the header.
void printTable(const QList<QStringList> &rows);

} // namespace Cli
} // namespace berth
