#pragma once

#include <QByteArray>
#include <QByteArrayList>
#include <QByteArrayView>
#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QString>
#include <memory>

namespace berth {

class RequestBodyStream;

using HttpHeaders = QList<QPair<QByteArray, QByteArray>>;

// A request as handlers see it: framed and checked by the front door, plain data, no socket.
struct HttpRequest
{
    QByteArray method; // as sent, upper case: "GET", "HEAD", "POST", ...
    QByteArray target; // the raw request-target, e.g. "/a%20b/?x=1"
    QString path; // the target's path, percent-decoded exactly once, in Unicode NFC; handlers must still reject "..",
                  // NUL, '\'
    QByteArray query; // the target's query after '?', still encoded; empty when none
    HttpHeaders headers; // names lower-cased, in arrival order
    QByteArray body;
    // Instead of body, for a route that takes its body as it arrives (BodyLimit::streamedTypes): the bytes come
    // through this after the handler has the request.
    std::shared_ptr<RequestBodyStream> bodyStream;
    QHostAddress peer; // the TCP peer; IPv4-mapped IPv6 is normalised to IPv4
    bool secure = false; // arrived over TLS (the front door's HTTPS port)

    QByteArray header(QByteArrayView lowerName) const; // first value, or empty
    bool hasHeader(QByteArrayView lowerName) const;
    QString host() const; // the Host header as normalisedHost() reads it: lower-cased, no port
    bool isHead() const { return method == "HEAD"; }

    // Splits a raw request-target into its path, percent-decoded once, and its still-encoded query.
    static void splitTarget(const QByteArray &target, QString *path, QByteArray *query);
    // IPv4-mapped IPv6 addresses (a dual-stack listener's view of IPv4 clients) as plain IPv4.
    static QHostAddress normalisedPeer(const QHostAddress &address);
};

// What the front door knows of a request once its header block has arrived, before any body byte.
struct RequestHead
{
    QByteArray method;
    QByteArray target;
    QByteArray host; // raw Host header value
    qint64 contentLength = 0;
    QByteArray authorization; // raw Authorization header value (empty when absent)
    QByteArray accept; // raw Accept and Content-Type: whether a refusal is a page or JSON
    QByteArray contentType;
};

// What a request is for, as the metrics count it: a site's files, the management API, a site's built-in endpoints
// (/_submit, /_counter, /_gate), or none of these (an unknown host).
enum class RequestKind : quint8
{
    Site,
    Api,
    Builtin,
    Other,
};

// What the front door must know of a request from its head alone: the largest body it may carry (and the text of
// its 413), whether it is for the management API (which may use the connections kept in reserve), and whether its
// caller must be authorised before a large body is read (RequestHandler::authorizeUpload); and its kind, counted.
struct BodyLimit
{
    qint64 maxBytes = 0;
    QString message;
    bool forApi = false;
    bool needsAuthorization = false;
    RequestKind kind = RequestKind::Other;
    // Media types (lower case, without parameters) whose body the handler takes as it arrives, through
    // HttpRequest::bodyStream, instead of whole; answered before all of it came, the connection closes.
    QByteArrayList streamedTypes = {};
};

} // namespace berth
