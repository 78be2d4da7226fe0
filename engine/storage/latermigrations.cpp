#include "storage/migrationsteps.h"

namespace berth::migrationsteps {

// Version 8: every change to a deployment's row (a deploy, an update, a rename, a protection change, a rollback, a
// delete, an owner's change), whoever makes it, sends a notification with the deployment's id on the channel
// berth_deployments, so that every server on the database rebuilds that site (DeploymentSync). A trigger sends it
// inside the writing transaction: PostgreSQL delivers it only on commit, once per id per transaction. SQLite has one
// server: nothing to tell.
Migration deploymentNotifications()
{
    return {8,
        {
            pgOnly(uR"(CREATE FUNCTION berth_notify_deployment() RETURNS trigger LANGUAGE plpgsql AS $$
                        BEGIN
                            PERFORM pg_notify('berth_deployments',
                                CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
                            RETURN NULL;
                        END $$)"_s),
            pgOnly(uR"(CREATE TRIGGER deployments_notify AFTER INSERT OR UPDATE OR DELETE ON deployments
                        FOR EACH ROW EXECUTE FUNCTION berth_notify_deployment())"_s),
        }};
}

// Version 9: shared rate limits, for several servers on one PostgreSQL database. Each row counts the
// accepted hits of one limit's key (a SHA-256 of e.g. "submit:<client address>", never the address itself) in one fixed
// bucket of time: window_start is the bucket's start and expires_at the moment it leaves the limit's window, both in ms
// since the epoch (integers, not ISO text: the limiter does arithmetic on them). berth_rate_hit() decides and counts in
// one call: the key's hits take turns under an advisory lock, so that two servers cannot both take the last one; each
// of its statements sees what the one before it committed. SQLite has one server, whose limits are its own memory's:
// the table exists there too, for one schema, and stays empty.
Migration sharedRateLimits()
{
    return {9,
        {
            uR"(CREATE TABLE rate_windows (
                        limit_key TEXT NOT NULL,
                        window_start BIGINT NOT NULL,
                        hits INTEGER NOT NULL,
                        expires_at BIGINT NOT NULL,
                        PRIMARY KEY (limit_key, window_start)))"_s,
            u"CREATE INDEX rate_windows_expiry ON rate_windows(expires_at)"_s,
            // Returns 0 when the hit is let through (and counted), or the ms until the oldest counted bucket leaves
            // the window. The lock's first number is Berth's rate-limit class ("RATE"), apart from the migrations'.
            // Its commit does not wait for the disk (synchronous_commit off, for this transaction only): it is seen by
            // every session at once all the same, and a crash of the database server forgets at most the last moments'
            // counts, which lets a few more requests through, nothing worse.
            pgOnly(uR"(CREATE FUNCTION berth_rate_hit(p_key TEXT, p_now BIGINT, p_bucket_ms BIGINT, p_window_ms BIGINT,
                            p_limit INTEGER) RETURNS BIGINT LANGUAGE plpgsql AS $$
                        DECLARE
                            v_start BIGINT := p_now - p_now % p_bucket_ms;
                            v_hits BIGINT;
                            v_oldest BIGINT;
                        BEGIN
                            PERFORM set_config('synchronous_commit', 'off', true);
                            PERFORM pg_advisory_xact_lock(1380013125, hashtext(p_key));
                            DELETE FROM rate_windows
                                WHERE limit_key = p_key AND window_start + p_bucket_ms + p_window_ms <= p_now;
                            SELECT COALESCE(SUM(hits), 0), MIN(window_start) INTO v_hits, v_oldest
                                FROM rate_windows WHERE limit_key = p_key;
                            IF v_hits >= p_limit THEN
                                RETURN GREATEST(1, COALESCE(v_oldest + p_bucket_ms + p_window_ms - p_now,
                                    p_window_ms));
                            END IF;
                            INSERT INTO rate_windows (limit_key, window_start, hits, expires_at)
                                VALUES (p_key, v_start, 1, v_start + p_bucket_ms + p_window_ms)
                                ON CONFLICT (limit_key, window_start)
                                DO UPDATE SET hits = rate_windows.hits + 1,
                                    expires_at = GREATEST(rate_windows.expires_at, EXCLUDED.expires_at);
                            RETURN 0;
                        END $$)"_s),
        }};
}

