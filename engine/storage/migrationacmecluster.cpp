#include "storage/migrationsteps.h"

namespace berth::migrationsteps {

// Version 18: certificates by ACME shared by the servers of one PostgreSQL database, so that one orders a name and
// all serve it. A name's row holds its state as the API shows it, the issued chain and its key (as private as the rest
// of the database), and the lease of the one server ordering it (lease_until in ms since the epoch, compared with
// arithmetic). A change to a row is announced on the channel berth_acme, inside the writing transaction. The HTTP-01
// answers of orders in flight are rows too, so that whichever server the CA reaches can answer. SQLite has one
// server: the tables exist there too, for one schema, and stay empty.
Migration acmeCluster()
{
    return {18,
        {
            uR"(CREATE TABLE acme_certificates (
                        name TEXT PRIMARY KEY NOT NULL,
                        state TEXT NOT NULL,
                        chain_pem TEXT,
                        key_pem TEXT,
                        expires_at TEXT,
                        error TEXT,
                        next_attempt_at TEXT,
                        failures INTEGER NOT NULL DEFAULT 0,
                        lease_holder TEXT,
                        lease_until BIGINT NOT NULL DEFAULT 0,
                        updated_at TEXT NOT NULL))"_s,
            uR"(CREATE TABLE acme_challenges (
                        token TEXT PRIMARY KEY NOT NULL,
                        key_authorization TEXT NOT NULL,
                        created_at TEXT NOT NULL))"_s,
            pgOnly(uR"(CREATE FUNCTION berth_notify_acme() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN
                            PERFORM pg_notify('berth_acme', NEW.name);
                            RETURN NULL;
                        END $$)"_s),
            pgOnly(uR"(CREATE TRIGGER acme_certificates_notify AFTER INSERT OR UPDATE ON acme_certificates
                        FOR EACH ROW EXECUTE FUNCTION berth_notify_acme())"_s),
        }};
}

} // namespace berth::migrationsteps
