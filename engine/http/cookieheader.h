#pragma once

#include <QByteArray>
#include <QByteArrayView>

namespace berth {

// The Cookie request header (RFC 6265, 5.4): "name=value" pairs separated by ';'.

// The value of the first cookie called `name` (case-sensitive), without surrounding whitespace; empty when there
// is none. Pairs are split at every ';' and nothing is unquoted: a value is compared only with what Berth issued.
QByteArray cookieValue(QByteArrayView cookieHeader, QByteArrayView name);

// Adds one more Cookie field's value to the fields joined so far, with "; " between them (RFC 9113, 8.2.3); an
// empty value adds nothing.
void appendCookieField(QByteArray &joined, QByteArrayView value);

} // namespace berth
