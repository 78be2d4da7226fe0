#include "storage/migrationsteps.h"

namespace berth {

namespace migrationsteps {

// Version 1: accounts, deployments and their content-addressed file lists, settings.
Migration initialSchema()
{
    return {1,
        {
            pgOnly(u"CREATE EXTENSION IF NOT EXISTS citext"_s),
            // COLLATE NOCASE: one account per address however it is capitalised, and findByEmail can use
            // the index. NULL emails (agents, an owner without one) never collide.
            withPg(uR"(CREATE TABLE users (
                        id TEXT PRIMARY KEY NOT NULL,
                        email TEXT UNIQUE COLLATE NOCASE,
                        plan TEXT NOT NULL,
                        is_owner INTEGER NOT NULL DEFAULT 0,
                        created_at TEXT NOT NULL))"_s,
                {{u"TEXT UNIQUE COLLATE NOCASE"_s, u"CITEXT UNIQUE"_s}}),
            // At most one instance owner.
            u"CREATE UNIQUE INDEX users_single_owner ON users(is_owner) WHERE is_owner <> 0"_s,
            uR"(CREATE TABLE api_keys (
                        id TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        key_hash TEXT NOT NULL UNIQUE,
                        label TEXT NOT NULL DEFAULT '',
                        created_at TEXT NOT NULL,
                        last_used_at TEXT,
                        expires_at TEXT,
                        revoked_at TEXT))"_s,
            u"CREATE INDEX api_keys_user ON api_keys(user_id)"_s,
            uR"(CREATE TABLE deployments (
                        id TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        slug TEXT NOT NULL UNIQUE,
                        storage_type TEXT NOT NULL,
                        is_spa INTEGER NOT NULL,
                        title TEXT NOT NULL,
                        description TEXT,
                        favicon TEXT NOT NULL,
                        og_image TEXT NOT NULL,
                        protected INTEGER NOT NULL,
                        password_hash TEXT,
                        share_token TEXT,
                        version_id INTEGER,
                        created_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL))"_s,
            u"CREATE INDEX deployments_user ON deployments(user_id, updated_at)"_s,
            withPg(uR"(CREATE TABLE versions (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        deployment_id TEXT NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
                        created_at TEXT NOT NULL))"_s,
                {{u"INTEGER PRIMARY KEY AUTOINCREMENT"_s, kPgIdentity}}),
            u"CREATE INDEX versions_deployment ON versions(deployment_id)"_s,
            uR"(CREATE TABLE files (
                        version_id INTEGER NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
                        path TEXT NOT NULL,
                        blob TEXT NOT NULL,
                        size INTEGER NOT NULL,
                        content_type TEXT NOT NULL,
                        PRIMARY KEY (version_id, path)))"_s,
            u"CREATE INDEX files_blob ON files(blob)"_s,
            uR"(CREATE TABLE settings (
                        key TEXT PRIMARY KEY NOT NULL,
                        value TEXT NOT NULL))"_s,
        }};
}

// Version 2: what visitors leave on a site (form submissions, counters). Every row hangs off its deployment with
// ON DELETE CASCADE, so deleting a deployment deletes them in the same statement.
Migration siteEndpoints()
{
    return {2,
        {
            // seq orders submissions by arrival (timestamps can tie); id is the public "sub_..." name.
            withPg(uR"(CREATE TABLE submissions (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        id TEXT NOT NULL UNIQUE,
                        deployment_id TEXT NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
                        data TEXT NOT NULL,
                        created_at TEXT NOT NULL))"_s,
                {{u"INTEGER PRIMARY KEY AUTOINCREMENT"_s, kPgBigIdentity}}),
            u"CREATE INDEX submissions_deployment ON submissions(deployment_id, seq)"_s,
            // Today's accepted submissions per deployment: the daily limit survives restarts, deletions
            // and pruning. One row per deployment, reset when the day changes.
            uR"(CREATE TABLE submission_days (
                        deployment_id TEXT PRIMARY KEY NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
                        day TEXT NOT NULL,
                        count INTEGER NOT NULL))"_s,
            // SQLite's INTEGER is 64 bits; PostgreSQL's is 32.
            withPg(uR"(CREATE TABLE counters (
                        deployment_id TEXT NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
                        name TEXT NOT NULL,
                        value INTEGER NOT NULL,
                        created_at TEXT NOT NULL,
                        updated_at TEXT NOT NULL,
                        PRIMARY KEY (deployment_id, name)))"_s,
                {{u"value INTEGER"_s, u"value BIGINT"_s}}),
        }};
}

