#include "http/httprequest.h"

#include "http/hostheader.h"

#include <algorithm>

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
    const QByteArray decoded = rawPath.contains('%') ? QByteArray::fromPercentEncoding(rawPath) : rawPath;
    *path = QString::fromUtf8(decoded);
    // In NFC, the one spelling deployed file paths are stored in, so a link written decomposed ("e" and U+0301, as
    // macOS writes names) finds the composed file. ASCII, nearly every request, is NFC already.
    if (!std::all_of(decoded.cbegin(), decoded.cend(), [](char c) { return uchar(c) < 0x80; }))
        *path = path->normalized(QString::NormalizationForm_C);
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
