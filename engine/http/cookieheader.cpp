#include "http/cookieheader.h"

namespace berth {

QByteArray cookieValue(QByteArrayView cookieHeader, QByteArrayView name)
{
    qsizetype start = 0;
    while (start <= cookieHeader.size()) {
        qsizetype end = cookieHeader.indexOf(';', start);
        if (end < 0)
            end = cookieHeader.size();
        const QByteArrayView pair = cookieHeader.sliced(start, end - start).trimmed();
        if (pair.size() > name.size() && pair.startsWith(name) && pair.at(name.size()) == '=')
            return pair.sliced(name.size() + 1).toByteArray();
        start = end + 1;
    }
    return {};
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
