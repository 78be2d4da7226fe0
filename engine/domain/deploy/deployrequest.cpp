#include "domain/deploy/deployrequest.h"

#include "domain/common/mimetypes.h"
#include "domain/deploy/deployfields.h"
#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/expiryrules.h"
#include "domain/deploy/filepath.h"
#include "domain/deploy/liftedcontent.h"
#include "domain/deploy/slugrules.h"
#include "storage/blobstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

using DeployFields::badRequest;
using DeployFields::parseFiles;
using DeployFields::tooLarge;

Error slugInvalid(const QString &rule)
{
    return Error {Error::Kind::BadRequest, rule, Error::Code::SlugInvalid};
}

enum class JsonType
{
    String,
    StringOrNull,
    NumberOrNull,
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
    {"publish"_L1, JsonType::Boolean},
    {"expires_at"_L1, JsonType::StringOrNull},
    {"expires_in"_L1, JsonType::NumberOrNull},
    {"domains"_L1, JsonType::Array},
};

bool hasType(const QJsonValue &value, JsonType type)
{
    switch (type) {
    case JsonType::String:
        return value.isString();
    case JsonType::StringOrNull:
        return value.isString() || value.isNull();
    case JsonType::NumberOrNull:
        return value.isDouble() || value.isNull();
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
    case JsonType::NumberOrNull:
        return u"a number or null"_s;
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

Result<void> checkLength(const std::optional<QString> &value, QLatin1String field, int maximum)
{
    if (value && value->size() > maximum)
        return badRequest(u"%1 must be at most %2 characters"_s.arg(field).arg(maximum));
    return {};
}

Result<void> checkMetadata(const DeployRequest &request)
{
    if (request.domains && request.domains->size() > kMaxDomainsPerSite)
        return badRequest(DeploymentLimits::tooManyDomains());
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
            if (const Result<QString> path = FilePath::normalise(file.path); !path)
                return badRequest(path.error().message);
            else if (path.value() != file.path)
                return badRequest(u"file path \"%1\" is not normalised"_s.arg(file.path));
            if (seen.contains(file.path))
                return badRequest(u"duplicate file path \"%1\""_s.arg(file.path));
            seen.insert(file.path);
            if (file.byteSize() > kMaxFileBytes)
                return tooLarge(DeploymentLimits::fileTooLarge(file.path));
            if (file.isReference() && !BlobStore::isValidHash(file.sha256))
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

namespace {

// The body's fields and files, with `lifted` the LiftedContent `body` is the skeleton of (or null).
Result<DeployRequest> parseObject(
    const QJsonObject &object, DeployRequest::Mode mode, LiftedContent *lifted, bool contentApart);

Result<DeployRequest> parseBody(const QByteArray &body, DeployRequest::Mode mode, LiftedContent *lifted)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return badRequest(u"Malformed JSON: "_s + parseError.errorString());
    if (!document.isObject())
        return badRequest(u"Request body must be a JSON object"_s);
    return parseObject(document.object(), mode, lifted, false);
}

// With contentApart, the fields of a deploy whose files come apart from them (an archive upload).
Result<DeployRequest> parseObject(
    const QJsonObject &object, DeployRequest::Mode mode, LiftedContent *lifted, bool contentApart)
{
    if (contentApart && (object.contains("html"_L1) || object.contains("files"_L1)))
        return badRequest(u"html and files come from the archive, not with it"_s);
    if (mode == DeployRequest::Mode::Update && object.contains("slug"_L1))
        return badRequest(u"slug cannot be changed here; use PATCH /deploy/:id/slug"_s);
    if (mode == DeployRequest::Mode::Create && object.contains("remove_password"_L1))
        return badRequest(u"remove_password is only valid on update"_s);
    if (mode == DeployRequest::Mode::Create && object.contains("rotate_share_link"_L1))
        return badRequest(u"rotate_share_link is only valid on update"_s);
    if (mode == DeployRequest::Mode::Create && object.contains("publish"_L1))
        return badRequest(u"publish is only valid on update"_s);
    QList<QLatin1String> allowed;
    for (const KnownField &field : kKnownFields)
        allowed.append(field.name);
    if (const Result<void> names = DeployFields::checkFieldNames(object, allowed, QString()); !names)
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
    if (!hasHtml && !hasFiles && !contentApart && mode == DeployRequest::Mode::Create)
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
        Result<QList<FileUpload>> files = parseFiles(object.value("files"_L1).toArray(), lifted);
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
    boolField("publish"_L1, request.publish);
    if (request.publish == false && !hasHtml && !hasFiles && !contentApart)
        return badRequest(u"\"publish\": false needs html or files: it stores a new version"_s);
    if (request.publish == false
        && (request.protect || request.password || request.removePassword || request.rotateShareLink
            || object.contains("expires_at"_L1) || object.contains("expires_in"_L1)))
        return badRequest(u"\"publish\": false stores content only: change access or expiry in another request"_s);
    if (request.publish == false && object.contains("domains"_L1))
        return badRequest(u"\"publish\": false stores content only: change domains in another request"_s);
    if (const Result<void> expiry = ExpiryRules::parse(object, request); !expiry)
        return expiry.error();
    if (object.contains("domains"_L1)) {
        QStringList domains;
        for (const QJsonValue &domain : object.value("domains"_L1).toArray()) {
            if (!domain.isString())
                return badRequest(u"\"domains\" must be an array of host names"_s);
            domains.append(domain.toString());
        }
        request.domains = std::move(domains);
    }
    if (const Result<void> metadata = checkMetadata(request); !metadata)
        return metadata.error();
    return request;
}

} // namespace

Result<DeployRequest> parseDeployRequest(const QByteArray &body, DeployRequest::Mode mode)
{
    {
        LiftedContent lifted(body);
        Result<DeployRequest> request = parseBody(lifted.skeleton(), mode, &lifted);
        if (request && lifted.allText())
            return request;
    } // what the first pass decoded is released before the second
    // A refusal, or a lifted value that Qt would not have read as the same text: the whole body decides, so that
    // every answer is the one Qt's parse of it gives. A refused body is parsed twice, and so is an accepted one
    // with a long unescaped text content beyond ASCII (rare: encoders escape its line breaks); others once.
    return parseBody(body, mode, nullptr);
}

Result<DeployRequest> parseDeployFields(const QJsonObject &fields, DeployRequest::Mode mode)
{
    return parseObject(fields, mode, nullptr, true);
}

} // namespace berth
