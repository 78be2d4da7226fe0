#pragma once

#include <QByteArray>

namespace berth {

// The Berth-Signature header of a delivery: "t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>".
// A receiver recomputes v1 from the body it got and rejects old t values, so a captured delivery cannot be replayed
// later.
QByteArray webhookSignature(const QByteArray &secret, qint64 unixSeconds, const QByteArray &body);

} // namespace berth
