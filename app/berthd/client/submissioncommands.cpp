#include "app/berthd/client/submissioncommands.h"

#include "app/berthd/cli.h"
#include "app/berthd/client/sitesession.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace berth::SubmissionCommands {

namespace {

using Cli::out;

constexpr qsizetype kShownValue = 60; // characters of a submission's data shown in the table

// A value of a submission that is no string (a visitor's JSON may send numbers, lists) as compact JSON.
QString compactJson(const QJsonValue &value)
{
    const QByteArray list = QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(list.mid(1, list.size() - 2)); // without the list's brackets
}

// A submission's fields on one line: "email=ada@example.com; message=Hello", cut to fit a table.
QString dataLine(const QJsonObject &data)
{
    QStringList fields;
    for (auto field = data.begin(); field != data.end(); ++field) {
        const QString value = field->isString() ? field->toString() : compactJson(*field);
        fields.append(field.key() + u'=' + value.simplified());
    }
    const QString line = fields.join(u"; "_s);
    return line.size() > kShownValue ? line.left(kShownValue - 3) + u"..."_s : line;
}

void printSubmissions(const QJsonObject &answer)
{
    const QJsonArray submissions = answer[u"submissions"_s].toArray();
    SiteSession::printRows(
        submissions, "No submissions.", {u"ID"_s, u"RECEIVED"_s, u"DATA"_s}, [](const QJsonValue &submission) {
            return QStringList {submission[u"id"_s].toString(), submission[u"created_at"_s].toString(),
                dataLine(submission[u"data"_s].toObject())};
        });
    if (const qint64 total = answer[u"total"_s].toInteger(); total > submissions.size())
        out() << "The newest " << submissions.size() << " of " << total << " shown; --csv exports them all.\n";
}

void printCounters(const QJsonObject &answer)
{
    SiteSession::printRows(answer[u"counters"_s].toArray(), "No counters.", {u"NAME"_s, u"VALUE"_s, u"UPDATED"_s},
        [](const QJsonValue &counter) {
            return QStringList {counter[u"name"_s].toString(), QString::number(counter[u"value"_s].toInteger()),
                counter[u"updated_at"_s].toString()};
        });
}

// DELETE /deploy/:id/<collection>/<the option's value>; prints the API's message and what went.
int removeOne(
    const QCommandLineParser &parser, const QCommandLineOption &option, const QString &collection, const QString &key)
{
    return SiteSession::call(parser, "DELETE", u'/' + collection + u'/' + parser.value(option), std::nullopt,
        [&key](const QJsonObject &answer) {
            out() << answer[u"message"_s].toString() << ": " << answer[key].toString() << "\n";
        });
}

// The submissions as the API's CSV export (every one of them), as it came.
int exportCsv(const QCommandLineParser &parser)
{
    SiteSession site(parser);
    if (site.exit() != ExitOk)
        return site.exit();
    const ApiClient::Reply reply = site.request("GET", u"/submissions"_s, std::nullopt, u"format=csv"_s);
    return site.finish(reply, [&reply](const QJsonObject &) { SiteSession::printBody(reply); });
}

} // namespace

int submissions(const QStringList &arguments)
{
    const QCommandLineOption csv(u"csv"_s, u"Print all of them as CSV (a column a field), for a spreadsheet."_s);
    const QCommandLineOption remove(u"delete"_s, u"Delete this submission (its ID as listed)."_s, u"SUBMISSION-ID"_s);
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"submissions"_s, u"SLUG|ID"_s,
            u"What visitors sent through a site's forms (POST /_submit), newest first."_s, {csv, remove}, 1))
        return *exit;
    if (parser.isSet(csv) && (parser.isSet(remove) || parser.isSet(SiteSession::jsonOption())))
        return Cli::usageError(u"--csv goes alone: not with --delete or --json"_s, u"submissions"_s);
    if (parser.isSet(csv))
        return exportCsv(parser);
    if (parser.isSet(remove))
        return removeOne(parser, remove, u"submissions"_s, u"id"_s);
    return SiteSession::call(parser, "GET", u"/submissions"_s, std::nullopt, printSubmissions);
}

int counters(const QStringList &arguments)
{
    const QCommandLineOption remove(u"delete"_s, u"Delete this counter and its value."_s, u"NAME"_s);
    QCommandLineParser parser;
    if (const auto exit = SiteSession::parse(parser, arguments, u"counters"_s, u"SLUG|ID"_s,
            u"A site's counters (/_counter/NAME) and their values."_s, {remove}, 1))
        return *exit;
    if (parser.isSet(remove))
        return removeOne(parser, remove, u"counters"_s, u"name"_s);
    return SiteSession::call(parser, "GET", u"/counters"_s, std::nullopt, printCounters);
}

} // namespace berth::SubmissionCommands
