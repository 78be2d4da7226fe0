#include "ui/widgets/timetext.h"

#include <QCoreApplication>
#include <QLocale>

namespace berth::TimeText {

QString brief(const QDateTime &utc)
{
    const QLocale locale;
    const QDateTime local = utc.toLocalTime();
    const QString time = locale.toString(local.time(), QLocale::ShortFormat);
    if (local.date() == QDate::currentDate())
        return time;
    return locale.toString(local.date(), QLocale::ShortFormat) + u' ' + time;
}

QString full(const QDateTime &utc)
{
    return QLocale().toString(utc.toLocalTime(), QLocale::LongFormat);
}

QString relative(const QDateTime &utc, const QDateTime &now)
{
    constexpr qint64 kMinute = 60;
    constexpr qint64 kHour = 60 * kMinute;
    constexpr qint64 kDay = 24 * kHour;
    const qint64 seconds = now.secsTo(utc);
    const qint64 distance = qAbs(seconds);
    const bool future = seconds > 0;
    // Each text whole, so that lupdate finds it and a language can word past and future its own way.
    if (distance < 45) {
        return future ? QCoreApplication::translate("berth::TimeText", "in a few seconds")
                      : QCoreApplication::translate("berth::TimeText", "just now");
    }
    if (distance < kHour) {
        const int n = int(qMax<qint64>(1, (distance + kMinute / 2) / kMinute));
        return future ? QCoreApplication::translate("berth::TimeText", "in %n minute(s)", nullptr, n)
                      : QCoreApplication::translate("berth::TimeText", "%n minute(s) ago", nullptr, n);
    }
    if (distance < kDay) {
        const int n = int((distance + kHour / 2) / kHour);
        return future ? QCoreApplication::translate("berth::TimeText", "in %n hour(s)", nullptr, n)
                      : QCoreApplication::translate("berth::TimeText", "%n hour(s) ago", nullptr, n);
    }
    const int n = int((distance + kDay / 2) / kDay);
    return future ? QCoreApplication::translate("berth::TimeText", "in %n day(s)", nullptr, n)
                  : QCoreApplication::translate("berth::TimeText", "%n day(s) ago", nullptr, n);
}

} // namespace berth::TimeText
