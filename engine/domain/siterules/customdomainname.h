#pragma once

#include "core/error.h"

#include <QString>

namespace berth {

class SiteAddresses;

// The rules of a custom domain's name: a host name of at least two labels, stored in its ASCII form (an
// internationalised name through IDNA, QUrl::toAce) and lower case; never a wildcard, an IP address, a name under
// the site domain (those are sites' own addresses), the API's host or a .local name (LAN sharing's). Pure: the
// refusal is a BadRequest whose message names the rule.
namespace CustomDomainName {

Result<QString> normalise(const QString &name, const SiteAddresses &addresses);

} // namespace CustomDomainName
} // namespace berth