// Version 10: agents that hold nothing a day after they were made are removed (AgentService::removeIdleAgents), and
// with them their keys; what stays is each key's hash and when it went, so that the key is answered "expired" rather
// than "unknown". Rows older than a month are pruned: by then the key reads as unknown.
Migration removedAgentKeys()
{
    return {10,
        {
            uR"(CREATE TABLE removed_agent_keys (
                        key_hash TEXT PRIMARY KEY NOT NULL,
                        removed_at TEXT NOT NULL))"_s,
            u"CREATE INDEX removed_agent_keys_time ON removed_agent_keys(removed_at)"_s,
            u"CREATE INDEX agent_claims_created ON agent_claims(created_at)"_s,
        }};
}

// Version 11: sites that expire. When expires_at passes, the site is deleted as by its owner (SiteExpiry); the
// partial index holds only the rows that expire, so the sweep reads few.
Migration siteExpiry()
{
    return {11,
        {
            u"ALTER TABLE deployments ADD COLUMN expires_at TEXT"_s,
            u"CREATE INDEX deployments_expires ON deployments(expires_at) WHERE expires_at IS NOT NULL"_s,
        }};
}

// Version 12: events and their deliveries to users' webhooks. An event is written with one pending delivery per
// webhook that wants it; a delivery stays pending until it was answered 2xx or its attempts ran out. seq orders each
// webhook's deliveries; the partial index finds the pending ones.
Migration webhookEvents()
{
    return {12,
        {
            uR"(CREATE TABLE webhooks (
                        id TEXT PRIMARY KEY NOT NULL,
                        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        url TEXT NOT NULL,
                        events TEXT NOT NULL,
                        deployment_id TEXT,
                        secret TEXT NOT NULL,
                        created_at TEXT NOT NULL))"_s,
            u"CREATE INDEX webhooks_user ON webhooks(user_id)"_s,
            uR"(CREATE TABLE events (
                        id TEXT PRIMARY KEY NOT NULL,
                        type TEXT NOT NULL,
                        body TEXT NOT NULL,
                        created_at TEXT NOT NULL))"_s,
            withPg(uR"(CREATE TABLE webhook_deliveries (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        id TEXT NOT NULL UNIQUE,
                        webhook_id TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
                        event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
                        status TEXT NOT NULL,
                        attempts INTEGER NOT NULL,
                        response_status INTEGER,
                        next_attempt_at TEXT,
                        delivered_at TEXT,
                        error TEXT NOT NULL))"_s,
                {{u"INTEGER PRIMARY KEY AUTOINCREMENT"_s, kPgBigIdentity}}),
            u"CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, seq)"_s,
            u"CREATE INDEX webhook_deliveries_pending ON webhook_deliveries(next_attempt_at) WHERE status = 'pending'"_s,
        }};
}

// Version 13: page-view analytics, per deployment and day. analytics_entries holds a day's pages, referrer hosts and
// missing paths (kind 'page', 'referrer', 'not_found'), each capped in number when counted. The day index serves the
// daily prune.
Migration pageAnalytics()
{
    return {13,
        {
            uR"(CREATE TABLE analytics_days (
                        deployment_id TEXT NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
                        day TEXT NOT NULL,
                        views BIGINT NOT NULL,
                        visitors BIGINT NOT NULL,
                        not_found BIGINT NOT NULL,
                        bytes BIGINT NOT NULL,
                        PRIMARY KEY (deployment_id, day)))"_s,
            u"CREATE INDEX analytics_days_day ON analytics_days(day)"_s,
            uR"(CREATE TABLE analytics_entries (
                        deployment_id TEXT NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
                        day TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        name TEXT NOT NULL,
                        hits BIGINT NOT NULL,
                        PRIMARY KEY (deployment_id, day, kind, name)))"_s,
            u"CREATE INDEX analytics_entries_day ON analytics_entries(day)"_s,
        }};
}

} // namespace berth::migrationsteps
