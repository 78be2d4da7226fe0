#include "domain/common/mimetypes.h"

#include <QMimeDatabase>
#include <iterator>

using namespace Qt::StringLiterals;

namespace berth::MimeTypes {

namespace {

constexpr int kMaxDeclaredLength = 200;

struct Known
{
    QLatin1String extension;
    const char *type;
};

// Charsets are added by withCharset(), not spelled here.
const Known kKnown[] = {
    {"html"_L1, "text/html"},
    {"htm"_L1, "text/html"},
    {"css"_L1, "text/css"},
    {"js"_L1, "text/javascript"},
    {"mjs"_L1, "text/javascript"},
    {"json"_L1, "application/json"},
    {"map"_L1, "application/json"},
    {"webmanifest"_L1, "application/manifest+json"},
    {"xml"_L1, "application/xml"},
    {"txt"_L1, "text/plain"},
    {"svg"_L1, "image/svg+xml"},
    {"png"_L1, "image/png"},
    {"jpg"_L1, "image/jpeg"},
    {"jpeg"_L1, "image/jpeg"},
    {"gif"_L1, "image/gif"},
    {"webp"_L1, "image/webp"},
    {"avif"_L1, "image/avif"},
    {"ico"_L1, "image/x-icon"},
    {"wasm"_L1, "application/wasm"},
    {"woff"_L1, "font/woff"},
    {"woff2"_L1, "font/woff2"},
    {"ttf"_L1, "font/ttf"},
    {"otf"_L1, "font/otf"},
    {"mp4"_L1, "video/mp4"},
    {"webm"_L1, "video/webm"},
    {"mp3"_L1, "audio/mpeg"},
    {"ogg"_L1, "audio/ogg"},
    {"wav"_L1, "audio/wav"},
    {"pdf"_L1, "application/pdf"},
};

// The lowercased "type/subtype" of a Content-Type value.
QByteArray essence(const QByteArray &contentType)
{
    const qsizetype semicolon = contentType.indexOf(';');
    return (semicolon < 0 ? contentType : contentType.left(semicolon)).trimmed().toLower();
}

QByteArray withCharset(const QByteArray &type)
{
    return isText(type) ? type + "; charset=utf-8"_ba : type;
}

bool isTokenChar(char c)
{
    // RFC 9110 token characters.
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

// Reads an RFC 9110 token at pos; empty when there is none.
QByteArray readToken(const QByteArray &text, qsizetype &pos)
{
    const qsizetype start = pos;
    while (pos < text.size() && isTokenChar(text.at(pos)))
        ++pos;
    return text.mid(start, pos - start);
}

void skipSpace(const QByteArray &text, qsizetype &pos)
{
    while (pos < text.size() && (text.at(pos) == ' ' || text.at(pos) == '\t'))
        ++pos;
}

// "type/subtype" lowercased plus its parameters re-serialised, or empty when text is not a media type.
QByteArray parseMediaType(const QByteArray &text, bool *hasCharset)
{
    qsizetype pos = 0;
    const QByteArray type = readToken(text, pos);
    if (type.isEmpty() || pos >= text.size() || text.at(pos) != '/')
        return {};
    ++pos;
    const QByteArray subtype = readToken(text, pos);
    if (subtype.isEmpty())
        return {};
    QByteArray result = type.toLower() + '/' + subtype.toLower();
    *hasCharset = false;
    for (;;) {
        skipSpace(text, pos);
        if (pos == text.size())
            return result;
        if (text.at(pos) != ';')
            return {};
        ++pos;
        skipSpace(text, pos);
        if (pos == text.size())
            return result; // a trailing ";" is harmless
        const QByteArray name = readToken(text, pos);
        if (name.isEmpty() || pos >= text.size() || text.at(pos) != '=')
            return {};
        ++pos;
        const qsizetype valueStart = pos;
        if (pos < text.size() && text.at(pos) == '"') {
            for (++pos; pos < text.size() && text.at(pos) != '"'; ++pos) {
                if (text.at(pos) == '\\')
                    ++pos;
            }
            if (pos >= text.size())
                return {}; // unterminated quoted string
            ++pos;
        } else if (readToken(text, pos).isEmpty()) {
            return {};
        }
        if (name.compare("charset", Qt::CaseInsensitive) == 0)
            *hasCharset = true;
        result += "; " + name + '=' + text.mid(valueStart, pos - valueStart);
    }
}

} // namespace

bool isText(const QByteArray &contentType)
{
    const QByteArray type = essence(contentType);
    return type.startsWith("text/") || type == "application/javascript" || type == "application/x-javascript"
        || type == "application/ecmascript" || type == "application/json" || type == "application/xml"
        || type == "image/svg+xml" || type == "application/manifest+json" || type.endsWith("+json")
        || type.endsWith("+xml");
}

QByteArray forPath(const QString &path)
{
    const QStringView name = QStringView(path).mid(path.lastIndexOf(u'/') + 1);
    const qsizetype dot = name.lastIndexOf(u'.');
    if (dot >= 0) {
        const QStringView extension = name.mid(dot + 1);
        for (const Known &known : kKnown) {
            if (extension.compare(known.extension, Qt::CaseInsensitive) == 0)
                return withCharset(QByteArray(known.type));
        }
    }
    const QMimeType type = QMimeDatabase().mimeTypeForFile(path, QMimeDatabase::MatchExtension);
    if (!type.isValid() || type.isDefault())
        return "application/octet-stream"_ba;
    return withCharset(type.name().toLatin1());
}

bool isCompressible(const QByteArray &contentType)
{
    if (isText(contentType))
        return true;
    const QByteArray type = essence(contentType);
    // wasm, uncompressed fonts and icons shrink well; png/jpeg/webp/avif/woff2/video/audio/zip are compressed already.
    return type == "application/wasm" || type == "font/ttf" || type == "font/otf" || type == "application/x-font-ttf"
        || type == "application/x-font-otf" || type == "image/x-icon" || type == "image/vnd.microsoft.icon"
        || type == "image/bmp";
}

QByteArray normaliseDeclared(const QString &declared, const QString &path)
{
    const QString trimmed = declared.trimmed();
    if (trimmed.isEmpty() || trimmed.size() > kMaxDeclaredLength)
        return forPath(path);
    for (const QChar c : trimmed) {
        // Printable ASCII only: this ends up in a response header.
        if (c.unicode() < 0x20 || c.unicode() > 0x7e)
            return forPath(path);
    }
    bool hasCharset = false;
    const QByteArray type = parseMediaType(trimmed.toLatin1(), &hasCharset);
    if (type.isEmpty())
        return forPath(path);
    return isText(type) && !hasCharset ? type + "; charset=utf-8"_ba : type;
}

} // namespace berth::MimeTypes
