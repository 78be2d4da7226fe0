#include "storage/migrationsteps.h"

namespace berth::migrationsteps {

// Version 14: named share links of private sites. token_hash is the SHA-256 of the token, never the token; opens and
// last_opened_at are added to in batches, off the serving threads. A revoked link stays (revoked 1) so that its token
// and the cookies it gave are refused with the reason; the rows go with their deployment. On PostgreSQL a new or
// revoked link notifies its deployment's id on berth_deployments (as migration 8's trigger does for the deployment's
// row), so that every server reads that site's links again; the counting of opens notifies nobody.
Migration shareLinks()
{
    return {14,
        {
            uR"(CREATE TABLE share_links (
                        id TEXT PRIMARY KEY NOT NULL,
                        deployment_id TEXT NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
                        label TEXT NOT NULL,
                        token_hash TEXT NOT NULL UNIQUE,
                        created_at TEXT NOT NULL,
                        expires_at TEXT,
                        max_opens INTEGER NOT NULL DEFAULT 0,
                        opens BIGINT NOT NULL DEFAULT 0,
                        last_opened_at TEXT,
                        revoked INTEGER NOT NULL DEFAULT 0))"_s,
            u"CREATE INDEX share_links_deployment ON share_links(deployment_id, created_at)"_s,
            pgOnly(uR"(CREATE FUNCTION berth_notify_share_link() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN
                            PERFORM pg_notify('berth_deployments', NEW.deployment_id);
                            RETURN NULL;
                        END $$)"_s),
            pgOnly(uR"(CREATE TRIGGER share_links_notify AFTER INSERT OR UPDATE OF revoked ON share_links
                        FOR EACH ROW EXECUTE FUNCTION berth_notify_share_link())"_s),
        }};
}

} // namespace berth::migrationsteps
