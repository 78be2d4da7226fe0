#include "app/berthd/client/apiclient.h"

#include <QEventLoop>
#include <QHostAddress>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kTransferTimeoutMs = 120'000; // no byte moving for this long: give up
constexpr qint64 kProgressFromBytes = 1024 * 1024;
} // namespace

ApiClient::ApiClient(QUrl baseUrl)
    : m_baseUrl(std::move(baseUrl))
{
    m_manager.setAutoDeleteReplies(false);
}

bool ApiClient::isLoopback() const
{
    const QString host = m_baseUrl.host().toLower();
    return host == u"localhost"_s || QHostAddress(host).isLoopback();
}

ApiClient::Reply ApiClient::request(
    const QByteArray &method, const QString &path, const std::optional<QJsonObject> &body, bool showProgress)
{
    if (!body)
        return exchange(method, path, {}, {}, false);
    return requestJson(method, path, QJsonDocument(*body).toJson(QJsonDocument::Compact), showProgress);
}

ApiClient::Reply ApiClient::requestJson(
    const QByteArray &method, const QString &path, const QByteArray &body, bool showProgress)
{
    return exchange(method, path, body, {qMakePair(QByteArray("Content-Type"), QByteArray("application/json"))},
        showProgress && body.size() >= kProgressFromBytes);
}

ApiClient::Reply ApiClient::send(const QByteArray &method, const QString &path, const QByteArray &body,
    const QList<QPair<QByteArray, QByteArray>> &headers, bool showProgress)
{
    return exchange(method, path, body, headers, showProgress && body.size() >= kProgressFromBytes);
}

ApiClient::Reply ApiClient::exchange(const QByteArray &method, const QString &path, const QByteArray &body,
    const QList<QPair<QByteArray, QByteArray>> &headers, bool progress)
{
    QUrl url = m_baseUrl;
    const qsizetype queryMark = path.indexOf(u'?'); // "/deploy/x/submissions?format=csv"
    url.setPath(m_baseUrl.path().chopped(m_baseUrl.path().endsWith(u'/') ? 1 : 0) + path.left(queryMark));
    if (queryMark >= 0)
        url.setQuery(path.mid(queryMark + 1));
    QNetworkRequest request(url);
    request.setTransferTimeout(kTransferTimeoutMs);
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    if (!m_key.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_key);

    QNetworkReply *reply = m_manager.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    if (progress) {
        QObject::connect(reply, &QNetworkReply::uploadProgress, reply, [](qint64 sent, qint64 total) {
            if (total <= 0)
                return;
            QTextStream err(stderr);
            err << "\rUploading " << (sent * 100 / total) << "% (" << (sent / 1024) << " of " << (total / 1024)
                << " KiB)" << (sent == total ? "\n" : "");
        });
    }
    loop.exec();

    Reply result;
    const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    result.reached = status.isValid();
    result.status = status.toInt();
    result.body = reply->readAll();
    result.sessionId = reply->rawHeader("Mcp-Session-Id");
    result.json = QJsonDocument::fromJson(result.body).object();
    if (!result.reached)
        result.networkError = reply->errorString();
    reply->deleteLater();
    return result;
}

} // namespace berth
