#pragma once

#include "storage/submission.h"

#include <QByteArray>
#include <QList>

namespace berth::SubmissionsCsv {

// RFC 4180 CSV, UTF-8, CRLF line ends: a header row "id,created_at,<field>,..." with a column for every field
// any of the submissions has (in order of first appearance), then one row per submission in the given order.
// A field named like a fixed column is headed "data.<name>". Strings are written as they are; other JSON values
// (numbers, booleans, arrays, objects) as compact JSON; a missing field or null as an empty cell.
QByteArray write(const QList<Submission> &submissions);

} // namespace berth::SubmissionsCsv
