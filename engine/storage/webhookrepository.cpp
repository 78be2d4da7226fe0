#include "storage/webhookrepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"
#include "storage/transaction.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

const QString kColumns = u"id, user_id, url, events, deployment_id, secret, created_at"_s;
const QString kReadColumns = kColumns + u", failing_since, disabled_at, last_mail_at"_s;

Webhook webhookFrom(const QSqlQuery &query)
{
    Webhook webhook;
    webhook.id = query.value(0).toString();
    webhook.userId = query.value(1).toString();
    webhook.url = query.value(2).toString();
    webhook.events = query.value(3).toString().split(u',', Qt::SkipEmptyParts);
    webhook.deploymentId = query.value(4).toString();
    webhook.secret = query.value(5).toString().toLatin1();
    webhook.createdAt = sql::time(query, 6);
    webhook.failingSince = sql::time(query, 7);
    webhook.disabledAt = sql::time(query, 8);
    webhook.lastMailAt = sql::time(query, 9);
    return webhook;
}

} // namespace

WebhookRepository::WebhookRepository(Database &db)
    : m_db(db)
{
}

Result<void> WebhookRepository::insert(const Webhook &webhook, int maxPerUser)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT COUNT(*) FROM webhooks WHERE user_id = ?"_s);
    query.addBindValue(webhook.userId);
    if (!query.exec() || !query.next())
        return sql::loggedFailure(query, "counting webhooks");
    if (query.value(0).toInt() >= maxPerUser)
        return Error {Error::Kind::Forbidden, u"At most %1 webhooks per user"_s.arg(maxPerUser)};
    query.finish();
    query.prepare(u"INSERT INTO webhooks (%1) VALUES (?, ?, ?, ?, ?, ?, ?)"_s.arg(kColumns));
    query.addBindValue(webhook.id);
    query.addBindValue(webhook.userId);
    query.addBindValue(webhook.url);
    query.addBindValue(webhook.events.join(u','));
    query.addBindValue(sql::textOrNull(webhook.deploymentId));
    query.addBindValue(sql::text(webhook.secret));
    query.addBindValue(sql::timeOrNull(webhook.createdAt));
    if (!query.exec())
        return sql::loggedFailure(query, "inserting a webhook");
    return transaction.commit();
}

Result<QList<Webhook>> WebhookRepository::listForUser(const QString &userId) const
{
    QSqlQuery query(m_db.connection());
    query.setForwardOnly(true);
    query.prepare(u"SELECT %1 FROM webhooks WHERE user_id = ? ORDER BY created_at, id"_s.arg(kReadColumns));
    query.addBindValue(userId);
    if (!query.exec())
        return sql::loggedFailure(query, "listing webhooks");
    QList<Webhook> webhooks;
    while (query.next())
        webhooks.append(webhookFrom(query));
    if (auto drained = sql::drained(query); !drained)
        return drained.error();
    return webhooks;
}

Result<std::optional<Webhook>> WebhookRepository::find(const QString &id) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT %1 FROM webhooks WHERE id = ?"_s.arg(kReadColumns));
    query.addBindValue(id);
    if (!query.exec())
        return sql::loggedFailure(query, "reading a webhook");
    if (!query.next())
        return std::optional<Webhook>();
    return std::optional<Webhook>(webhookFrom(query));
}

Result<void> WebhookRepository::remove(const QString &userId, const QString &id)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM webhook_deliveries WHERE webhook_id = (SELECT id FROM webhooks WHERE id = ? AND "
                  "user_id = ?)"_s);
    query.addBindValue(id);
    query.addBindValue(userId);
    if (!query.exec())
        return sql::loggedFailure(query, "removing a webhook's deliveries");
    query.prepare(u"DELETE FROM webhooks WHERE id = ? AND user_id = ?"_s);
    query.addBindValue(id);
    query.addBindValue(userId);
    if (auto removed = sql::execAffecting(query, Error::Code::Other, u"Webhook not found"_s); !removed)
        return removed;
    return transaction.commit();
}

Result<bool> WebhookRepository::recordAttempt(
    const QString &id, bool delivered, const QDateTime &now, qint64 disableAfterMs)
{
    Transaction transaction(m_db.connection());
    if (auto begun = transaction.begun(); !begun)
        return begun.error();
    QSqlQuery query(m_db.connection());
    if (delivered) {
        query.prepare(u"UPDATE webhooks SET failing_since = NULL WHERE id = ?"_s);
        query.addBindValue(id);
    } else {
        query.prepare(u"UPDATE webhooks SET failing_since = COALESCE(failing_since, ?) WHERE id = ?"_s);
        query.addBindValue(sql::timeOrNull(now));
        query.addBindValue(id);
    }
    if (!query.exec())
        return sql::loggedFailure(query, "recording a webhook's attempt");
    const auto found = find(id);
    if (!found)
        return found.error();
    const std::optional<Webhook> &webhook = found.value();
    const bool disables = !delivered && webhook && !webhook->disabledAt.isValid()
        && webhook->failingSince.msecsTo(now) >= disableAfterMs;
    if (disables) {
        query.prepare(u"UPDATE webhooks SET disabled_at = ? WHERE id = ?"_s);
        query.addBindValue(sql::timeOrNull(now));
        query.addBindValue(id);
        if (!query.exec())
            return sql::loggedFailure(query, "disabling a webhook");
        // What was still pending goes no more: its owner sees it failed, and may retry it once enabled.
        query.prepare(u"UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL, error = ? "
                      "WHERE webhook_id = ? AND status = 'pending'"_s);
        query.addBindValue(u"the webhook was disabled"_s);
        query.addBindValue(id);
        if (!query.exec())
            return sql::loggedFailure(query, "failing a disabled webhook's deliveries");
    }
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return disables;
}

Result<void> WebhookRepository::enable(const QString &userId, const QString &id)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"UPDATE webhooks SET disabled_at = NULL, failing_since = NULL WHERE id = ? AND user_id = ?"_s);
    query.addBindValue(id);
    query.addBindValue(userId);
    return sql::execAffecting(query, Error::Code::Other, u"Webhook not found"_s);
}

Result<bool> WebhookRepository::takeMailTurn(const QString &id, const QDateTime &now, qint64 intervalMs)
{
    // One conditional write: of two servers taking the same turn, the second matches no row.
    QSqlQuery query(m_db.connection());
    query.prepare(
        u"UPDATE webhooks SET last_mail_at = ? WHERE id = ? AND (last_mail_at IS NULL OR last_mail_at <= ?)"_s);
    query.addBindValue(sql::timeOrNull(now));
    query.addBindValue(id);
    query.addBindValue(sql::timeOrNull(now.addMSecs(-intervalMs)));
    if (!query.exec())
        return sql::loggedFailure(query, "taking a webhook's turn to mail");
    return query.numRowsAffected() > 0;
}

} // namespace berth
