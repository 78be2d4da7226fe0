#pragma once

#include "http/requesthandler.h"

#include <QHostAddress>
#include <QList>

namespace berth {

class TrafficCounter;
struct Site;

// Tells a site's TrafficCounter what each answer was: a page view (a successful GET of an HTML document by a
// visitor), a 404 a visitor got, or only bytes. Not visitors: HEAD, 304 revalidations, prefetches marked as such
// (Sec-Purpose or Purpose: prefetch) and clients whose user agent is empty or names itself a bot (isBot). Runs on
// the serving threads.
class TrafficRecorder final
{
public:
    TrafficRecorder(TrafficCounter &counter, QList<QHostAddress> trustedProxies);
    Q_DISABLE_COPY_MOVE(TrafficRecorder)

    // Counts the response the sink will carry, on the connection's thread when it is sent.
    void watch(const HttpRequest &request, const Site &site, ResponseSink &sink);

    // Whether a user agent is a program rather than a person's browser: a case-insensitive match of a few words
    // (bot, crawl, spider, curl, wget, ...), or empty.
    static bool isBot(QByteArrayView userAgent);

private:
    TrafficCounter &m_counter;
    const QList<QHostAddress> m_trustedProxies;
};

} // namespace berth
