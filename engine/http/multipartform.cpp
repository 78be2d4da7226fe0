#include "http/multipartform.h"

namespace berth {

namespace {

constexpr qsizetype kMaxBoundaryLength = 70; // RFC 2046

// The value of a `key=value` or `key="value"` parameter of a header value such as
// `form-data; name="a"; filename="b"`. nullopt when absent.
std::optional<QByteArray> parameter(const QByteArray &headerValue, QByteArrayView key)
{
    const QList<QByteArray> items = headerValue.split(';');
    for (qsizetype i = 1; i < items.size(); ++i) {
        const QByteArray item = items.at(i).trimmed();
        const qsizetype equals = item.indexOf('=');
        if (equals < 0 || item.first(equals).trimmed().toLower() != key)
            continue;
        QByteArray value = item.sliced(equals + 1).trimmed();
        if (value.size() >= 2 && value.startsWith('"') && value.endsWith('"')) {
            value = value.mid(1, value.size() - 2);
            value.replace("\\\"", "\"");
            value.replace("\\\\", "\\");
        }
        return value;
    }
    return std::nullopt;
}

// A part's header block: Content-Disposition and Content-Type, names case-insensitive.
bool parsePartHeaders(QByteArrayView block, MultipartPart *part)
{
    bool sawDisposition = false;
    for (const QByteArray &line : block.toByteArray().split('\n')) {
        const QByteArray trimmed = line.trimmed();
        if (trimmed.isEmpty())
            continue;
        const qsizetype colon = trimmed.indexOf(':');
        if (colon <= 0)
            return false;
        const QByteArray name = trimmed.first(colon).trimmed().toLower();
        const QByteArray value = trimmed.sliced(colon + 1).trimmed();
        if (name == "content-disposition") {
            if (!value.toLower().startsWith("form-data"))
                return false;
            const auto fieldName = parameter(value, "name");
            if (!fieldName)
                return false;
            part->name = QString::fromUtf8(*fieldName);
            part->isFile = parameter(value, "filename").has_value() || parameter(value, "filename*").has_value();
            sawDisposition = true;
        } else if (name == "content-type") {
            part->contentType = value;
        }
    }
    return sawDisposition;
}

} // namespace

std::optional<QList<MultipartPart>> parseMultipartForm(const QByteArray &contentType, const QByteArray &body)
{
    const auto boundary = parameter(contentType, "boundary");
    if (!boundary || boundary->isEmpty() || boundary->size() > kMaxBoundaryLength)
        return std::nullopt;
    const QByteArray delimiter = "--" + *boundary;
    const QByteArray separator = "\r\n" + delimiter;

    // The first delimiter starts the body or ends a (rare, ignored) preamble line.
    qsizetype position = delimiter.size();
    if (!body.startsWith(delimiter)) {
        position = body.indexOf(separator);
        if (position < 0)
            return std::nullopt;
        position += separator.size();
    }

    QList<MultipartPart> parts;
    while (true) {
        if (body.mid(position, 2) == "--")
            return parts; // the closing delimiter; an epilogue after it is ignored
        if (body.mid(position, 2) != "\r\n")
            return std::nullopt;
        position += 2;
        const qsizetype headersEnd = body.indexOf("\r\n\r\n", position);
        if (headersEnd < 0)
            return std::nullopt;
        MultipartPart part;
        if (!parsePartHeaders(QByteArrayView(body).sliced(position, headersEnd - position), &part))
            return std::nullopt;
        const qsizetype contentStart = headersEnd + 4;
        const qsizetype contentEnd = body.indexOf(separator, contentStart);
        if (contentEnd < 0)
            return std::nullopt;
        part.content = body.mid(contentStart, contentEnd - contentStart);
        parts.append(part);
        position = contentEnd + separator.size();
    }
}

} // namespace berth
