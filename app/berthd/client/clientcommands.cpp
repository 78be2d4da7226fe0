#include "app/berthd/client/clientcommands.h"

#include "app/berthd/cli.h"
#include "app/berthd/client/clientsession.h"
#include "app/berthd/client/domaincommands.h"
#include "app/berthd/client/incrementalupload.h"
#include "app/berthd/client/linkcommands.h"
#include "app/berthd/client/livefolder.h"
#include "app/berthd/client/mcpproxy.h"
#include "app/berthd/client/prepublish.h"
#include "app/berthd/client/sitecommands.h"
#include "app/berthd/client/sitefolder.h"
#include "app/berthd/client/sitesession.h"
#include "app/berthd/client/statscommand.h"
#include "app/berthd/client/submissioncommands.h"
#include "app/berthd/client/webhookcommands.h"
#include "domain/deploy/expiryrules.h"
#include "qr/qrcode.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <cstdio>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

using Cli::err;
using Cli::out;

// The first few of a list of paths, for one line of output.
QString shownList(const QStringList &paths)
{
    constexpr int kShown = 5;
    QString shown = paths.mid(0, kShown).join(u", "_s);
    if (paths.size() > kShown)
        shown += u" and %1 more"_s.arg(paths.size() - kShown);
    return shown;
}

// A folder refused before anything went (a limit, an unreadable file): the message and its exit status.
int refusal(const Error &error)
{
    err() << "berthd: " << error.message << "\n";
    err().flush();
    return error.kind == Error::Kind::TooLarge ? int(ExitRefused) : int(ExitUsage);
}

