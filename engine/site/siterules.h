#pragma once

#include "http/httpresponse.h"

#include <QString>

namespace berth {

struct Site;
struct RedirectMatch;

// The serving side of a deployment's _redirects and _headers (compiled in Site::make): what a matched rule answers
// and which custom headers a response gets. Runs on the serving threads over the compiled rules only.
namespace SiteRules {

// The answer of a redirect rule: its status and Location (which may name another origin; nothing is fetched).
HttpResponse redirect(const Site &site, const RedirectMatch &match);
// Adds the _headers of `requestPath` to a response for a file of the site. Berth's own protections stay: the
// reserved names were refused at deploy time, and a private site keeps its Cache-Control (no cache policy of the
// rules, CDN-Cache-Control, Surrogate-Control, Expires or Pragma, is sent there).
void applyHeaders(HttpResponse &response, const Site &site, const QString &requestPath);
// A kept version's address is a copy of its site: search engines are asked to leave it out.
void markVersion(HttpResponse &response, const Site &site);

} // namespace SiteRules
} // namespace berth
