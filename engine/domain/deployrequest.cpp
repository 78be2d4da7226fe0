#include "deployrequest.h"

#include "domain/deploymentlimits.h"
#include "domain/filepath.h"
#include "domain/mimetypes.h"
#include "domain/slugrules.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

Error badRequest(const QString &message)
{
    return Error {Error::Kind::BadRequest, message};
}

Error slugInvalid(const QString &rule)
{
    return Error {Error::Kind::BadRequest, rule, Error::Code::SlugInvalid};
}

Error tooLarge(const QString &message)
{
    return Error {Error::Kind::TooLarge, message};
}

enum class JsonType
{
    String,
    StringOrNull,
    Boolean,
    Array
};

struct KnownField
{
    QLatin1String name;
    JsonType type;
};

const KnownField kKnownFields[] = {
    {"html"_L1, JsonType::String},
    {"files"_L1, JsonType::Array},
    {"slug"_L1, JsonType::String},
    {"title"_L1, JsonType::String},
    {"description"_L1, JsonType::StringOrNull},
    {"favicon"_L1, JsonType::String},
    {"og_image"_L1, JsonType::String},
    {"is_spa"_L1, JsonType::Boolean},
    {"protect"_L1, JsonType::Boolean},
    {"password"_L1, JsonType::String},
    {"remove_password"_L1, JsonType::Boolean},
    {"rotate_share_link"_L1, JsonType::Boolean},
};

bool hasType(const QJsonValue &value, JsonType type)
{
    switch (type) {
    case JsonType::String:
        return value.isString();
    case JsonType::StringOrNull:
        return value.isString() || value.isNull();
    case JsonType::Boolean:
        return value.isBool();
    case JsonType::Array:
        return value.isArray();
    }
    return false;
}

QString typeName(JsonType type)
{
    switch (type) {
    case JsonType::String:
        return u"a string"_s;
    case JsonType::StringOrNull:
        return u"a string or null"_s;
    case JsonType::Boolean:
        return u"a boolean"_s;
    case JsonType::Array:
        return u"an array"_s;
    }
    return {};
}

// A JSON string as a QString that is never null, so that a present "" stays distinguishable from JSON null.
QString presentString(const QJsonValue &value)
{
    QString text = value.toString();
    return text.isNull() ? u""_s : text;
}

// Fields a body may carry besides kKnownFields, by mode.
const QLatin1String kFileFields[] = {"path"_L1, "content"_L1, "encoding"_L1, "contentType"_L1, "sha256"_L1};

// Levenshtein distance of two short lower-cased names; larger than `limit` is reported as limit + 1.
int editDistance(QStringView a, QStringView b, int limit)
{
    if (qAbs(a.size() - b.size()) > limit)
        return limit + 1;
    QList<int> previous(b.size() + 1);
    QList<int> current(b.size() + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        previous[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int substitution = previous[j - 1] + (a[i - 1].toLower() == b[j - 1].toLower() ? 0 : 1);
            current[j] = qMin(substitution, qMin(previous[j], current[j - 1]) + 1);
        }
        std::swap(previous, current);
    }
    return qMin(previous[b.size()], limit + 1);
}

// 400 for a field the body may not carry, with the known name it most likely meant: a client that misspells
// "protect" must not get a public site and a 200.
template<typename Names>
Result<void> checkFieldNames(const QJsonObject &object, const Names &known, const QString &where)
{
    constexpr qsizetype kMaxShown = 64; // names are user input: neither the message nor the comparison grows with them
    constexpr int kMaxDistance = 2;
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        const QString name = it.key();
        bool isKnown = false;
        for (const auto &field : known)
            isKnown = isKnown || name == QLatin1String(field);
        if (isKnown)
            continue;
        QString shown = name.left(kMaxShown);
        for (QChar &c : shown) {
            if (c.category() == QChar::Other_Control)
                c = QChar(0xFFFD);
        }
        QString message = u"unknown field \"%1%2\""_s.arg(where, shown + (name.size() > kMaxShown ? u"..."_s : u""_s));
        int best = kMaxDistance + 1;
        QString hint;
        if (name.size() <= kMaxShown) {
            // "isSpa" or "og-image" for "is_spa" and "og_image": the same name in another spelling counts as 0.
            QString bare = name.toLower();
            bare.remove(u'_').remove(u'-');
            for (const auto &field : known) {
                const QString candidate = QLatin1String(field);
                const int distance
                    = bare == candidate.toLower().remove(u'_') ? 0 : editDistance(name, candidate, kMaxDistance);
                if (distance < best) {
                    best = distance;
                    hint = candidate;
                }
            }
        }
        if (best <= kMaxDistance)
            message += u"; did you mean \"%1%2\"?"_s.arg(where, hint);
        return badRequest(message);
    }
    return {};
}

