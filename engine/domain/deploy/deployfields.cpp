// The files array of a deploy body, and the checks parseDeployRequest shares with it, apart from the rest of the body.
#include "domain/deploy/deployfields.h"

#include "domain/common/mimetypes.h"
#include "domain/deploy/base64decoder.h"
#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/filepath.h"
#include "domain/deploy/liftedcontent.h"
#include "storage/blobstore.h"

#include <QJsonArray>
#include <QSet>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace berth {
namespace DeployFields {

namespace {

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

// Fields a body may carry besides kKnownFields, by mode.
const QLatin1String kFileFields[] = {"path"_L1, "content"_L1, "encoding"_L1, "contentType"_L1, "sha256"_L1};

bool isBase64Space(char16_t c)
{
    return c == u' ' || c == u'\t' || c == u'\r' || c == u'\n';
}

bool hasBase64Space(QStringView text)
{
    return std::any_of(text.begin(), text.end(), [](QChar c) { return isBase64Space(c.unicode()); });
}

// A character of a QString or a byte of the body, as one code for the checks below.
char16_t codeOf(QChar c)
{
    return c.unicode();
}

char16_t codeOf(char c)
{
    return char16_t(uchar(c));
}

// The decoded size of base64 text, counted without decoding, so that an oversized entry fails before its memory is
// spent. Exact for valid input.
template<typename Text>
qint64 base64DecodedSize(Text text)
{
    qint64 significant = 0;
    for (const auto c : text) {
        if (const char16_t code = codeOf(c); !isBase64Space(code) && code != u'=')
            ++significant;
    }
    return significant * 3 / 4;
}

// Four characters stand for three bytes, so three quarters of the length bound the size: counted exactly only near
// the limit.
template<typename Text>
bool base64TooLarge(Text text)
{
    return text.size() * 3 / 4 > kMaxFileBytes && base64DecodedSize(text) > kMaxFileBytes;
}

Result<QByteArray> decodeContent(QString &&text, bool base64, const QString &where, const QString &path)
{
    const auto oversized = [&path] { return tooLarge(DeploymentLimits::fileTooLarge(path)); };
    if (!base64) {
        if (utf8Size(text) > kMaxFileBytes)
            return oversized();
        return text.toUtf8();
    }
    if (base64TooLarge(QStringView(text)))
        return oversized();
    std::optional<QByteArray> decoded = Base64::decode(QStringView(text));
    if (!decoded && hasBase64Space(text)) { // line-wrapped output of tools such as base64(1)
        QByteArray ascii = text.toLatin1(); // characters beyond Latin-1 turn into '?', which is then refused
        text = QString();
        ascii.removeIf([](char c) { return isBase64Space(char16_t(c)); });
        decoded = Base64::decode(QByteArrayView(ascii));
    }
    if (!decoded)
        return badRequest(where + u".content is not valid base64"_s);
    if (decoded->size() > kMaxFileBytes)
        return oversized();
    return std::move(*decoded);
}

// The content of a value lifted out of the body (LiftedContent), read straight from the body's bytes under the same
// rules as decodeContent. Anything but printable ASCII is refused here; the whole body, parsed again, then decides.
Result<QByteArray> decodeLifted(LiftedContent &lifted, qsizetype index, bool base64, const QString &path)
{
    const QByteArrayView bytes = lifted.value(index);
    const auto oversized = [&path] { return tooLarge(DeploymentLimits::fileTooLarge(path)); };
    if (!base64) {
        if (!LiftedContent::isPrintableAscii(bytes))
            return badRequest(u"content is not printable ASCII"_s);
        lifted.markText(index);
        if (bytes.size() > kMaxFileBytes)
            return oversized();
        return bytes.toByteArray();
    }
    if (base64TooLarge(bytes))
        return oversized();
    std::optional<QByteArray> decoded = Base64::decode(bytes);
    if (!decoded) // spaces, which decodeContent removes, or bytes Qt would refuse or read otherwise
        return badRequest(u"content is not plain base64"_s);
    lifted.markText(index); // every byte was in the base64 alphabet
    if (decoded->size() > kMaxFileBytes)
        return oversized();
    return std::move(*decoded);
}

Result<FileUpload> parseFile(const QJsonValue &value, qsizetype index, LiftedContent *lifted)
{
    const QString where = u"files[%1]"_s.arg(index);
    if (!value.isObject())
        return badRequest(where + u" must be an object"_s);
    const QJsonObject entry = value.toObject();
    if (const Result<void> names
        = checkFieldNames(entry, QList<QLatin1String>(std::begin(kFileFields), std::end(kFileFields)), where + u"."_s);
        !names)
        return names.error();

    const QJsonValue pathValue = entry.value("path"_L1);
    if (pathValue.isUndefined() || pathValue.isNull())
        return badRequest(where + u".path is required"_s);
    if (!pathValue.isString())
        return badRequest(where + u".path must be a string"_s);
    Result<QString> path = FilePath::normalise(pathValue.toString());
    if (!path)
        return badRequest(path.error().message);
    FileUpload file;
    file.path = std::move(path).value();

    const QJsonValue contentValue = entry.value("content"_L1);
    const QJsonValue hashValue = entry.value("sha256"_L1);
    const bool hasContent = !contentValue.isUndefined() && !contentValue.isNull();
    if (!hashValue.isUndefined() && !hashValue.isNull()) {
        if (hasContent)
            return badRequest(where + u": provide content or sha256, not both"_s);
        if (!hashValue.isString())
            return badRequest(where + u".sha256 must be a string"_s);
        file.sha256 = hashValue.toString().toLower().toLatin1();
        if (!BlobStore::isValidHash(file.sha256))
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
        QString text = contentValue.toString();
        const std::optional<qsizetype> liftedIndex = lifted ? lifted->indexOf(text) : std::nullopt;
        Result<QByteArray> content = liftedIndex ? decodeLifted(*lifted, *liftedIndex, base64, file.path)
                                                 : decodeContent(std::move(text), base64, where, file.path);
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

} // namespace

Error badRequest(const QString &message)
{
    return Error {Error::Kind::BadRequest, message};
}

Error tooLarge(const QString &message)
{
    return Error {Error::Kind::TooLarge, message};
}

Result<void> checkFieldNames(const QJsonObject &object, const QList<QLatin1String> &known, const QString &where)
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

Result<QList<FileUpload>> parseFiles(const QJsonArray &array, LiftedContent *lifted)
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
        Result<FileUpload> file = parseFile(array.at(i), i, lifted);
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

} // namespace DeployFields
} // namespace berth
