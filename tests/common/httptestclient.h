#pragma once

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QNetworkAccessManager>
#include <QPair>
#include <QString>

namespace berth::test {

struct TestReply
{
    int status = 0; // 0: no HTTP response (connection failed or closed)
    QByteArray body;
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased

    QByteArray header(const QByteArray &lowerName) const;
    QJsonObject json() const;
    QString error() const { return json().value(QStringLiteral("error")).toString(); }
};

// A real HTTP client over loopback (QNetworkAccessManager) that lets each request name its Host,
// so one test server answers the API host and any site host. Waits with an event loop, never sleeps.
class HttpTestClient
{
public:
    explicit HttpTestClient(quint16 port);

    TestReply request(const QByteArray &method, const QString &host, const QString &path, const QByteArray &body = {},
        const QList<QPair<QByteArray, QByteArray>> &headers = {});
    // The API host ("localhost:<port>") with a Bearer key and a JSON body.
    TestReply api(const QByteArray &method, const QString &path, const QByteArray &key, const QByteArray &body = {});
    TestReply api(const QByteArray &method, const QString &path, const QByteArray &key, const QJsonObject &body);
    // GET (or another method) on http://<slug>.localhost:<port><path>.
    TestReply site(const QString &slug, const QString &path = QStringLiteral("/"), const QByteArray &method = "GET",
        const QList<QPair<QByteArray, QByteArray>> &headers = {});

    quint16 port() const { return m_port; }
    QString apiHost() const;

private:
    quint16 m_port;
    QNetworkAccessManager m_manager;
};

} // namespace berth::test
