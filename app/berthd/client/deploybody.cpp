#include "app/berthd/client/deploybody.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace berth {

namespace {

// A JSON string, quotes included.
QByteArray quoted(const QString &text)
{
    const QByteArray array = QJsonDocument(QJsonArray {text}).toJson(QJsonDocument::Compact); // ["..."]
    return array.mid(1, array.size() - 2);
}

} // namespace

DeployBody::DeployBody(const QJsonObject &fields, qsizetype files, qint64 contentBytes)
    : m_fields(QJsonDocument(fields).toJson(QJsonDocument::Compact))
{
    m_json.reserve(files * 160 + (contentBytes + 2) / 3 * 4 + m_fields.size() + 16);
    m_json += "{\"files\":[";
}

void DeployBody::open(const FileUpload &file)
{
    if (!m_json.endsWith('['))
        m_json += ',';
    m_json += "{\"path\":" + quoted(file.path);
    if (!file.contentType.isEmpty())
        m_json += ",\"contentType\":" + quoted(QString::fromLatin1(file.contentType));
}

void DeployBody::addDigest(const FileUpload &file)
{
    open(file);
    m_json += ",\"sha256\":\"" + file.sha256 + "\"}";
}

void DeployBody::addContent(const FileUpload &file, const QByteArray &content)
{
    open(file);
    m_json += ",\"encoding\":\"base64\",\"content\":\"";
    m_json += content.toBase64();
    m_json += "\"}";
}

QByteArray DeployBody::finish()
{
    m_json += ']';
    // The fields after the files: "{}" adds nothing, "{"title":...}" adds its members.
    if (m_fields.size() > 2)
        m_json += ',' + m_fields.mid(1);
    else
        m_json += '}';
    return std::move(m_json);
}

} // namespace berth