// Version 3: signing in. Who may sign in (the allow-list), the sign-in codes on their way, and the claim tokens that
// hand an agent's deployments to an account.
Migration signIn()
{
    return {3,
        {
            withPg(uR"(CREATE TABLE signin_allowlist (
                        email TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
                        added_at TEXT NOT NULL))"_s,
                {{u"TEXT PRIMARY KEY NOT NULL COLLATE NOCASE"_s, u"CITEXT PRIMARY KEY NOT NULL"_s}}),
            // One row per email: its latest request, refused ones included, so that every request does
            // the same writes whoever asks. code_hash is a salted SHA-256; relay_code holds the plain code
            // only while the owner has to pass it on (no SMTP, or delivery failed). Expired rows are
            // deleted with the next request.
            withPg(uR"(CREATE TABLE signin_requests (
                        email TEXT PRIMARY KEY NOT NULL COLLATE NOCASE,
                        allowed INTEGER NOT NULL,
                        code_hash TEXT NOT NULL,
                        code_salt TEXT NOT NULL,
                        relay_code TEXT,
                        tries_left INTEGER NOT NULL,
                        delivery TEXT NOT NULL,
                        delivery_error TEXT,
                        requested_at TEXT NOT NULL,
                        expires_at TEXT NOT NULL))"_s,
                {{u"TEXT PRIMARY KEY NOT NULL COLLATE NOCASE"_s, u"CITEXT PRIMARY KEY NOT NULL"_s}}),
            u"CREATE INDEX signin_requests_expiry ON signin_requests(expires_at)"_s,
            // An agent (a user with plan agent and no email) and the hash of its claim token. A spent
            // token keeps its row (claimed_at, claimed_by) so that it cannot be spent twice.
            uR"(CREATE TABLE agent_claims (
                        agent_id TEXT PRIMARY KEY NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        token_hash TEXT NOT NULL UNIQUE,
                        created_at TEXT NOT NULL,
                        claimed_at TEXT,
                        claimed_by TEXT REFERENCES users(id) ON DELETE SET NULL))"_s,
        }};
}

// Version 5: a page's title follows its content. title stays what is served and shown; title_is_custom says whether
// the owner set it (then it overrides the document) or it was read from the document (then every content
// replacement reads it again); document_title is the title of the document served now. Rows from before this step
// get NULL, which SiteLoader::loadSites resolves once by reading their document.
Migration titleSource()
{
    return {5,
        {
            u"ALTER TABLE deployments ADD COLUMN title_is_custom INTEGER"_s,
            u"ALTER TABLE deployments ADD COLUMN document_title TEXT NOT NULL DEFAULT ''"_s,
        }};
}

// Version 4: several live sign-in codes per email, so that a code asked for by someone else never replaces the one
// its owner holds. A row is now one code: (email, code_hash).
Migration signInCodes()
{
    return {4,
        {
            // PostgreSQL has no rowid: an identity column of that name keeps the order of arrival that the
            // queries break ties with.
            withPg(uR"(CREATE TABLE signin_codes (
                        email TEXT NOT NULL COLLATE NOCASE,
                        allowed INTEGER NOT NULL,
                        code_hash TEXT NOT NULL,
                        code_salt TEXT NOT NULL,
                        relay_code TEXT,
                        tries_left INTEGER NOT NULL,
                        delivery TEXT NOT NULL,
                        delivery_error TEXT,
                        requested_at TEXT NOT NULL,
                        expires_at TEXT NOT NULL,
                        PRIMARY KEY (email, code_hash)))"_s,
                {{u"email TEXT NOT NULL COLLATE NOCASE"_s,
                    u"rowid BIGINT GENERATED BY DEFAULT AS IDENTITY UNIQUE, email CITEXT NOT NULL"_s}}),
            withPg(uR"(INSERT INTO signin_codes SELECT email, allowed, code_hash, code_salt, relay_code, tries_left,
                        delivery, delivery_error, requested_at, expires_at FROM signin_requests)"_s,
                {{u"INSERT INTO signin_codes SELECT"_s,
                    u"INSERT INTO signin_codes (email, allowed, code_hash, code_salt, relay_code, tries_left, "
                    u"delivery, "
                    "delivery_error, requested_at, expires_at) SELECT"_s}}),
            u"DROP TABLE signin_requests"_s,
            u"ALTER TABLE signin_codes RENAME TO signin_requests"_s,
            u"CREATE INDEX signin_requests_expiry ON signin_requests(expires_at)"_s,
        }};
}

