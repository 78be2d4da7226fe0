#pragma once

#include "http/httpresponse.h"

#include <QByteArray>
#include <QString>

namespace berth {

// Serialises every response Berth sends: the status line and one correct set of headers. It owns Content-Length,
// Date, Server and Connection (a handler's own copies are dropped), removes case-twins and duplicates from the
// handler's headers (the last wins; Set-Cookie may repeat), drops headers that would split the response, and adds
// X-Content-Type-Options: nosniff. One writer per thread: it caches the Date string for a second.
class ResponseWriter final
{
public:
    explicit ResponseWriter(QByteArray serverName);
    Q_DISABLE_COPY_MOVE(ResponseWriter)

    // Status line and headers, ending with the empty line. contentLength is the length of the body a GET would
    // get (also sent for HEAD); it is left out for statuses that have no body.
    QByteArray head(const HttpResponse &response, qint64 contentLength, bool keepAlive);
    // A complete refusal: {"error": message} with Connection: close.
    QByteArray refusal(int status, const QString &message);
    // The same with the handler's own wording (a page, say), also with Connection: close.
    QByteArray refusal(const HttpResponse &response);

    static bool statusHasBody(int status) { return status >= 200 && status != 204 && status != 304; }
    static QByteArrayView reasonPhrase(int status);
    static QByteArray imfFixdate(qint64 secsSinceEpoch);

private:
    const QByteArray &date();

    QByteArray m_serverName;
    QByteArray m_date;
    qint64 m_dateSecs = -1;
};

} // namespace berth
