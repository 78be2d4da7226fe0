#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QList>

namespace berth {

// The Cookie request header (RFC 6265, 5.4): "name=value" pairs separated by ';'.

// The value of the first cookie called `name` (case-sensitive), without surrounding whitespace; empty when there
// is none. Pairs are split at every ';' and nothing is unquoted: a value is compared only with what Berth issued.
QByteArray cookieValue(QByteArrayView cookieHeader, QByteArrayView name);
// The values of every cookie called `name`, in the order sent, at most `maxValues` of them: a browser sends
// several cookies of one name when they differ in domain or path, and which one comes first is not a choice of the
// site that set it.
QList<QByteArray> cookieValues(QByteArrayView cookieHeader, QByteArrayView name, qsizetype maxValues);

// Adds one more Cookie field's value to the fields joined so far, with "; " between them (RFC 9113, 8.2.3); an
// empty value adds nothing.
void appendCookieField(QByteArray &joined, QByteArrayView value);

} // namespace berth
