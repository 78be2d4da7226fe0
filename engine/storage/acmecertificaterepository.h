#pragma once

#include "core/error.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <optional>

namespace berth {

class Database;

// A name's certificate as the servers of one database share it (table acme_certificates).
struct AcmeCertificateRow
{
    QString name;
    QString state; // "none", "pending", "active", "failed"
    QByteArray chainPem; // empty until one was issued
    QByteArray keyPem;
    QDateTime expiresAt;
    QString error;
    QDateTime nextAttemptAt;
    int failures = 0;
    QString leaseHolder; // the server ordering it, while leaseUntil is ahead
    qint64 leaseUntilMs = 0;
};

// Certificates by ACME shared through the database: each name's row, the lease that lets one server order it at a
// time, and the HTTP-01 answers of the orders in flight (table acme_challenges). Used only on the thread that opened
// the Database. Keys are read and written like any other column and are never put into a message.
class AcmeCertificateRepository final
{
    Q_DISABLE_COPY_MOVE(AcmeCertificateRepository)
public:
    explicit AcmeCertificateRepository(Database &db);

    Result<std::optional<AcmeCertificateRow>> find(const QString &name) const;
    // The lease on name for holder until untilMs, when nobody else holds one that lasts past nowMs; the row is made
    // when missing, and its state becomes pending. False: another server is ordering the name.
    Result<bool> takeLease(
        const QString &name, const QString &holder, qint64 nowMs, qint64 untilMs, const QDateTime &now);
    // The row as holder's order left it (issued, or failed), the lease given up. Written only while holder holds the
    // lease, so a server whose lease ran out cannot overwrite what the next one did: false then.
    Result<bool> finish(const AcmeCertificateRow &row, const QString &holder, const QDateTime &now);
    // A certificate a server held before the database knew the name (made on SQLite, then moved): the row, active,
    // unless the name has one already.
    Result<void> seed(const AcmeCertificateRow &row, const QDateTime &now);

    Result<void> addChallenge(const QByteArray &token, const QByteArray &keyAuthorization, const QDateTime &now);
    Result<void> removeChallenge(const QByteArray &token);
    Result<std::optional<QByteArray>> challenge(const QByteArray &token) const;
    // Answers left behind by a server that stopped in the middle of an order.
    Result<void> removeChallengesBefore(const QDateTime &time);

private:
    Database &m_db;
};

} // namespace berth
