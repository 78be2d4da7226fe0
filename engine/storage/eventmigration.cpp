#include "storage/migrationsteps.h"

namespace berth::migrationsteps {

// Version 16: a webhook's health. failing_since: when its current run of failed attempts began (NULL after a
// success); disabled_at: when it was disabled for failing every attempt for days (NULL: enabled). A disabled webhook
// gets no new deliveries until its owner enables it again.
Migration webhookState()
{
    return {16,
        {
            u"ALTER TABLE webhooks ADD COLUMN failing_since TEXT"_s,
            u"ALTER TABLE webhooks ADD COLUMN disabled_at TEXT"_s,
        }};
}

} // namespace berth::migrationsteps
