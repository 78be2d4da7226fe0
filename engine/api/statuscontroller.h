#pragma once

#include "api/apirouter.h"

namespace berth {

class SiteAddresses;

// GET / on the API host: what this instance is and where things are. A browser gets a small page
// with the way to sign in; a script gets JSON. Public, so a health check needs no key.
class StatusController final
{
public:
    explicit StatusController(const SiteAddresses &addresses);
    Q_DISABLE_COPY_MOVE(StatusController)

    void registerRoutes(ApiRouter &router);

private:
    void status(ApiCall &call);

    const SiteAddresses &m_addresses;
};

} // namespace berth
