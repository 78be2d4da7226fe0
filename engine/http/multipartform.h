#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <optional>

namespace berth {

// One part of a multipart/form-data body (RFC 7578).
struct MultipartPart
{
    QString name; // the Content-Disposition name
    bool isFile = false; // the part has a filename parameter (a file input, even an empty one)
    QByteArray contentType; // as sent; empty when absent
    QByteArray content;
};

// Splits a multipart/form-data body by the boundary named in its Content-Type header value. nullopt when the
// header has no usable boundary or the body is not well formed (no closing delimiter, a part without a
// form-data Content-Disposition and name, a header block without its blank line).
std::optional<QList<MultipartPart>> parseMultipartForm(const QByteArray &contentType, const QByteArray &body);

} // namespace berth
