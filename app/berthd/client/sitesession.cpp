#include "app/berthd/client/sitesession.h"

#include "app/berthd/cli.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth {

SiteTarget resolveSite(ApiClient &client, const QString &name)
{
    if (name.startsWith(u"dep_"_s))
        return {name};
    const ApiClient::Reply list = client.request("GET", u"/deploys"_s);
    if (list.status != 200)
        return {{}, ClientSession::failure(client, list)};
    for (const QJsonValue &deployment : list.json.value(u"deployments"_s).toArray()) {
        if (deployment[u"slug"_s].toString() == name)
            return {deployment[u"id"_s].toString()};
    }
    Cli::failure(u"Deployment not found"_s);
    return {{}, ExitNotFound};
}

QString sizeText(qint64 bytes)
{
    return bytes < 1024 * 1024 ? u"%1 KB"_s.arg(QString::number(double(bytes) / 1024, 'f', 1))
                               : u"%1 MB"_s.arg(QString::number(double(bytes) / (1024 * 1024), 'f', 1));
}

const QCommandLineOption &SiteSession::jsonOption()
{
    static const QCommandLineOption option(u"json"_s, u"Print the API's answer as JSON, for scripts."_s);
    return option;
}

std::optional<int> SiteSession::parse(QCommandLineParser &parser, const QStringList &arguments, const QString &name,
    const QString &usage, const QString &description, const QList<QCommandLineOption> &options, int positionalArguments)
{
    return ClientSession::parse(parser, arguments, name, usage, description,
        QList<QCommandLineOption> {options} << jsonOption(), positionalArguments, positionalArguments);
}

SiteSession::SiteSession(const QCommandLineParser &parser)
    : m_parser(parser)
    , m_client(ClientSession::connect(parser, &m_exit))
{
    if (!m_client)
        return;
    const SiteTarget target = resolveSite(*m_client, parser.positionalArguments().value(0));
    m_id = target.id;
    m_exit = target.exit;
}

ApiClient::Reply SiteSession::request(
    const QByteArray &method, const QString &subPath, const std::optional<QJsonObject> &body, const QString &query)
{
    const QString path = u"/deploy/"_s + m_id + subPath;
    return m_client->request(method, query.isEmpty() ? path : path + u'?' + query, body);
}

int SiteSession::failure(const ApiClient::Reply &reply) const
{
    return ClientSession::failure(*m_client, reply);
}

int SiteSession::finish(const ApiClient::Reply &reply, const Printer &print)
{
    if (reply.status != 200)
        return failure(reply);
    if (m_parser.isSet(jsonOption()))
        printBody(reply);
    else
        print(reply.json);
    Cli::out().flush();
    return ExitOk;
}

int SiteSession::call(const QCommandLineParser &parser, const QByteArray &method, const QString &subPath,
    const std::optional<QJsonObject> &body, const Printer &print)
{
    SiteSession site(parser);
    if (site.exit() != ExitOk)
        return site.exit();
    return site.finish(site.request(method, subPath, body), print);
}

void SiteSession::printBody(const ApiClient::Reply &reply)
{
    Cli::out() << QString::fromUtf8(reply.body);
    if (!reply.body.isEmpty() && !reply.body.endsWith('\n'))
        Cli::out() << "\n";
    Cli::out().flush();
}

void SiteSession::printRows(const QJsonArray &items, const char *none, const QStringList &header,
    const std::function<QStringList(const QJsonValue &item)> &row)
{
    if (items.isEmpty()) {
        Cli::out() << none << "\n";
        return;
    }
    QList<QStringList> rows {header};
    for (const QJsonValue &item : items)
        rows.append(row(item));
    Cli::printTable(rows);
}

} // namespace berth
