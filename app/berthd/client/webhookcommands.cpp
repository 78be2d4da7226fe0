#include "app/berthd/client/webhookcommands.h"

#include "app/berthd/cli.h"
#include "app/berthd/client/clientsession.h"
#include "app/berthd/client/sitesession.h"

#include <QJsonArray>
#include <functional>

using namespace Qt::StringLiterals;

namespace berth::WebhookCommands {

namespace {

using Cli::out;

const QStringList kSubcommands {u"list"_s, u"add"_s, u"remove"_s, u"ping"_s, u"deliveries"_s, u"enable"_s};

// Connects, sends one request and hands a 200's JSON to `print` (prints it as it came with --json); else prints why
// and returns the exit status.
int call(const QCommandLineParser &parser, const QByteArray &method, const QString &path,
    const std::optional<QJsonObject> &body, const std::function<void(const QJsonObject &)> &print)
{
    int exit = ExitOk;
    const auto client = ClientSession::connect(parser, &exit);
    if (!client)
        return exit;
    const ApiClient::Reply reply = client->request(method, path, body);
    if (reply.status != 200)
        return ClientSession::failure(*client, reply);
    if (parser.isSet(SiteSession::jsonOption()))
        SiteSession::printBody(reply);
    else
        print(reply.json);
    out().flush();
    return ExitOk;
}

QString orDash(const QJsonValue &value)
{
    return value.isNull() || value.isUndefined() ? u"-"_s : value.toVariant().toString();
}

void printDelivery(const QJsonObject &delivery)
{
    out() << "Delivery " << delivery[u"id"_s].toString() << " of " << delivery[u"event_id"_s].toString() << ": "
          << delivery[u"status"_s].toString() << "\n";
}

} // namespace

int webhooks(const QStringList &arguments)
{
    const QString sub = arguments.value(1);
    const QStringList rest = QStringList {arguments.value(0)} + arguments.mid(2);
    QCommandLineParser parser;
    const QCommandLineOption event(u"event"_s,
        u"An event to send (repeat it): "_s
            + u"deployment.created, deployment.updated, deployment.renamed, deployment.deleted, submission.created."_s,
        u"TYPE"_s);
    const QCommandLineOption deployment(u"deployment"_s, u"Only this deployment's events."_s, u"ID"_s);
    const QCommandLineOption &json = SiteSession::jsonOption();
    if (sub == u"list") {
        if (const auto exit = ClientSession::parse(
                parser, rest, u"webhooks list"_s, {}, u"Your webhooks (never their secrets)."_s, {json}, 0, 0))
            return *exit;
        return call(parser, "GET", u"/webhooks"_s, std::nullopt, [](const QJsonObject &answer) {
            const QJsonArray webhooks = answer[u"webhooks"_s].toArray();
            if (webhooks.isEmpty()) {
                out() << "No webhooks.\n";
                return;
            }
            QList<QStringList> rows {{u"ID"_s, u"URL"_s, u"EVENTS"_s, u"DEPLOYMENT"_s, u"DISABLED"_s}};
            for (const QJsonValue &webhook : webhooks) {
                QStringList events;
                for (const QJsonValue &type : webhook[u"events"_s].toArray())
                    events.append(type.toString());
                rows.append({webhook[u"id"_s].toString(), webhook[u"url"_s].toString(), events.join(u','),
                    orDash(webhook[u"deployment_id"_s]), orDash(webhook[u"disabled_at"_s])});
            }
            Cli::printTable(rows);
        });
    }
    if (sub == u"add") {
        if (const auto exit = ClientSession::parse(parser, rest, u"webhooks add"_s, u"URL"_s,
                u"Add a webhook; prints its signing secret, shown only now."_s, {event, deployment, json}, 1, 1))
            return *exit;
        QJsonObject body {{u"url"_s, parser.positionalArguments().value(0)},
            {u"events"_s, QJsonArray::fromStringList(parser.values(event))}};
        if (parser.isSet(deployment))
            body.insert(u"deployment_id"_s, parser.value(deployment));
        return call(parser, "POST", u"/webhooks"_s, body, [](const QJsonObject &answer) {
            out() << "Webhook " << answer[u"id"_s].toString() << " added.\n"
                  << "Secret (shown once): " << answer[u"secret"_s].toString() << "\n";
        });
    }
    if (sub == u"remove" || sub == u"ping" || sub == u"deliveries" || sub == u"enable") {
        const QString description = sub == u"remove" ? u"Remove a webhook and its deliveries."_s
            : sub == u"ping"                         ? u"Send a ping event to a webhook."_s
            : sub == u"enable" ? u"Enable a webhook that was disabled for failing every delivery for 3 days."_s
                               : u"A webhook's last 100 deliveries, newest first."_s;
        if (const auto exit
            = ClientSession::parse(parser, rest, u"webhooks "_s + sub, u"ID"_s, description, {json}, 1, 1))
            return *exit;
        const QString path = u"/webhooks/"_s + parser.positionalArguments().value(0);
        if (sub == u"remove")
            return call(parser, "DELETE", path, std::nullopt, [](const QJsonObject &answer) {
                out() << answer[u"message"_s].toString() << ": " << answer[u"id"_s].toString() << "\n";
            });
        if (sub == u"ping")
            return call(parser, "POST", path + u"/ping"_s, QJsonObject {}, printDelivery);
        if (sub == u"enable")
            return call(parser, "POST", path + u"/enable"_s, QJsonObject {},
                [](const QJsonObject &answer) { out() << "Webhook " << answer[u"id"_s].toString() << " enabled.\n"; });
        return call(parser, "GET", path + u"/deliveries"_s, std::nullopt, [](const QJsonObject &answer) {
            const QJsonArray deliveries = answer[u"deliveries"_s].toArray();
            if (deliveries.isEmpty()) {
                out() << "No deliveries.\n";
                return;
            }
            QList<QStringList> rows {
                {u"ID"_s, u"TYPE"_s, u"STATUS"_s, u"ATTEMPTS"_s, u"HTTP"_s, u"NEXT"_s, u"ERROR"_s}};
            for (const QJsonValue &d : deliveries)
                rows.append({d[u"id"_s].toString(), d[u"type"_s].toString(), d[u"status"_s].toString(),
                    QString::number(d[u"attempts"_s].toInt()), orDash(d[u"response_status"_s]),
                    orDash(d[u"next_attempt_at"_s]), orDash(d[u"error"_s])});
            Cli::printTable(rows);
        });
    }
    if (sub == u"--help" || sub == u"-h") {
        out() << "Usage: berthd webhooks <" << kSubcommands.join(u'|') << "|targets> [options]\n"
              << "Run 'berthd webhooks <subcommand> --help' for its options.\n";
        return ExitOk;
    }
    return Cli::usageError(sub.isEmpty() || sub.startsWith(u'-')
            ? u"'webhooks' needs a subcommand: %1, targets"_s.arg(kSubcommands.join(u", "_s))
            : u"unknown webhooks subcommand '%1'"_s.arg(sub),
        QString());
}

} // namespace berth::WebhookCommands
