#pragma once

#include "core/error.h"

#include <QHostAddress>
#include <QList>
#include <QString>

namespace berth {

// Listening sockets for the serving threads: one per thread on the same address and port. With more than one,
// each carries SO_REUSEPORT so that the kernel spreads new connections over them; a plain bind probes the port
// first, so a port that another process already serves is refused instead of shared.
struct ListenSockets
{
    QList<int> descriptors; // listening, non-blocking, close-on-exec
    quint16 port = 0;

    // count sockets, or why not (the port is taken, say): nothing stays open on failure.
    static Result<ListenSockets> open(const QHostAddress &address, quint16 port, int count, int backlog);
    void closeAll();
};

} // namespace berth
