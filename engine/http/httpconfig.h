#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QtGlobal>

namespace berth {

// Every limit of the HTTP layer is in this file: the fixed protocol limits first, then HttpConfig, what a deployment
// may tune (tests shrink the timeouts).

// Request heads: the framer enforces these before anything is buffered for QtHttpServer.
inline constexpr qsizetype kMaxHeadBytes = 16 * 1024; // request line + header block; 431 beyond
inline constexpr qsizetype kMaxRequestLineBytes = 8 * 1024; // 414 beyond
inline constexpr int kMaxHeaderFields = 100; // 431 beyond (QtNetwork silently drops the rest)
inline constexpr int kMaxContentLengthDigits = 15; // < 1 PB, no overflow in qint64 arithmetic

// What a connection may buffer while it reads a head or while it is held (TCP backpressure beyond that); a request
// body QtHttpServer is reading may use its approved length on top.
inline constexpr qint64 kReadBufferBytes = 64 * 1024;
inline constexpr qint64 kBodySliceBytes = 256 * 1024; // the most of a request body read from a socket at once
// A body its handler takes as it arrives: what may wait for the handler before the guard stops reading.
inline constexpr qint64 kStreamedBodyBytes = 2 * 1024 * 1024;
// After a refusal: keep reading (and dropping) this long / this much, so that a client still sending its body
// reads our answer instead of a connection reset.
inline constexpr int kLingerMs = 2000;
inline constexpr qint64 kLingerMaxBytes = 16 * 1024 * 1024;
// Files are streamed in pieces of this size, with at most this much unsent per connection.
inline constexpr qint64 kStreamPieceBytes = 256 * 1024;
inline constexpr qint64 kMaxStreamUnsentBytes = 1024 * 1024;
// The Retry-After of a 503 from the connection or upload caps: busy now, free again soon.
inline constexpr int kBusyRetryAfterSeconds = 1;

struct HttpConfig
{
    // Threads. 0 serves on the thread that calls listen() (the HTTP unit tests); N > 0 starts N serving threads,
    // each with its own listener on the same port (SO_REUSEPORT), its own front door and its own parser.
    int servingThreads = 0;
    int listenBacklog = 1024; // pending connections the kernel queues per listener

    // Connections.
    int maxConnections = 1000; // live connections in all; beyond: the oldest idle one goes, else 503
    int apiReservedConnections = 50; // of those, kept for the management API (at most half): visitors get 503 first
    int maxConnectionsPerAddress = 64; // per client address (IPv6: per /64); 0: no cap
    QList<QHostAddress> uncappedAddresses; // exempt from the per-address cap (trusted reverse proxies)

    // Time per phase.
    int headerTimeoutMs = 5000; // a header block that does not complete in time: 408
    int bodyStallTimeoutMs = 5000; // a body that stops arriving for this long: 408
    int minBodyBytesPerSecond = 16 * 1024; // a body must arrive at least this fast on average (after a grace of
                                           // bodyStallTimeoutMs): trickled bodies get 408
    int idleTimeoutMs = 8000; // an idle keep-alive connection is closed
    int sendStallTimeoutMs = 60000; // a client that reads nothing of a response for this long is dropped
    int acceptRetryMs = 500; // after an accept error (EMFILE), try accepting again

    // Bytes.
    int maxLargeUploads = 4; // concurrent bodies over largeUploadBytes; beyond: 503
    qint64 largeUploadBytes = 1 << 20;
    qint64 maxUnsentBytes = 1 << 20; // unsent response bytes per connection before its pipelined requests wait

    QByteArray serverHeader = "Berth";
};

} // namespace berth
