#pragma once

#include "domain/deploy/deployrequest.h"

#include <QByteArray>
#include <QJsonObject>

namespace berth {

// The JSON of a deploy body with files, written straight into the bytes that are sent: a folder's 50 MB go from
// the file to base64 once, never through a QJsonObject (a QString of UTF-16, then UTF-8 again).
class DeployBody final
{
public:
    // fields: the body's other members (title, slug, ...); files and contentBytes: what is to come, to make room once.
    DeployBody(const QJsonObject &fields, qsizetype files, qint64 contentBytes = 0);

    // The file named by its SHA-256 (file.sha256): content the server holds already.
    void addDigest(const FileUpload &file);
    // The file with its content, base64.
    void addContent(const FileUpload &file, const QByteArray &content);
    // The body, once.
    QByteArray finish();

private:
    void open(const FileUpload &file);

    QByteArray m_fields; // compact JSON of the fields, "{...}"
    QByteArray m_json;
};

} // namespace berth
