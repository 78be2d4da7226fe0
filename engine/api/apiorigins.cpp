#include "api/apiorigins.h"

#include <QUrl>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

int defaultPort(const QString &scheme)
{
    return scheme == u"https" ? 443 : 80;
}

} // namespace

QString ApiOrigins::key(const QString &scheme, const QString &host, int port)
{
    return scheme + u"://"_s + host + u':' + QString::number(port);
}

void ApiOrigins::set(const QString &baseUrl, const QHostAddress &listenAddress, const QList<Listener> &listeners)
{
    m_origins.clear();
    const QUrl base(baseUrl);
    if (const QString scheme = base.scheme().toLower(); !base.host().isEmpty())
        m_origins.insert(key(scheme, base.host().toLower(), base.port(defaultPort(scheme))));
    QStringList hosts {u"localhost"_s, u"127.0.0.1"_s, u"::1"_s};
    const bool oneAddress = listenAddress != QHostAddress::Any && listenAddress != QHostAddress::AnyIPv4
        && listenAddress != QHostAddress::AnyIPv6 && !listenAddress.isNull();
    if (oneAddress)
        hosts.append(listenAddress.toString().toLower());
    for (const Listener &listener : listeners) {
        for (const QString &host : std::as_const(hosts))
            m_origins.insert(key(listener.scheme, host, listener.port));
    }
}

bool ApiOrigins::allows(const HttpRequest &request) const
{
    return !request.hasHeader("origin") || allowsOrigin(request.header("origin"));
}

bool ApiOrigins::allowsOrigin(const QByteArray &origin) const
{
    // An Origin is scheme://host[:port] and nothing else ("null" from sandboxed pages and files included).
    const QUrl url(QString::fromLatin1(origin), QUrl::StrictMode);
    const QString scheme = url.scheme().toLower();
    if (!url.isValid() || (scheme != u"http" && scheme != u"https") || url.host().isEmpty() || !url.userInfo().isEmpty()
        || !url.path().isEmpty() || url.hasQuery() || url.hasFragment())
        return false;
    return m_origins.contains(key(scheme, url.host().toLower(), url.port(defaultPort(scheme))));
}

} // namespace berth