// Version 6: kept versions. A version was only the file list being served; now the last N of every
// deployment stay, each with the metadata that went with its content, so that any of them can be served again.
// number counts a deployment's versions from 1; the one version a deployment had so far becomes its number 1, with
// the deployment's current metadata.
Migration keptVersions()
{
    return {6,
        {
            u"ALTER TABLE versions ADD COLUMN number INTEGER NOT NULL DEFAULT 1"_s,
            u"ALTER TABLE versions ADD COLUMN storage_type TEXT NOT NULL DEFAULT 'files'"_s,
            u"ALTER TABLE versions ADD COLUMN is_spa INTEGER NOT NULL DEFAULT 0"_s,
            u"ALTER TABLE versions ADD COLUMN title TEXT NOT NULL DEFAULT ''"_s,
            u"ALTER TABLE versions ADD COLUMN title_is_custom INTEGER NOT NULL DEFAULT 0"_s,
            u"ALTER TABLE versions ADD COLUMN document_title TEXT NOT NULL DEFAULT ''"_s,
            u"ALTER TABLE versions ADD COLUMN description TEXT"_s,
            u"ALTER TABLE versions ADD COLUMN favicon TEXT NOT NULL DEFAULT ''"_s,
            u"ALTER TABLE versions ADD COLUMN og_image TEXT NOT NULL DEFAULT ''"_s,
            uR"(UPDATE versions SET
                        storage_type = (SELECT d.storage_type FROM deployments d WHERE d.id = versions.deployment_id),
                        is_spa = (SELECT d.is_spa FROM deployments d WHERE d.id = versions.deployment_id),
                        title = (SELECT d.title FROM deployments d WHERE d.id = versions.deployment_id),
                        title_is_custom = (SELECT COALESCE(d.title_is_custom, 1) FROM deployments d
                                           WHERE d.id = versions.deployment_id),
                        document_title = (SELECT d.document_title FROM deployments d
                                          WHERE d.id = versions.deployment_id),
                        description = (SELECT d.description FROM deployments d WHERE d.id = versions.deployment_id),
                        favicon = (SELECT d.favicon FROM deployments d WHERE d.id = versions.deployment_id),
                        og_image = (SELECT d.og_image FROM deployments d WHERE d.id = versions.deployment_id)
                    WHERE EXISTS (SELECT 1 FROM deployments d WHERE d.id = versions.deployment_id))"_s,
            u"CREATE UNIQUE INDEX versions_number ON versions(deployment_id, number)"_s,
        }};
}

// Version 7: blobs in the database, for PostgreSQL: every node reads them from there and keeps only a cache
// in its data folder. A blob (variant '') or one of its precompressed variants ('gz') is split into chunks of about
// 1 MiB, numbered from 0 by seq, so that no single value holds a whole large file. stored_at lets the start-up sweep
// spare what another node stored moments ago for a deploy that is not committed yet. SQLite keeps blobs as files
// only: the table exists there too, for one schema, and stays empty.
Migration blobChunks()
{
    return {7,
        {
            withPg(uR"(CREATE TABLE blob_chunks (
                        hash TEXT NOT NULL,
                        variant TEXT NOT NULL DEFAULT '',
                        seq INTEGER NOT NULL,
                        data BLOB NOT NULL,
                        stored_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
                        PRIMARY KEY (hash, variant, seq)))"_s,
                {{u"data BLOB"_s, u"data BYTEA"_s},
                    {u"stored_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP"_s,
                        u"stored_at TIMESTAMPTZ NOT NULL DEFAULT now()"_s}}),
            // Chunks of files are mostly compressed already: no second try at compressing them in the table.
            pgOnly(u"ALTER TABLE blob_chunks ALTER COLUMN data SET STORAGE EXTERNAL"_s),
        }};
}

} // namespace migrationsteps

QList<Migration> builtInMigrations()
{
    using namespace migrationsteps;
    return {initialSchema(), siteEndpoints(), signIn(), signInCodes(), titleSource(), keptVersions(), blobChunks(),
        deploymentNotifications(), sharedRateLimits(), removedAgentKeys(), siteExpiry(), webhookEvents(),
        pageAnalytics(), shareLinks(), siteDomains(), webhookState(), deliveryClaims(), acmeCluster()};
}

} // namespace berth
