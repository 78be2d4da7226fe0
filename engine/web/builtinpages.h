#pragma once

#include "http/httpresponse.h"

#include <QHash>
#include <QString>

namespace berth {

// The HTML pages Berth itself serves on site hosts (404, no site, private, password gate, ...),
// compiled in from resources/pages. A page may hold {{name}} placeholders (values are HTML-escaped)
// and includes the shared stylesheet where it says {{> page.css}}.
namespace BuiltinPages {

QByteArray render(const QString &name, const QHash<QString, QString> &values = {});
HttpResponse response(int status, const QString &name, const QHash<QString, QString> &values = {});

// Whether a refusal should be a page rather than JSON: a browser's form post (urlencoded, multipart or text/plain)
// or a navigation (Accept names text/html), unless the request sends JSON or asks for JSON alone.
bool prefersPage(const HttpRequest &request);
// The same from the raw Accept and Content-Type headers (before a request is read, for the front door's 413).
bool prefersPage(const QByteArray &accept, const QByteArray &contentType);
// A {"error": "..."} refusal as the "refused" page: the same status, Retry-After and Allow, the message in words
// for people, and a link back to `back` (a path on the same site).
HttpResponse refusalPage(const HttpResponse &jsonRefusal, const QString &back = QStringLiteral("/"));

} // namespace BuiltinPages
} // namespace berth
