#pragma once

#include <QDateTime>
#include <QString>

namespace berth {

// How the dashboard writes a moment: today's by time alone, older ones by date and time, in the
// locale's short forms; the long form for tooltips.
namespace TimeText {
QString brief(const QDateTime &utc);
QString full(const QDateTime &utc);
} // namespace TimeText

} // namespace berth
