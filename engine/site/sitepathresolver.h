#pragma once

#include "domain/siterules/sitetable.h"

namespace berth {

// Which file of a site answers a request path: "/" and directories serve index.html; "/about" and
// "/about/" serve about, about.html or about/index.html (clean URLs); an unknown path serves
// index.html on a single-page app, else the site's own 404.html with status 404.
// Lookups go to the site's in-memory file map only: nothing outside the deployment can be named.
struct SitePathResolution
{
    enum class Outcome
    {
        Found,
        NotFound,
        BadPath
    };
    Outcome outcome = Outcome::NotFound;
    QString path; // the file that answers (Found, or NotFound with a 404.html)
    const SiteFile *file = nullptr;
    int status = 200;
    bool fallback = false; // Found only as a single-page app's index.html: no file of that path exists
};

SitePathResolution resolveSitePath(const Site &site, const QString &requestPath);

} // namespace berth
