#pragma once

#include "http/httprequest.h"

#include <QHostAddress>
#include <QList>

namespace berth {

// The address a request came from, for per-IP limits: the TCP peer. Only when the peer is one of the
// trustedProxies (a reverse proxy the operator named) is X-Forwarded-For believed: its entries are read from the
// right, skipping trusted proxies, and the first other address is the client. Anyone else's X-Forwarded-For is
// ignored, so a client cannot pick its own identity. IPv4-mapped IPv6 addresses are read as IPv4.
QHostAddress clientAddress(const HttpRequest &request, const QList<QHostAddress> &trustedProxies);

} // namespace berth
