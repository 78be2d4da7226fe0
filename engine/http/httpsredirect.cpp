#include "http/httpsredirect.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {

// A host name or an IPv4 literal (letters, digits, '-', '.', '_'), or a bracketed IPv6 literal: nothing that could
// end the authority early or smuggle a path, userinfo or a header into the Location.
bool isPlainHost(const QString &host)
{
    if (host.isEmpty() || host.size() > 255)
        return false;
    if (host.startsWith(u'[')) {
        if (!host.endsWith(u']') || host.size() < 4)
            return false;
        for (const QChar c : QStringView(host).sliced(1, host.size() - 2)) {
            if (!(c.isDigit() || (c >= u'a' && c <= u'f') || c == u':' || c == u'.'))
                return false;
        }
        return true;
    }
    for (const QChar c : host) {
        if (!((c >= u'a' && c <= u'z') || c.isDigit() || c == u'-' || c == u'.' || c == u'_'))
            return false;
    }
    return true;
}

} // namespace

HttpsRedirect::HttpsRedirect(RequestHandler &inner, quint16 httpsPort)
    : m_inner(inner)
    , m_httpsPort(httpsPort)
{
}

QByteArray HttpsRedirect::location(const HttpRequest &request, quint16 httpsPort)
{
    const QString host = request.host(); // lower-cased, port stripped
    if (!isPlainHost(host))
        return {};
    QByteArray target = request.target;
    if (!target.startsWith('/')) {
        // absolute-form ("http://host/path") keeps its path; asterisk-form and anything else go to the root
        const qsizetype scheme = target.indexOf("://");
        const qsizetype path = scheme < 0 ? -1 : target.indexOf('/', scheme + 3);
        target = path < 0 ? QByteArray("/") : target.sliced(path);
    }
    QByteArray location = "https://" + host.toLatin1();
    if (httpsPort != 443)
        location += ':' + QByteArray::number(httpsPort);
    return location + target;
}

void HttpsRedirect::handle(const HttpRequest &request, ResponseSink sink)
{
    // ACME's HTTP-01 is answered on the plain port itself: a CA follows a redirect only to port 443.
    if (request.path.startsWith(u"/.well-known/acme-challenge/"_s)) {
        m_inner.handle(request, std::move(sink));
        return;
    }
    const QByteArray target = location(request, m_httpsPort);
    if (target.isEmpty()) {
        sink.send(HttpResponse::jsonError(400, u"Missing or invalid Host header"_s));
        return;
    }
    HttpResponse response = HttpResponse::bytes(308, "text/plain; charset=utf-8", "Use HTTPS: " + target + '\n');
    response.setHeader("Location", target);
    // Browsers keep permanent redirects; an hour bounds how long one outlives turning HTTPS off again.
    response.setHeader("Cache-Control", "max-age=3600");
    sink.send(std::move(response));
}

} // namespace berth
