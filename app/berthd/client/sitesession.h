#pragma once

#include "app/berthd/client/clientsession.h"
#include "app/berthd/commands.h"

#include <QJsonArray>
#include <functional>

namespace berth {

// A deployment named by id (dep_...) or by slug: its id, or an exit status (the reason printed).
struct SiteTarget
{
    QString id;
    int exit = ExitOk;
};

// Looks a deployment up by slug among the caller's (GET /deploys); an id is taken as it is.
SiteTarget resolveSite(ApiClient &client, const QString &name);

// A byte count for people: "12.5 KB", "3.0 MB".
QString sizeText(qint64 bytes);

// One client command about one site (versions, rollback, rename, protect, submissions, ...): its first argument
// names the site (SLUG|ID); --json prints the API's answer as it came, for scripts.
class SiteSession final
{
public:
    using Printer = std::function<void(const QJsonObject &answer)>;

    static const QCommandLineOption &jsonOption();

    // ClientSession::parse() with --json added to `options`; the usage starts with SLUG|ID.
    static std::optional<int> parse(QCommandLineParser &parser, const QStringList &arguments, const QString &name,
        const QString &usage, const QString &description, const QList<QCommandLineOption> &options,
        int positionalArguments);

    // Connects (ClientSession::connect) and resolves the site the first positional argument names.
    explicit SiteSession(const QCommandLineParser &parser);
    Q_DISABLE_COPY_MOVE(SiteSession)

    // ExitOk when connected to a known site; else the exit status, the reason printed.
    int exit() const { return m_exit; }

    // A request to /deploy/<id><subPath>, with a query string when `query` is set (e.g. "format=csv").
    ApiClient::Reply request(const QByteArray &method, const QString &subPath,
        const std::optional<QJsonObject> &body = {}, const QString &query = {});

    // Why a request failed, printed; its exit status (ClientSession::failure).
    int failure(const ApiClient::Reply &reply) const;
    // The command's end: a refusal's exit status (ClientSession::failure), else the answer printed (as it came with
    // --json, else by `print`) and ExitOk.
    int finish(const ApiClient::Reply &reply, const Printer &print);
    // The whole of most site commands: connect, resolve the site, one request, finish().
    static int call(const QCommandLineParser &parser, const QByteArray &method, const QString &subPath,
        const std::optional<QJsonObject> &body, const Printer &print);
    // Prints the answer's bytes as they came (JSON, CSV).
    static void printBody(const ApiClient::Reply &reply);
    // Prints `items` as a table under `header`, a row each (`row`); `none` when there are none.
    static void printRows(const QJsonArray &items, const char *none, const QStringList &header,
        const std::function<QStringList(const QJsonValue &item)> &row);

private:
    const QCommandLineParser &m_parser;
    int m_exit = ExitOk; // before m_client: connecting sets it while m_client is initialised
    std::unique_ptr<ApiClient> m_client;
    QString m_id;
};

} // namespace berth
