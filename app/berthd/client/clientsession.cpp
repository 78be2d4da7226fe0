#include "app/berthd/client/clientsession.h"

#include "app/berthd/cli.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QStandardPaths>

using namespace Qt::StringLiterals;

namespace berth::ClientSession {

namespace {

constexpr char kDefaultUrl[] = "http://localhost:8080";

// Agent keys kept per instance URL, readable by the user alone: the next command acts as the same agent.
QString agentFile()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) + u"/berth/agents.json"_s;
}

QJsonObject readAgents()
{
    QFile file(agentFile());
    return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
}

void storeAgent(const QString &url, const QJsonObject &agent)
{
    QJsonObject agents = readAgents();
    if (agent.isEmpty())
        agents.remove(url);
    else
        agents.insert(url, agent);
    QDir().mkpath(QFileInfo(agentFile()).absolutePath());
    QFile file(agentFile());
    if (file.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        file.write(QJsonDocument(agents).toJson());
    }
}

int unreachable(const ApiClient &client, const QString &reason)
{
    Cli::err() << "berthd: cannot reach Berth at " << client.baseUrl().toString() << ": " << reason << "\n"
               << "Is it running? Start it with 'berthd serve', or name another instance with --url.\n";
    Cli::err().flush();
    return ExitUnreachable;
}

Identity &current()
{
    static Identity identity;
    return identity;
}

// The first thing a command without BERTH_API_KEY says: whose sites it is about to touch.
void announce(const Identity &agent)
{
    Cli::err() << "berthd: no BERTH_API_KEY: working as "
               << (agent.newAgent ? u"a new agent of this machine (%1)."_s.arg(agent.agentId)
                                  : u"agent %1 of this machine."_s.arg(agent.agentId))
               << "\n";
    if (!agent.claimUrl.isEmpty())
        Cli::err() << "Keep its sites for good by signing in at " << agent.claimUrl << "\n";
    Cli::err().flush();
}

int noKey(const ApiClient &client, const QString &why)
{
    const QString url = client.baseUrl().toString();
    Cli::err() << "berthd: no API key" << (why.isEmpty() ? QString() : u" ("_s + why + u')') << ".\n"
               << "Set BERTH_API_KEY to a key of " << url << ": sign in at " << url
               << "/auth/login, or on the server run 'berthd key create'.\n";
    Cli::err().flush();
    return ExitAuth;
}

} // namespace

const QCommandLineOption &urlOption()
{
    static const QCommandLineOption option(u"url"_s,
        u"The Berth instance's API (default: $BERTH_URL, else %1)."_s.arg(QLatin1String(kDefaultUrl)), u"URL"_s);
    return option;
}

std::optional<int> parse(QCommandLineParser &parser, const QStringList &arguments, const QString &name,
    const QString &usage, const QString &description, const QList<QCommandLineOption> &options, int minArguments,
    int maxArguments, const QString &moreExitStatuses)
{
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    parser.addOptions(options);
    parser.addOption(urlOption());
    if (!usage.isEmpty())
        parser.addPositionalArgument(usage, QString(), usage);
    if (!parser.parse(arguments))
        return Cli::usageError(parser.errorText(), name);
    if (parser.isSet(u"help"_s)) {
        Cli::out() << parser.helpText().replace(u"berthd [options]"_s, u"berthd "_s + name + u" [options]"_s)
                   << "\nExit status: 0 done, 1 failure, 2 bad usage or input, 3 server unreachable, 4 no key or "
                      "key refused,\n5 over a limit, 6 not found, 7 slug taken"
                   << moreExitStatuses << ".\n";
        Cli::out().flush();
        return ExitOk;
    }
    const qsizetype count = parser.positionalArguments().size();
    if (count < minArguments)
        return Cli::usageError(u"'%1' needs %2"_s.arg(name, usage), name);
    if (count > maxArguments)
        return Cli::usageError(u"unexpected argument '%1'"_s.arg(parser.positionalArguments().at(maxArguments)), name);
    if (const QString variable = keyVariableNearMiss(); !variable.isEmpty())
        return Cli::usageError(
            u"%1 is set but BERTH_API_KEY is not; berthd reads the key from BERTH_API_KEY alone, so "
            "nothing was sent. Set BERTH_API_KEY (export BERTH_API_KEY=\"$%1\"), or unset %1."_s.arg(variable),
            name);
    return std::nullopt;
}

