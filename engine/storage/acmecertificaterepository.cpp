#include "storage/acmecertificaterepository.h"

#include "storage/database.h"
#include "storage/sqlhelpers.h"

#include <QSqlQuery>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
// PEM is ASCII: stored as TEXT, which a QByteArray bound as such would not be (a BLOB, or bytea).
QVariant pemOrNull(const QByteArray &pem)
{
    return sql::textOrNull(QString::fromLatin1(pem));
}
} // namespace

AcmeCertificateRepository::AcmeCertificateRepository(Database &db)
    : m_db(db)
{
}

Result<std::optional<AcmeCertificateRow>> AcmeCertificateRepository::find(const QString &name) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT state, chain_pem, key_pem, expires_at, error, next_attempt_at, failures, lease_holder, "
                  "lease_until FROM acme_certificates WHERE name = ?"_s);
    query.addBindValue(name);
    if (auto done = sql::exec(query); !done)
        return done.error();
    if (!query.next())
        return std::optional<AcmeCertificateRow>();
    AcmeCertificateRow row;
    row.name = name;
    row.state = query.value(0).toString();
    row.chainPem = query.value(1).toString().toLatin1();
    row.keyPem = query.value(2).toString().toLatin1();
    row.expiresAt = sql::time(query, 3);
    row.error = query.value(4).toString();
    row.nextAttemptAt = sql::time(query, 5);
    row.failures = query.value(6).toInt();
    row.leaseHolder = query.value(7).toString();
    row.leaseUntilMs = query.value(8).toLongLong();
    return std::optional<AcmeCertificateRow>(std::move(row));
}

Result<bool> AcmeCertificateRepository::takeLease(
    const QString &name, const QString &holder, qint64 nowMs, qint64 untilMs, const QDateTime &now)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"INSERT INTO acme_certificates (name, state, updated_at) VALUES (?, 'none', ?) "
                  "ON CONFLICT (name) DO NOTHING"_s);
    query.addBindValue(name);
    query.addBindValue(sql::timeOrNull(now));
    if (auto done = sql::exec(query); !done)
        return done.error();
    // One statement decides: two servers taking the same lease at once are ordered by the row's lock, and the second
    // finds the first's lease in its WHERE.
    query.prepare(u"UPDATE acme_certificates SET lease_holder = ?, lease_until = ?, state = 'pending', updated_at = ? "
                  "WHERE name = ? AND (lease_holder IS NULL OR lease_holder = ? OR lease_until <= ?)"_s);
    query.addBindValue(holder);
    query.addBindValue(untilMs);
    query.addBindValue(sql::timeOrNull(now));
    query.addBindValue(name);
    query.addBindValue(holder);
    query.addBindValue(nowMs);
    if (auto done = sql::exec(query); !done)
        return done.error();
    return query.numRowsAffected() == 1;
}

Result<bool> AcmeCertificateRepository::finish(
    const AcmeCertificateRow &row, const QString &holder, const QDateTime &now)
{
    QSqlQuery query(m_db.connection());
    // No chain (a failure) keeps the one held: a failed renewal leaves the certificate served until it expires.
    query.prepare(u"UPDATE acme_certificates SET state = ?, chain_pem = COALESCE(?, chain_pem), "
                  "key_pem = COALESCE(?, key_pem), expires_at = COALESCE(?, expires_at), error = ?, "
                  "next_attempt_at = ?, failures = ?, lease_holder = NULL, lease_until = 0, updated_at = ? "
                  "WHERE name = ? AND lease_holder = ?"_s);
    query.addBindValue(row.state);
    query.addBindValue(pemOrNull(row.chainPem));
    query.addBindValue(pemOrNull(row.keyPem));
    query.addBindValue(row.chainPem.isEmpty() ? QVariant() : sql::timeOrNull(row.expiresAt));
    query.addBindValue(sql::textOrNull(row.error));
    query.addBindValue(sql::timeOrNull(row.nextAttemptAt));
    query.addBindValue(row.failures);
    query.addBindValue(sql::timeOrNull(now));
    query.addBindValue(row.name);
    query.addBindValue(holder);
    if (auto done = sql::exec(query); !done)
        return done.error();
    return query.numRowsAffected() == 1;
}

Result<void> AcmeCertificateRepository::seed(const AcmeCertificateRow &row, const QDateTime &now)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"INSERT INTO acme_certificates (name, state, chain_pem, key_pem, expires_at, updated_at) "
                  "VALUES (?, 'active', ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING"_s);
    query.addBindValue(row.name);
    query.addBindValue(pemOrNull(row.chainPem));
    query.addBindValue(pemOrNull(row.keyPem));
    query.addBindValue(sql::timeOrNull(row.expiresAt));
    query.addBindValue(sql::timeOrNull(now));
    return sql::exec(query);
}

Result<void> AcmeCertificateRepository::addChallenge(
    const QByteArray &token, const QByteArray &keyAuthorization, const QDateTime &now)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"INSERT INTO acme_challenges (token, key_authorization, created_at) VALUES (?, ?, ?) "
                  "ON CONFLICT (token) DO NOTHING"_s);
    query.addBindValue(sql::text(token));
    query.addBindValue(sql::text(keyAuthorization));
    query.addBindValue(sql::timeOrNull(now));
    return sql::exec(query);
}

Result<void> AcmeCertificateRepository::removeChallenge(const QByteArray &token)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM acme_challenges WHERE token = ?"_s);
    query.addBindValue(sql::text(token));
    return sql::exec(query);
}

Result<std::optional<QByteArray>> AcmeCertificateRepository::challenge(const QByteArray &token) const
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"SELECT key_authorization FROM acme_challenges WHERE token = ?"_s);
    query.addBindValue(sql::text(token));
    if (auto done = sql::exec(query); !done)
        return done.error();
    if (!query.next())
        return std::optional<QByteArray>();
    return std::optional<QByteArray>(query.value(0).toString().toLatin1());
}

Result<void> AcmeCertificateRepository::removeChallengesBefore(const QDateTime &time)
{
    QSqlQuery query(m_db.connection());
    query.prepare(u"DELETE FROM acme_challenges WHERE created_at < ?"_s);
    query.addBindValue(sql::timeOrNull(time));
    return sql::exec(query);
}

} // namespace berth
