#pragma once

#include <QByteArray>
#include <QString>

namespace berth {

// Content types of deployed files, as sent in Content-Type.
namespace MimeTypes {

// From the extension of path: a built-in table of the web's essentials first (so results do not depend on the
// system's mime database), then QMimeDatabase. Text types carry "; charset=utf-8"; unknown is
// application/octet-stream.
QByteArray forPath(const QString &path);

// Whether a response of this type is worth gzip/brotli: text-like yes, already compressed media no.
bool isCompressible(const QByteArray &contentType);

// Whether the type (parameters ignored) is text that needs a charset: text/*, JavaScript, JSON, XML, SVG.
bool isText(const QByteArray &contentType);

// A client-declared type, trimmed, with the type and subtype lowercased and "; charset=utf-8" added to text types
// without a charset; forPath(path) when the declaration does not look like "type/subtype[; name=value]...".
QByteArray normaliseDeclared(const QString &declared, const QString &path);

} // namespace MimeTypes
} // namespace berth