int deploy(const QStringList &arguments)
{
    const QCommandLineOption slug(u"slug"_s, u"The site's address: SLUG.<site domain> (new sites)."_s, u"SLUG"_s);
    const QCommandLineOption title(u"title"_s, u"Page title."_s, u"TEXT"_s);
    const QCommandLineOption description(u"description"_s, u"Meta description."_s, u"TEXT"_s);
    const QCommandLineOption isPrivate(u"private"_s, u"Only visitors with the share link get in."_s);
    const QCommandLineOption password(
        u"password"_s, u"Also let visitors in with this password (implies --private)."_s, u"PASSWORD"_s);
    const QCommandLineOption spa(u"spa"_s, u"Serve index.html for unknown paths (single-page apps)."_s);
    const QCommandLineOption expires(u"expires"_s,
        u"Take the site offline, as a delete would, after this long: 30m, 24h, 7d; never keeps it."_s, u"TIME"_s);
    const QCommandLineOption update(
        u"update"_s, u"Replace this deployment's content instead of creating one."_s, u"SLUG|ID"_s);
    const QCommandLineOption prepare(u"prepare"_s,
        u"With --update: store the content as a new version without making it live; 'berthd rollback' publishes it."_s);
    const QCommandLineOption yes(u"yes"_s, u"Publish even when the pre-publish checks find something; don't ask."_s);
    const QCommandLineOption watch(
        u"watch"_s, u"Keep watching the folder and redeploy what changes until stopped (Ctrl+C)."_s);
    QCommandLineParser parser;
    if (const auto exit = ClientSession::parse(parser, arguments, u"deploy"_s, u"PATH"_s,
            u"Publish a folder or an .html file to a running Berth and print its address.\n"
            "Hidden files (.git, .DS_Store) and links out of the folder are left out; sizes are checked before "
            "anything is sent."_s,
            {slug, title, description, isPrivate, password, spa, expires, update, prepare, yes, watch}, 1, 1,
            u",\n8 not published: the checks found something and there was no terminal to ask on, nor --yes"_s))
        return *exit;
    if (parser.isSet(watch) && !QFileInfo(parser.positionalArguments().value(0)).isDir())
        return Cli::usageError(u"--watch needs a folder"_s, u"deploy"_s);
    if (parser.isSet(update) && parser.isSet(slug))
        return Cli::usageError(u"--slug names a new site; rename with the API (PATCH /deploy/:id/slug)"_s, u"deploy"_s);
    if (parser.isSet(prepare) && !parser.isSet(update))
        return Cli::usageError(u"--prepare needs --update: a new site is always live"_s, u"deploy"_s);
    if (parser.isSet(prepare)
        && (parser.isSet(isPrivate) || parser.isSet(password) || parser.isSet(expires) || parser.isSet(watch)))
        return Cli::usageError(
            u"--prepare stores content only: change access or expiry, or watch, in another command"_s, u"deploy"_s);
    const auto lifetime = ExpiryRules::parseLifetime(parser.isSet(expires) ? parser.value(expires) : u"never"_s);
    if (!lifetime)
        return Cli::usageError(u"--expires: "_s + lifetime.error().message, u"deploy"_s);

    // Who publishes is said first (an agent of this machine when there is no BERTH_API_KEY); then everything local,
    // from one listing of the folder: what the checks find is shown (and confirmed) and a file over a limit is
    // refused before any content goes out.
    int exit = ExitOk;
    const auto client = ClientSession::connect(parser, &exit);
    if (!client)
        return exit;
    QList<PublishIssue> issues;
    const auto content = SiteFolder::read(parser.positionalArguments().constFirst(), &issues);
    if (const int unconfirmed = PrePublish::confirm(issues, parser.isSet(yes)))
        return unconfirmed;
    if (!content)
        return refusal(content.error());
    QJsonObject body = content.value().fields;
    if (parser.isSet(title))
        body.insert(u"title"_s, parser.value(title));
    if (parser.isSet(description))
        body.insert(u"description"_s, parser.value(description));
    if (parser.isSet(isPrivate) || parser.isSet(password))
        body.insert(u"protect"_s, true);
    if (parser.isSet(password))
        body.insert(u"password"_s, parser.value(password));
    if (parser.isSet(spa))
        body.insert(u"is_spa"_s, true);
    if (parser.isSet(prepare))
        body.insert(u"publish"_s, false);
    if (parser.isSet(expires)) // never: no expiry, also on an update that had one
        body.insert(lifetime.value() ? u"expires_in"_s : u"expires_at"_s,
            lifetime.value() ? QJsonValue(double(*lifetime.value())) : QJsonValue(QJsonValue::Null));

    const bool progress = isatty(fileno(stderr));
    const FolderContent &folder = content.value().folder;
    int sentFiles = folder.fileCount; // content goes only for the files the server lacks (IncrementalUpload)
    QString target = u"/deploy"_s;
    if (parser.isSet(update)) {
        const SiteTarget site = resolveSite(*client, parser.value(update));
        if (site.exit != ExitOk)
            return site.exit;
        target += u'/' + site.id;
    } else if (parser.isSet(slug)) {
        body.insert(u"slug"_s, parser.value(slug));
    }
    const auto sending = IncrementalUpload::send(
        *client, parser.isSet(update) ? "PUT" : "POST", target, body, folder, progress, &sentFiles);
    if (!sending)
        return refusal(sending.error());
    const ApiClient::Reply &reply = sending.value();
    if (reply.status != 200) {
        const int failed = ClientSession::failure(*client, reply);
        if (failed == ExitConflict && parser.isSet(slug))
            err() << "berthd: if that site is yours, replace its content with --update " << parser.value(slug) << "\n";
        return failed;
    }

    const QJsonObject &site = reply.json;
    const bool prepared = site[u"live"_s] == QJsonValue(false);
    out() << (prepared             ? u"Prepared version %1 of "_s.arg(site[u"version"_s].toInteger())
            : parser.isSet(update) ? u"Updated "_s
                                   : u"Published "_s)
          << site[u"slug"_s].toString() << " (" << site[u"id"_s].toString() << "): " << folder.fileCount
          << (folder.fileCount == 1 ? " file, " : " files, ") << sizeText(folder.totalBytes) << "\n"
          << "URL:        " << site[u"url"_s].toString() << "\n";
    if (prepared)
        out() << "Not live:   'berthd rollback " << site[u"slug"_s].toString() << " " << site[u"version"_s].toInteger()
              << "' publishes it\n";
    if (site.contains(u"share_url"_s))
        out() << "Share link: " << site[u"share_url"_s].toString() << "\n";
    if (site.contains(u"expires_at"_s))
        out() << "Expires:    " << site[u"expires_at"_s].toString() << "\n";
    if (const QString as = ClientSession::identityNote(); !as.isEmpty())
        out() << "As:         " << as << "\n";
    out().flush();
    // What the server found worth fixing (lines of _redirects or _headers it skipped, no index.html): published
    // all the same.
    for (const QJsonValue &warning : site[u"warnings"_s].toArray())
        err() << "berthd: warning: " << warning.toString() << "\n";
    if (folder.skippedHidden > 0)
        err() << "berthd: left out " << folder.skippedHidden << " hidden file(s) or folder(s)\n";
    if (const QStringList &links = folder.linksOutside; !links.isEmpty())
        err() << "berthd: left out " << links.size() << " link(s) to outside the folder: " << shownList(links) << "\n";
    err().flush();
    if (sentFiles < folder.fileCount) {
        out() << "Sent " << sentFiles << " of " << folder.fileCount << " files; the server held the rest\n";
        out().flush();
    }
    if (parser.isSet(watch))
        return LiveFolder::run(*client, parser.positionalArguments().constFirst(), site[u"id"_s].toString());
    return ExitOk;
}

