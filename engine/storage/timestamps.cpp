#include "storage/timestamps.h"

using namespace Qt::StringLiterals;

namespace berth {

QString toStorageTime(const QDateTime &time)
{
    if (!time.isValid())
        return {};
    return time.toUTC().toString(u"yyyy-MM-dd'T'HH:mm:ss.zzz'Z'"_s);
}

namespace {

// The digits text[from, from + count) as a number; -1 when one is not a digit.
int digits(const QString &text, int from, int count)
{
    int value = 0;
    for (int i = from; i < from + count; ++i) {
        const char16_t c = text.at(i).unicode();
        if (c < u'0' || c > u'9')
            return -1;
        value = value * 10 + (c - u'0');
    }
    return value;
}

// What toStorageTime writes, "yyyy-MM-ddTHH:mm:ss.zzzZ", read without the general parser: listings read two per row.
QDateTime fromExactStorageTime(const QString &text)
{
    if (text.size() != 24 || text.at(4) != u'-' || text.at(7) != u'-' || text.at(10) != u'T' || text.at(13) != u':'
        || text.at(16) != u':' || text.at(19) != u'.' || text.at(23) != u'Z')
        return {};
    const QDate date(digits(text, 0, 4), digits(text, 5, 2), digits(text, 8, 2));
    const QTime time(digits(text, 11, 2), digits(text, 14, 2), digits(text, 17, 2), digits(text, 20, 3));
    if (!date.isValid() || !time.isValid())
        return {};
    return QDateTime(date, time, Qt::UTC);
}

} // namespace

QDateTime fromStorageTime(const QString &text)
{
    if (text.isEmpty())
        return {};
    if (const QDateTime exact = fromExactStorageTime(text); exact.isValid())
        return exact;
    // ISODateWithMs also accepts rows written without milliseconds; the Z makes the result UTC.
    const QDateTime time = QDateTime::fromString(text, Qt::ISODateWithMs);
    return time.isValid() ? time.toUTC() : QDateTime();
}

} // namespace berth
