#include "timetext.h"

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

} // namespace berth::TimeText
