#include "storage/databaseurl.h"

#include <QStringList>
#include <QUrl>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// The libpq connection parameters a URL may carry besides host: TLS, timeouts and session settings (options, e.g.
// "-c search_path=berth" for a schema of its own), nothing that reads a password from elsewhere.
const QStringList kAllowedOptions = {u"sslmode"_s, u"sslrootcert"_s, u"sslcert"_s, u"sslkey"_s, u"connect_timeout"_s,
    u"application_name"_s, u"options"_s};
// Short: a connect (at start, or the reconnect after an outage) runs on the engine thread and holds it up that long.
constexpr int kDefaultConnectTimeoutSeconds = 2;

Error invalid(const QString &why)
{
    return {Error::Kind::BadRequest, u"invalid database URL: %1"_s.arg(why)};
}

} // namespace

bool DatabaseUrl::isServerUrl(const QString &text)
{
    return text.startsWith(u"postgresql://"_s, Qt::CaseInsensitive)
        || text.startsWith(u"postgres://"_s, Qt::CaseInsensitive);
}

Result<DatabaseUrl> DatabaseUrl::parse(const QString &text)
{
    if (!isServerUrl(text))
        return invalid(u"it must start with postgresql://"_s);
    const QUrl url(text, QUrl::StrictMode);
    // QUrl's own error text repeats the URL, password included: only say that it is malformed.
    if (!url.isValid())
        return invalid(u"it is not a well-formed URL"_s);
    DatabaseUrl result;
    result.host = url.host(QUrl::FullyDecoded);
    result.port = url.port(5432);
    result.user = url.userName(QUrl::FullyDecoded);
    result.password = url.password(QUrl::FullyDecoded);
    result.name = url.path(QUrl::FullyDecoded).mid(1);
    if (result.name.isEmpty() || result.name.contains(u'/'))
        return invalid(u"it must name one database (postgresql://user@host/dbname)"_s);

    QStringList options;
    bool hasTimeout = false;
    const QUrlQuery query(url);
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded)) {
        if (key == u"host"_s) {
            result.host = value;
            continue;
        }
        if (!kAllowedOptions.contains(key))
            return invalid(u"unsupported parameter %1 (supported: host, %2)"_s.arg(key, kAllowedOptions.join(u", "_s)));
        // QPSQL turns ';' into the space between parameters, so a value cannot hold one; the rest is quoted as
        // libpq's conninfo syntax wants.
        if (value.contains(u';'))
            return invalid(u"the value of %1 contains a semicolon"_s.arg(key));
        QString quoted = value;
        quoted.replace(u"\\"_s, u"\\\\"_s).replace(u"'"_s, u"\\'"_s);
        options << u"%1='%2'"_s.arg(key, quoted);
        hasTimeout = hasTimeout || key == u"connect_timeout"_s;
    }
    // Without one, libpq waits for an unreachable server as long as TCP does.
    if (!hasTimeout)
        options << u"connect_timeout='%1'"_s.arg(kDefaultConnectTimeoutSeconds);
    result.connectOptions = options.join(u';');
    return result;
}

QString DatabaseUrl::redacted() const
{
    const QString who = user.isEmpty() ? QString() : user + u'@';
    // A socket folder (or libpq's default socket) goes in the query, as it came.
    if (host.isEmpty() || host.startsWith(u'/'))
        return u"postgresql://%1/%2%3"_s.arg(who, name, host.isEmpty() ? QString() : u"?host="_s + host);
    return u"postgresql://%1%2:%3/%4"_s.arg(who, host).arg(port).arg(name);
}

} // namespace berth
