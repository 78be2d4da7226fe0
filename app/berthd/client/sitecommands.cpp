#include "app/berthd/client/sitecommands.h"

#include "app/berthd/cli.h"
#include "app/berthd/client/sitesession.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth::SiteCommands {

namespace {

using Cli::out;

const QString kSite = u"SLUG|ID"_s;

// "my-site (dep_...)": the site an answer of the API names.
QString named(const QJsonObject &site)
{
    return site[u"slug"_s].toString() + u" ("_s + site[u"id"_s].toString() + u')';
}

// The addresses of a site after a change: its URL, and a private site's share link.
void printAddresses(const QJsonObject &site)
{
    out() << "URL:        " << site[u"url"_s].toString() << "\n";
    if (site.contains(u"share_url"_s))
        out() << "Share link: " << site[u"share_url"_s].toString() << "\n";
}

void printVersions(const QJsonObject &answer)
{
    SiteSession::printRows(answer[u"versions"_s].toArray(), "No versions kept.",
        {u"VERSION"_s, u"CREATED"_s, u"FILES"_s, u"SIZE"_s, u"LIVE"_s, u"TITLE"_s}, [](const QJsonValue &version) {
            return QStringList {QString::number(version[u"version"_s].toInteger()), version[u"created_at"_s].toString(),
                QString::number(version[u"file_count"_s].toInteger()), sizeText(version[u"total_size"_s].toInteger()),
                version[u"live"_s].toBool() ? u"yes"_s : u"no"_s, version[u"title"_s].toString()};
        });
}

} // namespace

int versions(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"versions"_s, kSite,
            u"The versions a site keeps, newest first; 'berthd rollback' serves one of them again."_s, {}, 1))
        return *exit;
    return SiteSession::call(parser, "GET", u"/versions"_s, std::nullopt, printVersions);
}

int rollback(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"rollback"_s, kSite + u" NUMBER"_s,
            u"Serve a kept version of a site again (NUMBER as 'berthd versions' lists it)."_s, {}, 2))
        return *exit;
    bool isNumber = false;
    const QString text = parser.positionalArguments().at(1);
    const int number = text.toInt(&isNumber);
    if (!isNumber || number < 1)
        return Cli::usageError(
            u"NUMBER is a version number as 'berthd versions' lists it, not '%1'"_s.arg(text), u"rollback"_s);
    return SiteSession::call(
        parser, "POST", u"/rollback"_s, QJsonObject {{u"version"_s, number}}, [number](const QJsonObject &site) {
            out() << "Rolled back " << named(site) << " to version " << number << "\n";
            printAddresses(site);
        });
}

int rename(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"rename"_s, kSite + u" NEW-SLUG"_s,
            u"Give a site a new slug: its new address works at once, the old one stops and is free for others."_s, {},
            2))
        return *exit;
    const QString name = parser.positionalArguments().at(0);
    const int exit = SiteSession::call(parser, "PATCH", u"/slug"_s,
        QJsonObject {{u"slug"_s, parser.positionalArguments().at(1)}}, [&name](const QJsonObject &site) {
            out() << "Renamed " << name << " to " << named(site) << "\n";
            printAddresses(site);
        });
    if (exit == ExitConflict) {
        Cli::err() << "berthd: nothing changed: " << name << " keeps its address; choose another slug.\n";
        Cli::err().flush();
    }
    return exit;
}

int protect(const QStringList &arguments)
{
    const QCommandLineOption password(
        u"password"_s, u"Also let visitors in who type this password (a gate page asks for it)."_s, u"PASSWORD"_s);
    const QCommandLineOption removePassword(
        u"remove-password"_s, u"Drop the password: only the share link lets visitors in."_s);
    const QCommandLineOption newLink(u"new-link"_s, u"Make a new share link; the old one stops working."_s);
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"protect"_s, kSite,
            u"Make a site private: visitors need its share link (or the password, when it has one);\n"
            "others get 403. Prints the share link."_s,
            {password, removePassword, newLink}, 1))
        return *exit;
    if (parser.isSet(password) && parser.isSet(removePassword))
        return Cli::usageError(u"--password and --remove-password exclude each other"_s, u"protect"_s);
    QJsonObject body {{u"protect"_s, true}};
    if (parser.isSet(password))
        body.insert(u"password"_s, parser.value(password));
    if (parser.isSet(removePassword))
        body.insert(u"remove_password"_s, true);
    if (parser.isSet(newLink))
        body.insert(u"rotate_share_link"_s, true);
    return SiteSession::call(parser, "PUT", QString(), body, [&](const QJsonObject &site) {
        out() << "Private: " << named(site) << "\n";
        printAddresses(site);
        if (parser.isSet(password))
            out() << "Password:   set; visitors without the link can type it\n";
        if (parser.isSet(removePassword))
            out() << "Password:   removed; only the share link lets visitors in\n";
    });
}

int unprotect(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"unprotect"_s, kSite,
            u"Make a private site public again: its share link and password are dropped."_s, {}, 1))
        return *exit;
    return SiteSession::call(
        parser, "PUT", QString(), QJsonObject {{u"protect"_s, false}}, [](const QJsonObject &site) {
            out() << "Public: " << named(site) << "\n";
            printAddresses(site);
        });
}

} // namespace berth::SiteCommands