bool isHexSha256(const QByteArray &hash)
{
    if (hash.size() != 64)
        return false;
    for (const char c : hash) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    }
    return true;
}

bool isBase64Space(char16_t c)
{
    return c == u' ' || c == u'\t' || c == u'\r' || c == u'\n';
}

// The decoded size of base64 text, computed without decoding, so that an oversized entry fails before its
// memory is spent. Exact for valid input; also reports whether line breaks or spaces need stripping first.
qint64 base64DecodedSize(QStringView text, bool *hasSpace)
{
    qint64 significant = 0;
    *hasSpace = false;
    for (const QChar c : text) {
        if (isBase64Space(c.unicode()))
            *hasSpace = true;
        else if (c != u'=')
            ++significant;
    }
    return significant * 3 / 4;
}

Result<QByteArray> decodeContent(QString &&text, bool base64, const QString &where, const QString &path)
{
    const auto oversized = [&path] { return tooLarge(DeploymentLimits::fileTooLarge(path)); };
    if (!base64) {
        if (utf8Size(text) > kMaxFileBytes)
            return oversized();
        return text.toUtf8();
    }
    bool hasSpace = false;
    if (base64DecodedSize(text, &hasSpace) > kMaxFileBytes)
        return oversized();
    // Non-Latin-1 characters turn into '?', which the strict decoder then refuses.
    QByteArray ascii = text.toLatin1();
    text = QString();
    if (hasSpace) // line-wrapped output of tools such as base64(1)
        ascii.removeIf([](char c) { return isBase64Space(char16_t(c)); });
    // The rvalue overload decodes in place: no second buffer for a 10 MB file.
    auto decoded = QByteArray::fromBase64Encoding(
        std::move(ascii), QByteArray::Base64Encoding | QByteArray::AbortOnBase64DecodingErrors);
    if (!decoded)
        return badRequest(where + u".content is not valid base64"_s);
    if (decoded.decoded.size() > kMaxFileBytes)
        return oversized();
    return std::move(decoded.decoded);
}

Result<FileUpload> parseFile(const QJsonValue &value, qsizetype index)
{
    const QString where = u"files[%1]"_s.arg(index);
    if (!value.isObject())
        return badRequest(where + u" must be an object"_s);
    const QJsonObject entry = value.toObject();
    if (const Result<void> names = checkFieldNames(entry, kFileFields, where + u"."_s); !names)
        return names.error();

    const QJsonValue pathValue = entry.value("path"_L1);
    if (pathValue.isUndefined() || pathValue.isNull())
        return badRequest(where + u".path is required"_s);
    if (!pathValue.isString())
        return badRequest(where + u".path must be a string"_s);
    QString pathError;
    FileUpload file;
    file.path = FilePath::normalise(pathValue.toString(), &pathError);
    if (file.path.isNull())
        return badRequest(pathError);

    const QJsonValue contentValue = entry.value("content"_L1);
    const QJsonValue hashValue = entry.value("sha256"_L1);
    const bool hasContent = !contentValue.isUndefined() && !contentValue.isNull();
    if (!hashValue.isUndefined() && !hashValue.isNull()) {
        if (hasContent)
            return badRequest(where + u": provide content or sha256, not both"_s);
        if (!hashValue.isString())
            return badRequest(where + u".sha256 must be a string"_s);
        file.sha256 = hashValue.toString().toLower().toLatin1();
        if (!isHexSha256(file.sha256))
            return badRequest(where + u".sha256 must be 64 hexadecimal characters"_s);
    } else if (!hasContent) {
        return badRequest(where + u".content is required"_s);
    }
    if (hasContent && !contentValue.isString())
        return badRequest(where + u".content must be a string"_s);

    const QJsonValue encoding = entry.value("encoding"_L1);
    const bool base64 = encoding.isString() && encoding.toString() == u"base64";
    if (!base64 && !encoding.isUndefined() && !encoding.isNull())
        return badRequest(where + u".encoding must be \"base64\" or absent"_s);

    if (hasContent) {
        Result<QByteArray> content = decodeContent(contentValue.toString(), base64, where, file.path);
        if (!content)
            return content.error();
        file.content = std::move(content).value();
    }

    const QJsonValue declared = entry.value("contentType"_L1);
    if (declared.isString())
        file.contentType = MimeTypes::normaliseDeclared(declared.toString(), file.path);
    else if (declared.isUndefined() || declared.isNull())
        file.contentType = MimeTypes::forPath(file.path);
    else
        return badRequest(where + u".contentType must be a string"_s);
    return file;
}

