#include "app/berthd/client/incrementalupload.h"

#include "app/berthd/client/archivebody.h"
#include "app/berthd/client/deploybody.h"
#include "domain/deploy/folderreader.h"

#include <QJsonArray>
#include <QSet>

using namespace Qt::StringLiterals;

namespace berth::IncrementalUpload {

namespace {

QSet<QString> missingOf(const ApiClient::Reply &reply)
{
    QSet<QString> missing;
    if (reply.status != 409)
        return missing;
    for (const QJsonValue &path : reply.json.value(u"missing"_s).toArray())
        missing.insert(path.toString());
    return missing;
}

} // namespace

Result<ApiClient::Reply> send(ApiClient &client, const QByteArray &method, const QString &path,
    const QJsonObject &fields, const FolderContent &folder, bool showProgress, int *sentFiles)
{
    if (!folder.content.files)
        return client.request(method, path, fields, showProgress);

    const QList<FileUpload> &files = *folder.content.files;
    DeployBody body(fields, files.size());
    for (const FileUpload &file : files)
        body.addDigest(file);
    ApiClient::Reply reply = client.requestJson(method, path, body.finish(), showProgress);
    if (sentFiles)
        *sentFiles = 0;

    // Twice at most: a blob the server held at the first answer may be gone by the second (its last version
    // pruned meanwhile); then everything goes with its content.
    for (int round = 0; round < 2; ++round) {
        const QSet<QString> wanted = missingOf(reply);
        if (wanted.isEmpty())
            return reply;
        qint64 contentBytes = 0;
        qint64 totalBytes = 0;
        for (const FileUpload &file : files) {
            contentBytes += round == 1 || wanted.contains(file.path) ? file.size : 0;
            totalBytes += file.size;
        }
        // When the server lacks most of it, files and bytes (a first publish, which may still share a page or an
        // icon with another site), the whole folder goes as an archive: sending again the little it holds costs less
        // than base64 and JSON to build and to parse, and the server stores each file while the rest arrives.
        const bool mostOfIt = round == 1 || (wanted.size() * 2 > files.size() && contentBytes * 2 >= totalBytes);
        if (const auto query = ArchiveBody::queryOf(fields); query && mostOfIt) {
            const Result<QByteArray> archive = ArchiveBody::tarOf(folder);
            if (!archive)
                return archive.error();
            if (sentFiles)
                *sentFiles = int(files.size());
            return client.send(method, query->isEmpty() ? path : path + u'?' + *query, archive.value(),
                {qMakePair(QByteArray("Content-Type"), QByteArray("application/x-tar"))}, showProgress);
        }
        DeployBody mixed(fields, files.size(), contentBytes);
        int sent = 0;
        for (qsizetype i = 0; i < files.size(); ++i) {
            if (round == 0 && !wanted.contains(files.at(i).path)) {
                mixed.addDigest(files.at(i));
                continue;
            }
            const Result<QByteArray> content = FolderReader::contentOf(folder, i);
            if (!content)
                return content.error();
            mixed.addContent(files.at(i), content.value());
            ++sent;
        }
        reply = client.requestJson(method, path, mixed.finish(), showProgress);
        if (sentFiles)
            *sentFiles = sent;
    }
    return reply;
}

} // namespace berth::IncrementalUpload
