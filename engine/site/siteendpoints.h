#pragma once

#include "http/requesthandler.h"

#include <optional>

namespace berth {

struct Site;

// The built-in endpoints every site offers (/_submit, /_counter/...). SiteServer asks them first,
// after the site's access check, so a private site's endpoints need the same access as its pages.
class SiteEndpoints
{
public:
    virtual ~SiteEndpoints() = default;

    // Whether a path is one of the built-in endpoints. Called on a serving thread: must not wait.
    virtual bool claims(const QString &path) const = 0;
    // The body limit of a request to one of the endpoints, nullopt for any other request. On a serving thread too.
    virtual std::optional<BodyLimit> bodyLimit(const QByteArray &method, const QString &path) const = 0;
    // Answers and returns true when the request's path is one of the built-in endpoints; returns
    // false (sending nothing) for any other path. Called on the engine's thread.
    virtual bool handle(const HttpRequest &request, const Site &site, ResponseSink &sink) = 0;
};

} // namespace berth
