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
// the user's config folder, else a message how to get a key).
namespace ClientSession {

const QCommandLineOption &urlOption();

// Parses a client command's line (the program name first); an exit code when there is nothing more to do.
std::optional<int> parse(QCommandLineParser &parser, const QStringList &arguments, const QString &name,
    const QString &usage, const QString &description, const QList<QCommandLineOption> &options, int minArguments,
    int maxArguments);

// A client for --url with a key set; null with the reason printed and *exit set.
std::unique_ptr<ApiClient> connect(const QCommandLineParser &parser, int *exit);

// Prints why a request failed and returns its exit status (see ClientExitCode).
int failure(const ApiClient &client, const ApiClient::Reply &reply);

} // namespace ClientSession
} // namespace berth
