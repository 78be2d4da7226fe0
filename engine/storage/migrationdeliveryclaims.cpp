#include "storage/migrationsteps.h"

namespace berth::migrationsteps {

// Version 17: webhook deliveries from several servers sharing one PostgreSQL database. A pending delivery is sent only
// by the server run that claimed it: claimed_by names that run, claimed_until ends its lease (renewed while it sends;
// once past, another server may take the delivery over, so that one that died mid-delivery does not hold it for
// good). last_mail_at: when a mailto: webhook's last mail went, whichever server sent it, so that all of them together
// send at most one a minute.
Migration deliveryClaims()
{
    return {17,
        {
            u"ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT"_s,
            u"ALTER TABLE webhook_deliveries ADD COLUMN claimed_until TEXT"_s,
            u"ALTER TABLE webhooks ADD COLUMN last_mail_at TEXT"_s,
        }};
}

} // namespace berth::migrationsteps