int list(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto exit = ClientSession::parse(
            parser, arguments, u"list"_s, QString(), u"Your deployments on a running Berth."_s, {}, 0, 0))
        return *exit;
    int exit = ExitOk;
    const auto client = ClientSession::connect(parser, &exit);
    if (!client)
        return exit;
    const ApiClient::Reply reply = client->request("GET", u"/deploys"_s);
    if (reply.status != 200)
        return ClientSession::failure(*client, reply);
    const QJsonArray deployments = reply.json.value(u"deployments"_s).toArray();
    if (deployments.isEmpty()) {
        out() << "No deployments.\n";
        out().flush();
        return ExitOk;
    }
    QList<QStringList> rows {{u"ID"_s, u"SLUG"_s, u"URL"_s, u"UPDATED"_s, u"TITLE"_s}};
    for (const QJsonValue &deployment : deployments)
        rows.append({deployment[u"id"_s].toString(), deployment[u"slug"_s].toString(), deployment[u"url"_s].toString(),
            deployment[u"updated_at"_s].toString(), deployment[u"title"_s].toString()});
    Cli::printTable(rows);
    return ExitOk;
}

int status(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto exit = ClientSession::parse(
            parser, arguments, u"status"_s, u"ID|SLUG"_s, u"One deployment's address and settings."_s, {}, 1, 1))
        return *exit;
    SiteSession site(parser);
    if (site.exit() != ExitOk)
        return site.exit();
    const ApiClient::Reply reply = site.request("GET", {});
    if (reply.status != 200)
        return site.failure(reply);
    QList<QStringList> rows;
    for (const char *field : {"id", "slug", "url", "share_url", "status", "storage_type", "title", "description",
             "is_spa", "protected", "has_password", "created_at", "updated_at"}) {
        const QJsonValue value = reply.json.value(QLatin1String(field));
        if (value.isUndefined())
            continue;
        rows.append({QLatin1String(field) + u':',
            value.isBool() ? (value.toBool() ? u"yes"_s : u"no"_s) : value.toVariant().toString()});
    }
    for (const QStringList &row : rows)
        out() << row.at(0).leftJustified(14) << row.at(1) << "\n";
    out().flush();
    return ExitOk;
}

int teardown(const QStringList &arguments)
{
    const QCommandLineOption yes(u"yes"_s, u"Do not ask (needed when standard input is not a terminal)."_s);
    QCommandLineParser parser;
    if (const auto exit = ClientSession::parse(parser, arguments, u"teardown"_s, u"ID|SLUG"_s,
            u"Take a site offline and free its address. Asks first."_s, {yes}, 1, 1))
        return *exit;
    const bool interactive = isatty(fileno(stdin));
    if (!parser.isSet(yes) && !interactive)
        return Cli::usageError(
            u"teardown asks before it deletes; standard input is not a terminal, so pass --yes"_s, u"teardown"_s);
    int exit = ExitOk;
    const auto client = ClientSession::connect(parser, &exit);
    if (!client)
        return exit;
    const QString name = parser.positionalArguments().constFirst();
    const SiteTarget target = resolveSite(*client, name);
    if (target.exit != ExitOk)
        return target.exit;
    if (!parser.isSet(yes)) {
        out() << "Take " << name << " offline for good? Its address is freed. [y/N] ";
        out().flush();
        const QString answer = QTextStream(stdin).readLine().trimmed().toLower();
        if (answer != u"y"_s && answer != u"yes"_s) {
            out() << "Nothing deleted.\n";
            out().flush();
            return ExitFailure;
        }
    }
    const ApiClient::Reply reply = client->request("DELETE", u"/deploy/"_s + target.id);
    if (reply.status != 200)
        return ClientSession::failure(*client, reply);
    out() << reply.json.value(u"message"_s).toString() << "\n";
    out().flush();
    return ExitOk;
}

