#include "http/httprequest.h"

#include "http/hostheader.h"

namespace berth {

QByteArray HttpRequest::header(QByteArrayView lowerName) const
{
    for (const auto &field : headers) {
        if (field.first == lowerName)
            return field.second;
    }
    return {};
}

bool HttpRequest::hasHeader(QByteArrayView lowerName) const
{
    for (const auto &field : headers) {
        if (field.first == lowerName)
            return true;
    }
    return false;
}

QString HttpRequest::host() const
{
    return normalisedHost(header("host"));
}

void HttpRequest::splitTarget(const QByteArray &target, QString *path, QByteArray *query)
{
    const qsizetype mark = target.indexOf('?');
    const QByteArray rawPath = mark < 0 ? target : target.first(mark);
    *query = mark < 0 ? QByteArray() : target.sliced(mark + 1);
    // Decoded exactly once, from the raw target: "%252e" stays "%2e"; handlers reject "..", NUL and '\'.
    *path = rawPath.contains('%') ? QString::fromUtf8(QByteArray::fromPercentEncoding(rawPath))
                                  : QString::fromUtf8(rawPath);
}

QHostAddress HttpRequest::normalisedPeer(const QHostAddress &address)
{
    if (address.protocol() == QAbstractSocket::IPv6Protocol) {
        bool isV4 = false;
        const quint32 v4 = address.toIPv4Address(&isV4);
        if (isV4)
            return QHostAddress(v4);
    }
    return address;
}

} // namespace berth
