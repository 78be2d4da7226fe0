#include "app/berthd/client/linkcommands.h"

#include "app/berthd/cli.h"
#include "app/berthd/client/sitesession.h"
#include "domain/deploy/expiryrules.h"

using namespace Qt::StringLiterals;

namespace berth::LinkCommands {

namespace {

using Cli::out;

const QString kSite = u"SLUG|ID"_s;

QString orDash(const QJsonValue &value)
{
    if (value.isNull() || value.isUndefined())
        return u"-"_s;
    return value.isDouble() ? QString::number(value.toInteger()) : value.toString();
}

void printLinks(const QJsonObject &answer)
{
    SiteSession::printRows(answer[u"links"_s].toArray(), "No share links.",
        {u"ID"_s, u"STATUS"_s, u"OPENS"_s, u"LAST OPENED"_s, u"EXPIRES"_s, u"LABEL"_s}, [](const QJsonValue &link) {
            QString opens = QString::number(link[u"opens"_s].toInteger());
            if (!link[u"max_opens"_s].isNull())
                opens += u'/' + orDash(link[u"max_opens"_s]);
            return QStringList {link[u"id"_s].toString(), link[u"status"_s].toString(), opens,
                orDash(link[u"last_opened_at"_s]), orDash(link[u"expires_at"_s]), link[u"label"_s].toString()};
        });
    if (answer.contains(u"share_url"_s))
        out() << "The site's own share link: " << answer[u"share_url"_s].toString() << "\n";
}

} // namespace

int links(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"links"_s, kSite,
            u"A private site's named share links: their opens, last open, expiry and status.\n"
            "'berthd link' makes one, 'berthd unlink' revokes one."_s,
            {}, 1))
        return *exit;
    return SiteSession::call(parser, "GET", u"/links"_s, std::nullopt, printLinks);
}

int link(const QStringList &arguments)
{
    const QCommandLineOption label(u"label"_s, u"Whom or what the link is for, e.g. \"Client review\"."_s, u"TEXT"_s);
    const QCommandLineOption expires(
        u"expires"_s, u"The link stops working after this long: 30m, 24h, 7d; never (the default)."_s, u"TIME"_s);
    const QCommandLineOption maxOpens(u"max-opens"_s, u"How many times the link may be opened."_s, u"N"_s);
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"link"_s, kSite,
            u"Make a named share link to a private site and print it (its address is shown this once).\n"
            "Each link can be revoked alone; its opens are counted."_s,
            {label, expires, maxOpens}, 1))
        return *exit;
    QJsonObject body;
    if (parser.isSet(label))
        body.insert(u"label"_s, parser.value(label));
    const auto lifetime = ExpiryRules::parseLifetime(parser.isSet(expires) ? parser.value(expires) : u"never"_s);
    if (!lifetime)
        return Cli::usageError(u"--expires: "_s + lifetime.error().message, u"link"_s);
    if (lifetime.value())
        body.insert(u"expires_in"_s, *lifetime.value());
    if (parser.isSet(maxOpens)) {
        bool ok = false;
        const int count = parser.value(maxOpens).toInt(&ok);
        if (!ok || count < 1)
            return Cli::usageError(
                u"--max-opens is a whole number from 1, not '%1'"_s.arg(parser.value(maxOpens)), u"link"_s);
        body.insert(u"max_opens"_s, count);
    }
    return SiteSession::call(parser, "POST", u"/links"_s, body, [](const QJsonObject &made) {
        out() << "Share link " << made[u"id"_s].toString();
        if (!made[u"label"_s].toString().isEmpty())
            out() << " (" << made[u"label"_s].toString() << ")";
        out() << ":\n" << made[u"url"_s].toString() << "\n";
        if (!made[u"expires_at"_s].isNull())
            out() << "Expires:    " << made[u"expires_at"_s].toString() << "\n";
        if (!made[u"max_opens"_s].isNull())
            out() << "Max opens:  " << made[u"max_opens"_s].toInteger() << "\n";
        out() << "The address is shown only now; 'berthd unlink' revokes it.\n";
    });
}

int unlink(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"unlink"_s, kSite + u" LINK-ID"_s,
            u"Revoke a named share link at once, also for visitors who already opened it."_s, {}, 2))
        return *exit;
    const QString id = parser.positionalArguments().at(1);
    return SiteSession::call(parser, "DELETE", u"/links/"_s + QString::fromLatin1(QUrl::toPercentEncoding(id)),
        std::nullopt, [](const QJsonObject &revoked) {
            out() << "Revoked " << revoked[u"id"_s].toString() << "; it opens the site for nobody any more.\n";
        });
}

} // namespace berth::LinkCommands
