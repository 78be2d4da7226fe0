#pragma once

#include <QByteArray>
#include <QtGlobal>

namespace berth {

// Limits of the front door that a deployment may want to tune (tests shrink the timeouts).
// The fixed protocol limits are named constants in frontdoor.cpp / requestframer.h.
struct HttpConfig
{
    int maxConnections = 1000;           // live connections; beyond: 503 and close
    int headerTimeoutMs = 5000;          // a header block that does not complete in time: 408
    int bodyStallTimeoutMs = 5000;       // a body that stops arriving for this long: 408
    int idleTimeoutMs = 8000;            // an idle keep-alive connection is closed
    int maxLargeUploads = 4;             // concurrent bodies over largeUploadBytes; beyond: 503
    qint64 largeUploadBytes = 1 << 20;
    int acceptRetryMs = 500;             // after an accept error (EMFILE), try accepting again
    int sendStallTimeoutMs = 60000;      // a client that reads nothing of a response for this long is dropped
    QByteArray serverHeader = "Berth";
};

} // namespace berth
