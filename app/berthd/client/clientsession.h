#pragma once

#include "app/berthd/client/apiclient.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <memory>
#include <optional>

namespace berth {

// Exit statuses of the commands that talk to a running instance (deploy, list, status, teardown, open, mcp),
// beyond 0 (done), 1 (anything else, e.g. a server error) and 2 (bad usage, or input the server refused as 400).
enum ClientExitCode
{
    ExitUnreachable = 3, // no server answered at the URL
    ExitAuth = 4, // no key, a refused key (401), or no agent session allowed
    ExitRefused = 5, // over a limit: too large (checked before upload too), deployment limit, rate limit
    ExitNotFound = 6, // no such deployment (or another user's)
    ExitConflict = 7, // the slug is taken
};

// What the client commands share: the instance's URL (--url, else BERTH_URL, else http://localhost:8080) and the
// key (BERTH_API_KEY, else on this machine an agent identity from POST /auth/session, kept for the next command in
// the user's config folder, else a message how to get a key). Never a surprise: a key in a misnamed variable
// (BERTH_KEY, BERTH_TOKEN, ...) stops the command instead of publishing as an agent, and working as an agent is
// said on the first line connect() prints (docs/auth-and-keys.md).
namespace ClientSession {

const QCommandLineOption &urlOption();

// Parses a client command's line (the program name first); an exit code when there is nothing more to do: help
// printed, bad usage, or BERTH_API_KEY unset while a near miss of it (keyVariableNearMiss()) is set (exit 2).
// `moreExitStatuses` goes on the --help text's list of exit statuses (a command's own, such as deploy's 8).
std::optional<int> parse(QCommandLineParser &parser, const QStringList &arguments, const QString &name,
    const QString &usage, const QString &description, const QList<QCommandLineOption> &options, int minArguments,
    int maxArguments, const QString &moreExitStatuses = {});

// The name of a set environment variable that looks meant for BERTH_API_KEY (BERTH_KEY, BERTH_APIKEY, BERTH_TOKEN,
// BERTH_API_TOKEN, BERTHD_API_KEY, berth_api_key, ...) while BERTH_API_KEY itself is unset or empty; else empty.
QString keyVariableNearMiss();

// A client for --url with a key set; null with the reason printed and *exit set. Without BERTH_API_KEY, on this
// machine, the first thing it prints (standard error) is the agent it works as, new or kept from the last command.
std::unique_ptr<ApiClient> connect(const QCommandLineParser &parser, int *exit);

// Who the last connect() works as.
struct Identity
{
    bool agent = false; // false: the key of BERTH_API_KEY
    bool newAgent = false; // made by this command (POST /auth/session)
    QString agentId; // "agt_...", for an agent
    QString claimUrl; // where a user signs in to keep the agent's sites, for an agent
};
const Identity &identity();
bool isAgent();
// The identity for a command's result, e.g. deploy's "As:" line: "agent agt_... of this machine (keep its sites by
// signing in at <claim url>)"; empty when the key came from BERTH_API_KEY.
QString identityNote();

// Prints why a request failed and returns its exit status (see ClientExitCode).
int failure(const ApiClient &client, const ApiClient::Reply &reply);

} // namespace ClientSession
} // namespace berth