QString keyVariableNearMiss()
{
    if (!qgetenv("BERTH_API_KEY").trimmed().isEmpty())
        return {};
    // Folded to upper case without separators: BERTH or BERTHD, maybe API or ACCESS, then KEY or TOKEN (or plural).
    static const QRegularExpression nearMiss(u"^BERTHD?(API|ACCESS)?(KEY|TOKEN)S?$"_s);
    QStringList names = QProcessEnvironment::systemEnvironment().keys();
    names.sort();
    for (const QString &name : std::as_const(names)) {
        const QString folded = name.toUpper().remove(u'_').remove(u'-');
        if (name != u"BERTH_API_KEY"_s && nearMiss.match(folded).hasMatch()
            && !qgetenv(name.toLocal8Bit().constData()).trimmed().isEmpty())
            return name;
    }
    return {};
}

const Identity &identity()
{
    return current();
}

bool isAgent()
{
    return current().agent;
}

QString identityNote()
{
    const Identity &agent = current();
    if (!agent.agent)
        return {};
    QString note = u"agent %1 of this machine"_s.arg(agent.agentId);
    if (!agent.claimUrl.isEmpty())
        note += u" (keep its sites by signing in at %1)"_s.arg(agent.claimUrl);
    return note;
}

std::unique_ptr<ApiClient> connect(const QCommandLineParser &parser, int *exit)
{
    QString url = parser.value(urlOption());
    if (url.isEmpty())
        url = qEnvironmentVariable("BERTH_URL", QLatin1String(kDefaultUrl));
    const QUrl baseUrl(url);
    if (!baseUrl.isValid() || (baseUrl.scheme() != u"http"_s && baseUrl.scheme() != u"https"_s)
        || baseUrl.host().isEmpty()) {
        *exit = Cli::usageError(u"--url expects an http or https URL, not '%1'"_s.arg(url), QString());
        return nullptr;
    }
    auto client = std::make_unique<ApiClient>(baseUrl);
    current() = {};
    if (const QByteArray key = qgetenv("BERTH_API_KEY").trimmed(); !key.isEmpty()) {
        client->setKey(key);
        return client;
    }
    if (!client->isLoopback()) {
        *exit = noKey(*client, QString());
        return nullptr;
    }
    // On this machine: the agent of the last command, while its key still works; else a new one.
    const QString instance = client->baseUrl().toString();
    if (const QJsonObject agent = readAgents().value(instance).toObject(); !agent.isEmpty()) {
        client->setKey(agent.value(u"api_key"_s).toString().toLatin1());
        const ApiClient::Reply me = client->request("GET", u"/auth/me"_s);
        if (!me.reached) {
            *exit = unreachable(*client, me.networkError);
            return nullptr;
        }
        if (me.status == 200) {
            current() = {true, false, agent.value(u"agent_id"_s).toString(me.json.value(u"id"_s).toString()),
                agent.value(u"claim_url"_s).toString()};
            announce(current());
            return client;
        }
        storeAgent(instance, {}); // claimed or revoked
        client->setKey({});
    }
    const ApiClient::Reply session = client->request("POST", u"/auth/session"_s);
    if (!session.reached) {
        *exit = unreachable(*client, session.networkError);
        return nullptr;
    }
    if (session.status != 200) {
        *exit = noKey(*client, u"no agent session: "_s + session.error());
        return nullptr;
    }
    client->setKey(session.json.value(u"api_key"_s).toString().toLatin1());
    storeAgent(instance,
        {{u"api_key"_s, session.json.value(u"api_key"_s)}, {u"agent_id"_s, session.json.value(u"agent_id"_s)},
            {u"claim_url"_s, session.json.value(u"claim_url"_s)}});
    current()
        = {true, true, session.json.value(u"agent_id"_s).toString(), session.json.value(u"claim_url"_s).toString()};
    announce(current());
    return client;
}

int failure(const ApiClient &client, const ApiClient::Reply &reply)
{
    if (!reply.reached)
        return unreachable(client, reply.networkError);
    const QString text = reply.error().isEmpty() ? u"HTTP status %1"_s.arg(reply.status) : reply.error();
    switch (reply.status) {
    case 400:
        Cli::err() << "berthd: " << text << "\n";
        Cli::err().flush();
        return ExitUsage;
    case 401:
        Cli::err() << "berthd: the API key was refused (" << text << "). Set BERTH_API_KEY to a live key of "
                   << client.baseUrl().toString() << ".\n";
        Cli::err().flush();
        return ExitAuth;
    case 403:
    case 413:
    case 429:
        Cli::err() << "berthd: " << text << "\n";
        Cli::err().flush();
        return ExitRefused;
    case 404:
        Cli::failure(text);
        return ExitNotFound;
    case 409:
        Cli::failure(text);
        return ExitConflict;
    default:
        return Cli::failure(text);
    }
}

} // namespace berth::ClientSession
