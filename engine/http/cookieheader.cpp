#include "http/cookieheader.h"

namespace berth {

QList<QByteArray> cookieValues(QByteArrayView cookieHeader, QByteArrayView name, qsizetype maxValues)
{
    QList<QByteArray> values;
    qsizetype start = 0;
    while (start <= cookieHeader.size() && values.size() < maxValues) {
        qsizetype end = cookieHeader.indexOf(';', start);
        if (end < 0)
            end = cookieHeader.size();
        const QByteArrayView pair = cookieHeader.sliced(start, end - start).trimmed();
        if (pair.size() > name.size() && pair.startsWith(name) && pair.at(name.size()) == '=')
            values.append(pair.sliced(name.size() + 1).toByteArray());
        start = end + 1;
    }
    return values;
}

QByteArray cookieValue(QByteArrayView cookieHeader, QByteArrayView name)
{
    const QList<QByteArray> values = cookieValues(cookieHeader, name, 1);
    return values.isEmpty() ? QByteArray() : values.first();
}

void appendCookieField(QByteArray &joined, QByteArrayView value)
{
    if (value.isEmpty())
        return;
    if (!joined.isEmpty())
        joined += "; ";
    joined += value;
}

} // namespace berth
