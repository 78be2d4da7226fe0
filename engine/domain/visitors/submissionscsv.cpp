#include "domain/visitors/submissionscsv.h"

#include "domain/common/clock.h"
#include "domain/visitors/submissionservice.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QThreadPool>
#include <QtConcurrent>

using namespace Qt::StringLiterals;

namespace berth::SubmissionsCsv {

namespace {

const QString kOmittedColumn = u"omitted_fields"_s;

bool isFixedColumn(const QString &name)
{
    return name == u"id" || name == u"created_at" || name == kOmittedColumn;
}

// A field's column name: unique, never one of the fixed ones.
QString columnName(const QString &field)
{
    return isFixedColumn(field) || field.startsWith(u"data."_s) ? u"data."_s + field : field;
}

// Text a spreadsheet would run as a formula (or that starts a field separator in some of them) is made text.
bool looksLikeFormula(const QString &text)
{
    if (text.isEmpty())
        return false;
    const QChar c = text.front();
    return c == u'=' || c == u'+' || c == u'-' || c == u'@' || c == u'\t' || c == u'\r';
}

QString userText(const QString &text)
{
    return looksLikeFormula(text) ? u"'"_s + text : text;
}

QString cellText(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return userText(value.toString());
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return {};
    case QJsonValue::Double: // a number's JSON spelling is never a formula, even when negative
        break;
    case QJsonValue::Array:
    case QJsonValue::Object:
    case QJsonValue::Bool:
        break;
    }
    // A one-element array is the shortest way to get QtCore's JSON spelling of any value.
    const QByteArray json = QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

void appendCell(QByteArray &csv, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    if (!bytes.contains(',') && !bytes.contains('"') && !bytes.contains('\n') && !bytes.contains('\r')) {
        csv += bytes;
        return;
    }
    csv += '"';
    for (const char c : bytes) {
        if (c == '"')
            csv += '"';
        csv += c;
    }
    csv += '"';
}

void appendRow(QByteArray &csv, const QStringList &cells)
{
    for (qsizetype i = 0; i < cells.size(); ++i) {
        if (i > 0)
            csv += ',';
        appendCell(csv, cells.at(i));
    }
    csv += "\r\n";
}

} // namespace

QByteArray write(const QList<Submission> &submissions)
{
    // Field -> column index, in order of first appearance (each row's fields in the order its form sent them, as
    // the dashboard's table has them): one hash look-up per stored field.
    QHash<QString, qsizetype> columnOf;
    QStringList fields;
    bool capped = false;
    for (const Submission &submission : submissions) {
        for (const QString &field : submission.fields()) {
            if (columnOf.contains(field))
                continue;
            if (fields.size() >= kMaxFieldColumns) {
                capped = true;
                continue;
            }
            columnOf.insert(field, fields.size());
            fields.append(field);
        }
    }

    QStringList header {u"id"_s, u"created_at"_s};
    for (const QString &field : std::as_const(fields))
        header.append(userText(columnName(field)));
    if (capped)
        header.append(kOmittedColumn);

    QByteArray csv;
    appendRow(csv, header);
    QStringList row;
    for (const Submission &submission : submissions) {
        row.fill(QString(), header.size());
        row[0] = submission.id;
        row[1] = isoTimestamp(submission.createdAt);
        int omitted = 0;
        for (auto it = submission.data.constBegin(); it != submission.data.constEnd(); ++it) {
            const auto column = columnOf.constFind(it.key());
            if (column == columnOf.constEnd())
                ++omitted;
            else
                row[2 + *column] = cellText(it.value());
        }
        if (capped)
            row.last() = QString::number(omitted);
        appendRow(csv, row);
    }
    return csv;
}

Result<QList<Submission>> collect(const SubmissionService &service, const User &owner, const QString &deploymentId,
    std::optional<int> limit, const QString &before)
{
    // Without a limit or a starting point, the export holds every stored submission: page through them all.
    const bool everything = !limit && before.isEmpty();
    QList<Submission> rows;
    QString next = before;
    do {
        const auto page = service.list(owner, deploymentId,
            everything ? SubmissionService::kMaxPageSize : limit.value_or(SubmissionService::kDefaultPageSize), next);
        if (!page)
            return page.error();
        rows += page.value().submissions;
        next = page.value().nextBefore;
    } while (everything && !next.isEmpty());
    return rows;
}

QFuture<Result<QByteArray>> exportAsync(const SubmissionService &service, QThreadPool &pool, const User &owner,
    const QString &deploymentId, std::optional<int> limit, const QString &before)
{
    Result<QList<Submission>> rows = collect(service, owner, deploymentId, limit, before);
    if (!rows)
        return QtFuture::makeReadyFuture(Result<QByteArray>(rows.error()));
    return QtConcurrent::run(&pool, [rows = std::move(rows).value()]() -> Result<QByteArray> { return write(rows); });
}

} // namespace berth::SubmissionsCsv
