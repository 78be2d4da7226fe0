#pragma once

#include <QString>
#include <optional>

namespace berth::EmailAddress {

// An address as Berth keeps it: trimmed and lower-cased, or nullopt when it is not a plain "local@domain" (at most
// 254 characters, no spaces, quotes, angle brackets or line breaks, a domain of letters, digits, hyphens and
// dots). Strict on purpose: the address goes into a mail header.
std::optional<QString> normalised(const QString &address);

} // namespace berth::EmailAddress
