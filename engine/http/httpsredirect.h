#pragma once

#include "http/requesthandler.h"

namespace berth {

// What the plain-HTTP port answers when HTTPS is on with --https-redirect: 308 Permanent Redirect to the same host
// and target over HTTPS (method and body are kept by the client, so API calls follow too). Body limits and upload
// authorisation stay those of the real handler, so that the plain port lets in nothing the HTTPS one would refuse.
class HttpsRedirect final : public RequestHandler
{
public:
    HttpsRedirect(RequestHandler &inner, quint16 httpsPort);
    Q_DISABLE_COPY_MOVE(HttpsRedirect)

    void handle(const HttpRequest &request, ResponseSink sink) override;
    BodyLimit bodyLimit(const RequestHead &head) const override { return m_inner.bodyLimit(head); }
    void authorizeUpload(const RequestHead &head, AuthorizationDone done) override
    {
        m_inner.authorizeUpload(head, std::move(done));
    }

    // The Location for a request, or empty when its Host cannot name an HTTPS address.
    static QByteArray location(const HttpRequest &request, quint16 httpsPort);

private:
    RequestHandler &m_inner;
    const quint16 m_httpsPort;
};

} // namespace berth
