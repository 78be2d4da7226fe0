#pragma once

#include <QHostAddress>
#include <QString>

namespace berth {

// A listen address as people type it: "127.0.0.1:8080", "0.0.0.0:80", "[::1]:8080", or a bare port
// (loopback). False, leaving the outputs alone, for anything else or a port over 65535.
bool parseListenAddress(const QString &text, QHostAddress *address, quint16 *port);

} // namespace berth
