#include "timestamps.h"

using namespace Qt::StringLiterals;

namespace berth {

QString toStorageTime(const QDateTime &time)
{
    if (!time.isValid())
        return {};
    return time.toUTC().toString(u"yyyy-MM-dd'T'HH:mm:ss.zzz'Z'"_s);
}

QDateTime fromStorageTime(const QString &text)
{
    if (text.isEmpty())
        return {};
    // ISODateWithMs also accepts rows written without milliseconds; the Z makes the result UTC.
    const QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    return time.isValid() ? time.toUTC() : QDateTime();
}

} // namespace berth
