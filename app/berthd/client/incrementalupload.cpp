#include "app/berthd/client/incrementalupload.h"

#include "storage/contentdigest.h"

#include <QJsonArray>
#include <QSet>

using namespace Qt::StringLiterals;

namespace berth::IncrementalUpload {

namespace {

// The entry without its content: the path, the type and the SHA-256 of the decoded bytes.
QJsonObject hashOnly(const QJsonObject &entry)
{
    const QString content = entry.value(u"content"_s).toString();
    const QByteArray bytes = entry.value(u"encoding"_s).toString() == u"base64"_s
        ? QByteArray::fromBase64(content.toLatin1())
        : content.toUtf8();
    QJsonObject hashed {
        {u"path"_s, entry.value(u"path"_s)}, {u"sha256"_s, QString::fromLatin1(ContentDigest::hexOf(bytes))}};
    if (entry.contains(u"contentType"_s))
        hashed.insert(u"contentType"_s, entry.value(u"contentType"_s));
    return hashed;
}

QStringList missingOf(const ApiClient::Reply &reply)
{
    QStringList missing;
    if (reply.status != 409)
        return missing;
    for (const QJsonValue &path : reply.json.value(u"missing"_s).toArray())
        missing.append(path.toString());
    return missing;
}

} // namespace

ApiClient::Reply send(ApiClient &client, const QByteArray &method, const QString &path, const QJsonObject &body,
    bool showProgress, int *sentFiles)
{
    const QJsonArray files = body.value(u"files"_s).toArray();
    if (files.isEmpty())
        return client.request(method, path, body, showProgress);

    QJsonArray hashed;
    for (const QJsonValue &entry : files)
        hashed.append(hashOnly(entry.toObject()));
    QJsonObject attempt = body;
    attempt.insert(u"files"_s, hashed);
    ApiClient::Reply reply = client.request(method, path, attempt, showProgress);
    if (sentFiles)
        *sentFiles = 0;

    // Twice at most: a blob the server held at the first answer may be gone by the second (its last version
    // pruned meanwhile); then everything goes with its content.
    for (int round = 0; round < 2; ++round) {
        const QStringList missing = missingOf(reply);
        if (missing.isEmpty())
            return reply;
        const QSet<QString> wanted(missing.cbegin(), missing.cend());
        QJsonArray mixed;
        int sent = 0;
        for (qsizetype i = 0; i < files.size(); ++i) {
            const bool full = round == 1 || wanted.contains(files.at(i)[u"path"_s].toString());
            mixed.append(full ? files.at(i) : hashed.at(i));
            sent += full ? 1 : 0;
        }
        attempt.insert(u"files"_s, mixed);
        reply = client.request(method, path, attempt, showProgress);
        if (sentFiles)
            *sentFiles = sent;
    }
    return reply;
}

} // namespace berth::IncrementalUpload
