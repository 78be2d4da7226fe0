#include "http/hostheader.h"

namespace berth {

QString normalisedHost(QByteArrayView hostHeader)
{
    QByteArrayView value = hostHeader.trimmed();
    if (value.startsWith('[')) { // IPv6 literal: the port follows the closing bracket
        const qsizetype close = value.indexOf(']');
        if (close > 0)
            value = value.first(close + 1);
    } else {
        const qsizetype colon = value.indexOf(':');
        if (colon >= 0)
            value = value.first(colon);
    }
    // Trimmed again so that "a.example :80" reads as "a.example": normalising a normalised host changes nothing.
    return QString::fromLatin1(value.trimmed()).toLower();
}

} // namespace berth
