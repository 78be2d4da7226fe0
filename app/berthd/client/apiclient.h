#pragma once

#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QUrl>
#include <optional>

namespace berth {

// A blocking client of a running instance's HTTP API, for berthd's client commands (deploy, list, mcp, ...): one
// request at a time, each waited for with a local event loop.
class ApiClient final
{
public:
    struct Reply
    {
        bool reached = false; // false: no HTTP answer (refused, unresolvable, timed out); see networkError
        int status = 0;
        QJsonObject json;
        QByteArray body;
        QByteArray sessionId; // Mcp-Session-Id, when the answer carries one
        QString networkError;

        QString error() const { return json.value(QLatin1String("error")).toString(); }
    };

    explicit ApiClient(QUrl baseUrl);
    Q_DISABLE_COPY_MOVE(ApiClient)

    QUrl baseUrl() const { return m_baseUrl; }
    void setKey(const QByteArray &key) { m_key = key; }
    QByteArray key() const { return m_key; }
    bool isLoopback() const; // the base URL names this machine

    // path may end in a query ("?format=csv"). body: sent as JSON when set. showProgress: upload progress on standard
    // error (for a terminal).
    Reply request(const QByteArray &method, const QString &path, const std::optional<QJsonObject> &body = {},
        bool showProgress = false);
    // body: JSON already written (a deploy body, DeployBody).
    Reply requestJson(const QByteArray &method, const QString &path, const QByteArray &body, bool showProgress);
    // A raw body with extra headers (the MCP proxy, a deploy's archive); its upload's progress shown as request's.
    Reply send(const QByteArray &method, const QString &path, const QByteArray &body,
        const QList<QPair<QByteArray, QByteArray>> &headers, bool showProgress = false);

private:
    Reply exchange(const QByteArray &method, const QString &path, const QByteArray &body,
        const QList<QPair<QByteArray, QByteArray>> &headers, bool progress);

    QUrl m_baseUrl;
    QByteArray m_key;
    QNetworkAccessManager m_manager;
};

} // namespace berth
