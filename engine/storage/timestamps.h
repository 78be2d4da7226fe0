#pragma once

#include <QDateTime>
#include <QString>

namespace berth {

// Timestamps are stored as ISO 8601 UTC with milliseconds and a trailing Z ("2024-05-01T12:30:00.250Z"), so that
// they sort as text in chronological order. A null QDateTime maps to a null QString (SQL NULL) and back.
QString toStorageTime(const QDateTime &time);
QDateTime fromStorageTime(const QString &text);

} // namespace berth
