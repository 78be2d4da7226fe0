// A POST /_submit body (first input line: the Content-Type, the rest: the body) read by SubmissionBody::parse, and
// what it accepts written out by the CSV export the owner downloads. Checks: a refusal is a 400 with a message;
// every urlencoded name arrives as a field; a multipart body with a file part is refused; the CSV is exactly a
// header record and one row with a cell for every field, whatever quotes, commas and line breaks the values hold.
#include "fuzzcheck.h"

#include <QStringList>
#include <domain/visitors/submissionscsv.h>
#include <http/formencoding.h>
#include <site/submissionbody.h>

using namespace berth;
using berth::fuzz::check;

namespace {

// A strict RFC 4180 reader: the records of a CSV text ending in CRLF, or an empty list when it is malformed.
QList<QList<QByteArray>> readCsv(const QByteArray &csv)
{
    QList<QList<QByteArray>> records;
    QList<QByteArray> record;
    QByteArray cell;
    qsizetype i = 0;
    while (i < csv.size()) {
        if (csv.at(i) == '"') {
            for (++i;; ++i) {
                if (i >= csv.size())
                    return {};
                if (csv.at(i) == '"') {
                    if (i + 1 < csv.size() && csv.at(i + 1) == '"') {
                        cell += '"';
                        ++i;
                    } else {
                        ++i;
                        break;
                    }
                } else {
                    cell += csv.at(i);
                }
            }
        } else {
            while (i < csv.size() && csv.at(i) != ',' && csv.at(i) != '\r' && csv.at(i) != '\n' && csv.at(i) != '"')
                cell += csv.at(i++);
        }
        if (i < csv.size() && csv.at(i) == ',') {
            record << cell;
            cell.clear();
            ++i;
        } else if (csv.sliced(i).startsWith("\r\n")) {
            record << cell;
            records << record;
            cell.clear();
            record.clear();
            i += 2;
        } else {
            return {};
        }
    }
    return record.isEmpty() && cell.isEmpty() ? records : QList<QList<QByteArray>>();
}

void checkCsv(const QJsonObject &fields)
{
    Submission submission;
    submission.id = QStringLiteral("sub_fuzz");
    submission.deploymentId = QStringLiteral("dep_fuzz");
    submission.data = fields;
    submission.createdAt = QDateTime::fromSecsSinceEpoch(1795000000, Qt::UTC);
    const QList<QList<QByteArray>> records = readCsv(SubmissionsCsv::write({submission}));
    check(records.size() == 2);
    // A column per field up to the cap; past it, one "omitted_fields" column counts the rest.
    const qsizetype fieldColumns = qMin<qsizetype>(fields.size(), SubmissionsCsv::kMaxFieldColumns);
    const qsizetype columns = 2 + fieldColumns + (fields.size() > SubmissionsCsv::kMaxFieldColumns ? 1 : 0);
    check(records.at(0).size() == columns && records.at(1).size() == records.at(0).size());
    check(records.at(0).at(0) == "id" && records.at(0).at(1) == "created_at");
    check(records.at(1).at(0) == "sub_fuzz");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto [contentType, body] = fuzz::splitFirstLine(fuzz::bytes(data, size));
    const Result<SubmissionBody> parsed = SubmissionBody::parse(contentType, body);
    if (!parsed) {
        check(parsed.error().kind == Error::Kind::BadRequest && !parsed.error().message.isEmpty());
        return 0;
    }
    const QJsonObject &fields = parsed.value().fields;
    const QByteArray mediaType = contentType.split(';').constFirst().trimmed().toLower();
    check(parsed.value().isJson == (mediaType == "application/json"));
    if (mediaType == "application/x-www-form-urlencoded") {
        for (const auto &[name, value] : parseUrlEncoded(body))
            check(fields.contains(name));
    }
    checkCsv(fields);
    return 0;
}
