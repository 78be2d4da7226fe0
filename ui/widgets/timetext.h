#pragma once

#include <QDateTime>
#include <QString>

namespace berth {

// How the dashboard writes a moment: today's by time alone, older ones by date and time, in the
// locale's short forms; the long form for tooltips.
namespace TimeText {
QString brief(const QDateTime &utc);
QString full(const QDateTime &utc);
// How far the moment is from now, in words: "in 8 minutes", "2 minutes ago", "just now".
QString relative(const QDateTime &utc, const QDateTime &now);
} // namespace TimeText

} // namespace berth
