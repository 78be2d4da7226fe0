#pragma once

#include "http/httprequest.h"

#include <QJsonObject>

namespace berth {

// One response. The response writer adds Content-Length, Date, Server and Connection itself;
// handlers must not set them.
// Whether two header names are the same name. The length is compared first: most names differ in it, and a
// case-insensitive comparison costs more than the whole of serving a cached file (measured with callgrind).
inline bool sameHeaderName(QByteArrayView a, QByteArrayView b)
{
    return a.size() == b.size() && a.compare(b, Qt::CaseInsensitive) == 0;
}

struct HttpResponse
{
    int status = 200;
    HttpHeaders headers;
    QByteArray body; // an in-memory body, or, when filePath is set, the file's bytes are streamed instead
    QString filePath;
    qint64 fileOffset = 0;
    qint64 fileLength = -1; // -1: to the end of the file

    // Replaces every header of the same name (case-insensitive) with this one.
    void setHeader(const QByteArray &name, const QByteArray &value);
    QByteArray header(QByteArrayView name) const; // case-insensitive; empty when absent

    static HttpResponse json(int status, const QJsonObject &object);
    static HttpResponse jsonError(int status, const QString &message); // {"error": message}
    static HttpResponse bytes(int status, const QByteArray &contentType, const QByteArray &body);
};

} // namespace berth
