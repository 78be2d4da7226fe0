#include "httptestclient.h"

#include <QBuffer>
#include <QEventLoop>
#include <QJsonDocument>
#include <QNetworkCookie>
#include <QNetworkCookieJar>
#include <QNetworkReply>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace berth::test {

namespace {
constexpr int kRequestTimeoutMs = 120'000; // generous: large deploys under valgrind or ASan

// Every request goes to 127.0.0.1 whatever its Host, so a real jar would send one site's cookies to
// all of them. Tests pass Cookie headers explicitly instead.
class NoCookieJar final : public QNetworkCookieJar
{
public:
    using QNetworkCookieJar::QNetworkCookieJar;
    QList<QNetworkCookie> cookiesForUrl(const QUrl &) const override { return {}; }
    bool setCookiesFromUrl(const QList<QNetworkCookie> &, const QUrl &) override { return false; }
};
} // namespace

QByteArray TestReply::header(const QByteArray &lowerName) const
{
    for (const auto &header : headers) {
        if (header.first == lowerName)
            return header.second;
    }
    return {};
}

QJsonObject TestReply::json() const
{
    return QJsonDocument::fromJson(body).object();
}

HttpTestClient::HttpTestClient(quint16 port)
    : m_port(port)
{
    m_manager.setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
    m_manager.setCookieJar(new NoCookieJar(&m_manager));
}

QString HttpTestClient::apiHost() const
{
    return u"localhost:%1"_s.arg(m_port);
}

TestReply HttpTestClient::request(const QByteArray &method, const QString &host, const QString &path,
    const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    QNetworkRequest request(QUrl(u"http://127.0.0.1:%1%2"_s.arg(m_port).arg(path), QUrl::StrictMode));
    request.setRawHeader("Host", host.toUtf8());
    for (const auto &header : headers)
        request.setRawHeader(header.first, header.second);
    if (!body.isEmpty() && !request.hasRawHeader("Content-Type"))
        request.setRawHeader("Content-Type", "application/json");
    request.setTransferTimeout(kRequestTimeoutMs);

    QNetworkReply *reply
        = method == "HEAD" ? m_manager.head(request) : m_manager.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();

    TestReply result;
    result.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    result.body = reply->readAll();
    for (const auto &pair : reply->rawHeaderPairs())
        result.headers.append({pair.first.toLower(), pair.second});
    reply->deleteLater();
    return result;
}

TestReply HttpTestClient::api(
    const QByteArray &method, const QString &path, const QByteArray &key, const QByteArray &body)
{
    QList<QPair<QByteArray, QByteArray>> headers;
    if (!key.isEmpty())
        headers.append({"Authorization", "Bearer " + key});
    return request(method, apiHost(), path, body, headers);
}

TestReply HttpTestClient::api(
    const QByteArray &method, const QString &path, const QByteArray &key, const QJsonObject &body)
{
    return api(method, path, key, QJsonDocument(body).toJson(QJsonDocument::Compact));
}

TestReply HttpTestClient::site(const QString &slug, const QString &path, const QByteArray &method,
    const QList<QPair<QByteArray, QByteArray>> &headers)
{
    return request(method, u"%1.localhost:%2"_s.arg(slug).arg(m_port), path, {}, headers);
}

} // namespace berth::test
