#pragma once

#include "http/httprequest.h"

#include <QHostAddress>
#include <QList>
#include <QSet>
#include <QString>

namespace berth {

// The browser origins that are the API's own: its base URL's, and, on each port it listens on with that port's
// scheme, localhost, 127.0.0.1, [::1] and the listening address when it is one address. Scheme, host and port must
// all match: an IP literal of another port or scheme is a stranger's page, as is any other name. /mcp and
// POST /auth/session refuse a stranger's page, so that no web page a local user opens can drive them (DNS
// rebinding, or a page posting to the API on loopback). A request without Origin is not from a page and passes.
class ApiOrigins final
{
public:
    struct Listener
    {
        QString scheme; // "http" or "https"
        quint16 port;
    };

    ApiOrigins() = default;
    Q_DISABLE_COPY_MOVE(ApiOrigins)

    // Once the ports are known, before serving.
    void set(const QString &baseUrl, const QHostAddress &listenAddress, const QList<Listener> &listeners);

    bool allows(const HttpRequest &request) const;
    bool allowsOrigin(const QByteArray &origin) const;

private:
    static QString key(const QString &scheme, const QString &host, int port);

    QSet<QString> m_origins;
};

} // namespace berth