Result<QList<FileUpload>> parseFiles(const QJsonArray &array)
{
    if (array.isEmpty())
        return badRequest(u"files must not be empty"_s);
    if (array.size() > kMaxFilesPerDeployment)
        return tooLarge(DeploymentLimits::tooManyFiles());

    QList<FileUpload> files;
    files.reserve(array.size());
    QSet<QString> seen;
    seen.reserve(array.size());
    qint64 total = 0;
    for (qsizetype i = 0; i < array.size(); ++i) {
        Result<FileUpload> file = parseFile(array.at(i), i);
        if (!file)
            return file.error();
        if (seen.contains(file.value().path))
            return badRequest(u"duplicate file path \"%1\""_s.arg(file.value().path));
        seen.insert(file.value().path);
        total += file.value().byteSize();
        if (total > kMaxTotalBytes)
            return tooLarge(DeploymentLimits::totalTooLarge());
        files.append(std::move(file).value());
    }
    return files;
}

Result<void> checkLength(const std::optional<QString> &value, QLatin1String field, int maximum)
{
    if (value && value->size() > maximum)
        return badRequest(u"%1 must be at most %2 characters"_s.arg(field).arg(maximum));
    return {};
}

Result<void> checkMetadata(const DeployRequest &request)
{
    if (auto checked = checkLength(request.title, "title"_L1, kMaxTitleLength); !checked)
        return checked;
    if (auto checked = checkLength(request.description, "description"_L1, kMaxDescriptionLength); !checked)
        return checked;
    if (auto checked = checkLength(request.favicon, "favicon"_L1, kMaxFaviconLength); !checked)
        return checked;
    if (auto checked = checkLength(request.ogImage, "og_image"_L1, kMaxOgImageLength); !checked)
        return checked;
    if (request.ogImage && !request.ogImage->isEmpty()) {
        const QUrl url(*request.ogImage, QUrl::StrictMode);
        const QString scheme = url.scheme();
        if (!url.isValid() || (scheme != u"http" && scheme != u"https") || url.host().isEmpty())
            return badRequest(u"og_image must be an absolute http or https URL"_s);
    }
    if (request.password) {
        if (request.password->isEmpty())
            return badRequest(u"password must not be empty"_s);
        if (auto checked = checkLength(request.password, "password"_L1, kMaxPasswordLength); !checked)
            return checked;
    }
    return {};
}

} // namespace

qint64 utf8Size(QStringView text)
{
    qint64 size = 0;
    const qsizetype length = text.size();
    for (qsizetype i = 0; i < length; ++i) {
        const char16_t c = text[i].unicode();
        if (c < 0x80) {
            size += 1;
        } else if (c < 0x800) {
            size += 2;
        } else if (QChar::isHighSurrogate(c) && i + 1 < length && text[i + 1].isLowSurrogate()) {
            size += 4;
            ++i;
        } else {
            size += 3; // the rest of the BMP; a lone surrogate becomes U+FFFD, also 3 bytes
        }
    }
    return size;
}

qint64 DeployRequest::contentBytes() const
{
    if (html)
        return utf8Size(*html);
    qint64 total = 0;
    if (files) {
        for (const FileUpload &file : *files)
            total += file.byteSize();
    }
    return total;
}

