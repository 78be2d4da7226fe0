#include "app/berthd/client/statscommand.h"

#include "app/berthd/cli.h"
#include "app/berthd/client/sitesession.h"

#include <QDate>
#include <QDateTime>

using namespace Qt::StringLiterals;

namespace berth::StatsCommand {

namespace {

using Cli::out;

constexpr int kDefaultDays = 30;
constexpr int kMaxDays = 400; // the API's longest span
constexpr int kShownEntries = 10; // of each list
constexpr int kBarWidth = 40; // characters of the longest bar

// One day's bar: eighths of a block, so that small counts still show.
QString bar(qint64 value, qint64 peak)
{
    static const QString kEighths[] = {u""_s, u"▏"_s, u"▎"_s, u"▍"_s, u"▌"_s, u"▋"_s, u"▊"_s, u"▉"_s};
    if (peak <= 0 || value <= 0)
        return {};
    const qint64 eighths = qMax<qint64>(1, value * kBarWidth * 8 / peak);
    return QString(int(eighths / 8), u'█') + kEighths[eighths % 8];
}

void printList(const QJsonArray &entries, const char *title, const QString &nameKey, const QString &countKey)
{
    if (entries.isEmpty())
        return;
    out() << "\n" << title << "\n";
    for (qsizetype i = 0; i < qMin<qsizetype>(entries.size(), kShownEntries); ++i) {
        const QJsonObject entry = entries.at(i).toObject();
        out() << u"  %1  %2\n"_s.arg(entry[countKey].toInteger(), 7).arg(entry[nameKey].toString());
    }
}

void print(const QJsonObject &answer)
{
    const QJsonObject totals = answer[u"totals"_s].toObject();
    out() << answer[u"slug"_s].toString() << ", " << answer[u"from"_s].toString() << " to "
          << answer[u"to"_s].toString() << "\n";
    out() << "Views " << totals[u"views"_s].toInteger() << ", visitors " << totals[u"visitors"_s].toInteger()
          << ", 404s " << totals[u"not_found"_s].toInteger() << ", sent " << sizeText(totals[u"bytes"_s].toInteger())
          << "\n\nViews per day\n";
    const QJsonArray days = answer[u"days"_s].toArray();
    qint64 peak = 0;
    for (const QJsonValue &day : days)
        peak = qMax(peak, day[u"views"_s].toInteger());
    for (const QJsonValue &day : days) {
        const qint64 views = day[u"views"_s].toInteger();
        QString line = u"  %1 %2 %3"_s.arg(day[u"date"_s].toString()).arg(views, 7).arg(bar(views, peak));
        while (line.endsWith(u' ')) // a day without views has no bar
            line.chop(1);
        out() << line << "\n";
    }
    printList(answer[u"pages"_s].toArray(), "Top pages", u"path"_s, u"views"_s);
    printList(answer[u"referrers"_s].toArray(), "Referrers", u"host"_s, u"views"_s);
    printList(answer[u"not_found"_s].toArray(), "Not found", u"path"_s, u"hits"_s);
}

} // namespace

int run(const QStringList &arguments)
{
    const QCommandLineOption days(u"days"_s,
        u"The last N days, today (UTC) included; 1 to %1, default %2."_s.arg(kMaxDays).arg(kDefaultDays), u"N"_s);
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"stats"_s, u"SLUG|ID"_s,
            u"A site's page views and visitors per day, its top pages, referrers and 404s."_s, {days}, 1))
        return *exit;
    int count = kDefaultDays;
    if (parser.isSet(days)) {
        bool ok = false;
        count = parser.value(days).toInt(&ok);
        if (!ok || count < 1 || count > kMaxDays)
            return Cli::usageError(u"--days must be a number from 1 to %1"_s.arg(kMaxDays), u"stats"_s);
    }
    SiteSession site(parser);
    if (site.exit() != ExitOk)
        return site.exit();
    const QDate today = QDateTime::currentDateTimeUtc().date();
    const QString query
        = u"from=%1&to=%2"_s.arg(today.addDays(1 - count).toString(Qt::ISODate), today.toString(Qt::ISODate));
    const ApiClient::Reply reply = site.request("GET", u"/analytics"_s, std::nullopt, query);
    return site.finish(reply, print);
}

} // namespace berth::StatsCommand
