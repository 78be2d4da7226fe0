#include "submissionscsv.h"

#include "domain/clock.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace berth::SubmissionsCsv {

namespace {

const QStringList kFixedColumns = {u"id"_s, u"created_at"_s};

QString cellText(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return value.toString();
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return {};
    case QJsonValue::Array:
    case QJsonValue::Object:
    case QJsonValue::Bool:
    case QJsonValue::Double:
        break;
    }
    // A one-element array is the shortest way to get QtCore's JSON spelling of any value.
    const QByteArray json = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

QByteArray quoted(const QString &text)
{
    QByteArray bytes = text.toUtf8();
    if (!bytes.contains(',') && !bytes.contains('"') && !bytes.contains('\n') && !bytes.contains('\r'))
        return bytes;
    bytes.replace('"', "\"\"");
    return '"' + bytes + '"';
}

void appendRow(QByteArray &csv, const QStringList &cells)
{
    for (qsizetype i = 0; i < cells.size(); ++i) {
        if (i > 0)
            csv += ',';
        csv += quoted(cells.at(i));
    }
    csv += "\r\n";
}

} // namespace

QByteArray write(const QList<Submission> &submissions)
{
    QStringList fields;
    for (const Submission &submission : submissions) {
        for (auto it = submission.data.constBegin(); it != submission.data.constEnd(); ++it) {
            if (!fields.contains(it.key()))
                fields.append(it.key());
        }
    }
    QStringList header = kFixedColumns;
    for (const QString &field : std::as_const(fields))
        header.append(kFixedColumns.contains(field) ? u"data."_s + field : field);

    QByteArray csv;
    appendRow(csv, header);
    for (const Submission &submission : submissions) {
        QStringList row{submission.id, isoTimestamp(submission.createdAt)};
        for (const QString &field : std::as_const(fields))
            row.append(cellText(submission.data.value(field)));
        appendRow(csv, row);
    }
    return csv;
}

} // namespace berth::SubmissionsCsv