Result<void> validateDeployRequest(const DeployRequest &request)
{
    if (request.html && request.files)
        return badRequest(u"Provide either html or files, not both"_s);
    if (request.html) {
        if (request.html->isEmpty())
            return badRequest(u"html must not be empty"_s);
        if (const qint64 bytes = utf8Size(*request.html); bytes > kMaxHtmlBytes)
            return tooLarge(DeploymentLimits::htmlTooLarge(bytes));
    }
    if (request.files) {
        if (request.files->isEmpty())
            return badRequest(u"files must not be empty"_s);
        if (request.files->size() > kMaxFilesPerDeployment)
            return tooLarge(DeploymentLimits::tooManyFiles());
        QSet<QString> seen;
        qint64 total = 0;
        for (const FileUpload &file : *request.files) {
            QString pathError;
            if (FilePath::normalise(file.path, &pathError) != file.path)
                return badRequest(
                    pathError.isEmpty() ? u"file path \"%1\" is not normalised"_s.arg(file.path) : pathError);
            if (seen.contains(file.path))
                return badRequest(u"duplicate file path \"%1\""_s.arg(file.path));
            seen.insert(file.path);
            if (file.byteSize() > kMaxFileBytes)
                return tooLarge(DeploymentLimits::fileTooLarge(file.path));
            if (file.isReference() && !isHexSha256(file.sha256))
                return badRequest(u"file \"%1\": sha256 must be 64 lower-case hexadecimal characters"_s.arg(file.path));
            total += file.byteSize();
        }
        if (total > kMaxTotalBytes)
            return tooLarge(DeploymentLimits::totalTooLarge());
    }
    if (request.slug) {
        if (const QString problem = SlugRules::validate(*request.slug); !problem.isEmpty())
            return slugInvalid(problem);
    }
    return checkMetadata(request);
}

Result<DeployRequest> parseDeployRequest(const QByteArray &body, DeployRequest::Mode mode)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return badRequest(u"Malformed JSON: "_s + parseError.errorString());
    if (!document.isObject())
        return badRequest(u"Request body must be a JSON object"_s);
    const QJsonObject object = document.object();

    if (mode == DeployRequest::Mode::Update && object.contains("slug"_L1))
        return badRequest(u"slug cannot be changed here; use PATCH /deploy/:id/slug"_s);
    if (mode == DeployRequest::Mode::Create && object.contains("remove_password"_L1))
        return badRequest(u"remove_password is only valid on update"_s);
    if (mode == DeployRequest::Mode::Create && object.contains("rotate_share_link"_L1))
        return badRequest(u"rotate_share_link is only valid on update"_s);
    QList<QLatin1String> allowed;
    for (const KnownField &field : kKnownFields)
        allowed.append(field.name);
    if (const Result<void> names = checkFieldNames(object, allowed, QString()); !names)
        return names.error();
    for (const KnownField &field : kKnownFields) {
        const auto value = object.constFind(field.name);
        if (value != object.constEnd() && !hasType(*value, field.type))
            return badRequest(u"\"%1\" must be %2"_s.arg(field.name, typeName(field.type)));
    }

    const bool hasHtml = object.contains("html"_L1);
    const bool hasFiles = object.contains("files"_L1);
    if (hasHtml && hasFiles)
        return badRequest(u"Provide either html or files, not both"_s);
    if (!hasHtml && !hasFiles && mode == DeployRequest::Mode::Create)
        return badRequest(u"html is required"_s);

    DeployRequest request;
    if (hasHtml) {
        QString html = object.value("html"_L1).toString();
        if (html.isEmpty())
            return badRequest(u"html must not be empty"_s);
        const qint64 bytes = utf8Size(html);
        if (bytes > kMaxHtmlBytes)
            return tooLarge(DeploymentLimits::htmlTooLarge(bytes));
        request.html = std::move(html);
    }
    if (hasFiles) {
        Result<QList<FileUpload>> files = parseFiles(object.value("files"_L1).toArray());
        if (!files)
            return files.error();
        request.files = std::move(files).value();
    }

    if (object.contains("slug"_L1)) {
        const QString slug = presentString(object.value("slug"_L1));
        if (const QString problem = SlugRules::validate(slug); !problem.isEmpty())
            return slugInvalid(problem);
        request.slug = slug;
    }

    const auto stringField = [&object](QLatin1String name, std::optional<QString> &target) {
        const auto value = object.constFind(name);
        if (value == object.constEnd())
            return;
        target = value->isNull() ? QString() : presentString(*value);
    };
    const auto boolField = [&object](QLatin1String name, std::optional<bool> &target) {
        const auto value = object.constFind(name);
        if (value != object.constEnd())
            target = value->toBool();
    };
    stringField("title"_L1, request.title);
    stringField("description"_L1, request.description);
    stringField("favicon"_L1, request.favicon);
    stringField("og_image"_L1, request.ogImage);
    stringField("password"_L1, request.password);
    boolField("is_spa"_L1, request.isSpa);
    boolField("protect"_L1, request.protect);
    boolField("remove_password"_L1, request.removePassword);
    boolField("rotate_share_link"_L1, request.rotateShareLink);
    if (const Result<void> metadata = checkMetadata(request); !metadata)
        return metadata.error();
    return request;
}

} // namespace berth
