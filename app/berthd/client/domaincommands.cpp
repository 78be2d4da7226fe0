#include "app/berthd/client/domaincommands.h"

#include "app/berthd/cli.h"
#include "app/berthd/client/sitesession.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth::DomainCommands {

namespace {

using Cli::out;

void printDomains(const QJsonObject &site)
{
    out() << "Site: " << site[u"slug"_s].toString() << " (" << site[u"id"_s].toString() << ")\n";
    SiteSession::printRows(site[u"domains"_s].toArray(), "No custom domains.",
        {u"DOMAIN"_s, u"CERTIFICATE"_s, u"EXPIRES"_s}, [](const QJsonValue &domain) {
            const QJsonObject certificate = domain[u"certificate"_s].toObject();
            const QJsonValue expires = certificate[u"expires_at"_s];
            return QStringList {domain[u"name"_s].toString(), certificate[u"status"_s].toString(),
                expires.isString() ? expires.toString() : u"-"_s};
        });
}

QStringList namesIn(const QJsonObject &site)
{
    QStringList names;
    for (const QJsonValue &domain : site[u"domains"_s].toArray())
        names.append(domain[u"name"_s].toString());
    return names;
}

} // namespace

int domains(const QStringList &arguments)
{
    const QString action = arguments.value(2);
    const bool changes = action == u"add" || action == u"remove";
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"domains"_s, u"SLUG|ID [add|remove NAME]"_s,
            u"A site's custom domains and their certificates; 'add NAME' gives the site one more host name\n"
            "(point its DNS at this server), 'remove NAME' takes one away. Only the instance owner's sites may\n"
            "have domains unless the owner ran 'berthd domains policy everyone'."_s,
            {}, changes ? 3 : 1))
        return *exit;
    SiteSession session(parser);
    if (session.exit() != ExitOk)
        return session.exit();
    const ApiClient::Reply current = session.request("GET", QString());
    if (!changes || current.status != 200)
        return session.finish(current, printDomains);

    QStringList names = namesIn(current.json);
    const QString name = parser.positionalArguments().at(2);
    if (action == u"add") {
        names.append(name); // the server checks and normalises it
    } else if (names.removeAll(name.toLower()) == 0) {
        return Cli::failure(u"%1 is not one of this site's domains"_s.arg(name));
    }
    const ApiClient::Reply changed
        = session.request("PUT", QString(), QJsonObject {{u"domains"_s, QJsonArray::fromStringList(names)}});
    if (changed.status != 200)
        return session.failure(changed);
    return session.finish(session.request("GET", QString()), printDomains);
}

} // namespace berth::DomainCommands
