#include "app/berthd/client/sitefolder.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace berth::SiteFolder {

Result<Content> read(const QString &path)
{
    Result<FolderContent> folder = FolderReader::read(path);
    if (!folder)
        return folder.error();
    Content content {std::move(folder).value(), {}};
    if (content.folder.singleHtml) {
        content.fields.insert(u"html"_s, *content.folder.content.html);
        return content;
    }
    QJsonArray files;
    for (FileUpload &file : *content.folder.content.files) {
        files.append(QJsonObject {{u"path"_s, file.path}, {u"content"_s, QString::fromLatin1(file.content.toBase64())},
            {u"encoding"_s, u"base64"_s}, {u"contentType"_s, QString::fromLatin1(file.contentType)}});
        file.content.clear(); // the body holds it now: a 50 MB folder is not kept twice
    }
    content.fields.insert(u"files"_s, files);
    return content;
}

} // namespace berth::SiteFolder
