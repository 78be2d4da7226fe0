#pragma once

#include "core/error.h"
#include "storage/submission.h"
#include "storage/user.h"

#include <QByteArray>
#include <QFuture>
#include <QList>
#include <optional>

QT_BEGIN_NAMESPACE
class QThreadPool;
QT_END_NAMESPACE

namespace berth {
class SubmissionService;
}

// The CSV export of a deployment's form submissions, one implementation for the API and the dashboard.
namespace berth::SubmissionsCsv {

// Distinct field columns an export holds at most; fields beyond are left out and counted (see write()).
constexpr int kMaxFieldColumns = 500;

// RFC 4180 CSV, UTF-8, CRLF line ends: a header row "id,created_at,<field>,..." with a column for every field any of
// the submissions has (in order of first appearance), then one row per submission in the given order.
// - A field named like a fixed column (id, created_at, omitted_fields) or starting with "data." is headed
//   "data.<name>", so every column name is unique.
// - Past kMaxFieldColumns fields, later fields are left out and a last column "omitted_fields" gives, per row, how
//   many of its fields were left out.
// - Strings are written as they are, except that a cell or field name starting with =, +, -, @, tab or CR gets a
//   leading ' so that a spreadsheet shows it as text instead of running it as a formula. Other JSON values (numbers,
//   booleans, arrays, objects) are written as compact JSON; a missing field or null as an empty cell.
// Linear in rows x columns plus the size of the data. Pure: safe on any thread.
QByteArray write(const QList<Submission> &submissions);

// The submissions an export holds: every stored one without limit and before, else that one page. Reads the
// database, so it runs on the thread that owns it (the engine's).
Result<QList<Submission>> collect(const SubmissionService &service, const User &owner, const QString &deploymentId,
    std::optional<int> limit = std::nullopt, const QString &before = {});

// collect() on the calling thread, then write() on one of the pool's threads: the formatting of a large export
// never holds up the caller's thread.
QFuture<Result<QByteArray>> exportAsync(const SubmissionService &service, QThreadPool &pool, const User &owner,
    const QString &deploymentId, std::optional<int> limit = std::nullopt, const QString &before = {});

} // namespace berth::SubmissionsCsv