// The address to hand out for a site: a private site's share link (which lets its holder in), else its URL. An
// exit status other than ExitOk when there is none (the reason printed).
int siteLink(const QCommandLineParser &parser, QString *link)
{
    SiteSession site(parser);
    if (site.exit() != ExitOk)
        return site.exit();
    const ApiClient::Reply reply = site.request("GET", {});
    if (reply.status != 200)
        return site.failure(reply);
    *link = reply.json.value(u"share_url"_s).toString(reply.json.value(u"url"_s).toString());
    return ExitOk;
}

int open(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto exit = ClientSession::parse(
            parser, arguments, u"open"_s, u"ID|SLUG"_s, u"Open a site in the web browser (xdg-open)."_s, {}, 1, 1))
        return *exit;
    QString url;
    if (const int exit = siteLink(parser, &url); exit != ExitOk)
        return exit;
    out() << url << "\n";
    out().flush();
    if (!QProcess::startDetached(u"xdg-open"_s, {url}))
        return Cli::failure(u"could not start xdg-open; open the address above yourself"_s);
    return ExitOk;
}

int qr(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto exit = ClientSession::parse(parser, arguments, u"qr"_s, u"ID|SLUG"_s,
            u"Print a QR code of a site's address (a private site's share link) for a phone to scan."_s, {}, 1, 1))
        return *exit;
    QString url;
    if (const int exit = siteLink(parser, &url); exit != ExitOk)
        return exit;
    const auto code = QrCode::encode(url);
    if (!code)
        return Cli::failure(u"the address is too long for a QR code"_s);
    // Light modules are drawn; on a terminal, white on black makes that right on light themes too.
    const bool terminal = isatty(fileno(stdout));
    const QString reset = u"\x1b[0m"_s;
    for (const QString &line : code->toHalfBlocks().split(u'\n', Qt::SkipEmptyParts))
        out() << (terminal ? u"\x1b[97;40m"_s + line + reset : line) << "\n";
    out() << url << "\n";
    out().flush();
    return ExitOk;
}

struct ClientCommand
{
    const char *name;
    int (*run)(const QStringList &arguments);
    const char *summary;
};

const ClientCommand kCommands[] = {
    {"deploy", &deploy, "Publish a folder or .html file to a running Berth."},
    {"list", &list, "Your deployments on a running Berth."},
    {"status", &status, "One deployment's address and settings."},
    {"teardown", &teardown, "Take a site offline (asks unless --yes)."},
    {"open", &open, "Open a site in the browser."},
    {"qr", &qr, "Print a QR code of a site's address."},
    {"versions", &SiteCommands::versions, "A site's kept versions, newest first."},
    {"rollback", &SiteCommands::rollback, "Serve a kept version of a site again."},
    {"rename", &SiteCommands::rename, "Give a site a new slug (and address)."},
    {"protect", &SiteCommands::protect, "Make a site private; print its share link."},
    {"unprotect", &SiteCommands::unprotect, "Make a private site public again."},
    {"links", &LinkCommands::links, "A private site's named share links and their opens."},
    {"link", &LinkCommands::link, "Make a named share link (--label, --expires, --max-opens)."},
    {"unlink", &LinkCommands::unlink, "Revoke one named share link at once."},
    {"submissions", &SubmissionCommands::submissions, "A site's form submissions (--csv, --delete)."},
    {"counters", &SubmissionCommands::counters, "A site's counters and their values."},
    {"stats", &StatsCommand::run, "A site's page views, visitors, top pages and referrers."},
    {"webhooks", &WebhookCommands::webhooks, "Your webhooks: list, add, remove, ping, deliveries, enable."},
    {"domains", &DomainCommands::domains, "A site's custom domains: list, add, remove."},
    {"mcp", &McpProxy::run, "MCP on stdin/stdout for desktop AI clients."},
};

} // namespace

std::optional<int> runClientCommand(const QStringList &arguments)
{
    const QString name = arguments.value(1);
    for (const ClientCommand &command : kCommands) {
        if (name == QLatin1String(command.name))
            return command.run(QStringList {arguments.value(0)} + arguments.mid(2));
    }
    return std::nullopt;
}

QString clientCommandsOverview()
{
    QString overview;
    for (const ClientCommand &command : kCommands)
        overview
            += u"  "_s + QString::fromLatin1(command.name).leftJustified(20) + QLatin1String(command.summary) + u'\n';
    return overview;
}

} // namespace berth
