#pragma once

#include "api/apirouter.h"

namespace berth {

class AccountService;
class Clock;

// A signed-in user's own API keys: GET /auth/keys (never a secret), POST /auth/keys (the new key, shown once; it
// expires no later than the key that asks, at most AccountService::kMaxLiveKeysPerUser live keys), DELETE
// /auth/keys/:id (revokes it at once).
class KeysController final
{
public:
    static constexpr int kMaxLabelLength = 100;
    static constexpr int kMaxExpiryDays = 3650;

    KeysController(AccountService &accounts, const Clock &clock);
    Q_DISABLE_COPY_MOVE(KeysController)

    void registerRoutes(ApiRouter &router);

private:
    void list(ApiCall &call);
    void create(ApiCall &call);
    void revoke(ApiCall &call);

    AccountService &m_accounts;
    const Clock &m_clock;
};

} // namespace berth
