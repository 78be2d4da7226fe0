#pragma once

#include "site/siteendpoints.h"

#include <QHostAddress>
#include <QList>

namespace berth {

class CounterService;
class RateLimitService;
class SubmissionService;

// The endpoints every site offers its visitors: POST /_submit stores a form submission, GET /_counter/:name reads
// a counter and POST /_counter/:name/increment adds 1. Per-IP rate limits apply before anything else, so every
// request counts, whatever its body.
class BuiltinEndpoints final : public SiteEndpoints
{
public:
    BuiltinEndpoints(SubmissionService &submissions, CounterService &counters, RateLimitService &limits,
        QList<QHostAddress> trustedProxies);
    Q_DISABLE_COPY_MOVE(BuiltinEndpoints)

    bool claims(const QString &path) const override;
    std::optional<BodyLimit> bodyLimit(const QByteArray &method, const QString &path) const override;
    bool handle(const HttpRequest &request, const Site &site, ResponseSink &sink) override;

    static QString tooLargeMessage(); // the 413 text, also the front door's for these requests

private:
    HttpResponse submit(const HttpRequest &request, const Site &site);
    HttpResponse counter(const HttpRequest &request, const Site &site, QStringView rest);
    QString limiterKey(QStringView scope, const HttpRequest &request) const;

    SubmissionService &m_submissions;
    CounterService &m_counters;
    RateLimitService &m_limits;
    const QList<QHostAddress> m_trustedProxies;
};

} // namespace berth
