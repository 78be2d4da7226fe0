#include "deployfiles.h"

using namespace Qt::StringLiterals;

namespace berth::test {

QJsonObject textFile(const QString &path, const QString &content)
{
    return {{u"path"_s, path}, {u"content"_s, content}};
}

QJsonObject base64File(const QString &path, const QByteArray &content)
{
    return {{u"path"_s, path}, {u"content"_s, QString::fromLatin1(content.toBase64())}, {u"encoding"_s, u"base64"_s}};
}

FileUpload textUpload(const QString &path, const QByteArray &content)
{
    return {path, content, "text/plain; charset=utf-8"};
}

} // namespace berth::test
