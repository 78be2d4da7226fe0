#pragma once

#include "core/error.h"
#include "domain/acme/acmechallenges.h"
#include "storage/acmecertificaterepository.h"

#include <QDateTime>
#include <QString>
#include <functional>
#include <optional>

namespace berth {

class Clock;
class Database;

// Certificates by ACME on the servers of one PostgreSQL database: the names' rows that every server mirrors, the
// lease through which one server at a time orders a name, the announcement of a change (LISTEN/NOTIFY on berth_acme)
// and the HTTP-01 answers shared so that the CA may reach any server. On the engine's thread, whose connection it
// uses. A database that cannot be reached leaves things as they are: nothing is ordered without the lease, and what
// is held keeps being served.
class AcmeCluster final
{
    Q_DISABLE_COPY_MOVE(AcmeCluster)
public:
    // Long enough for an order's every step and poll; a server that stopped in the middle gives its names to
    // another after this.
    static constexpr int kLeaseSeconds = 10 * 60;
    static constexpr const char *kChannel = "berth_acme";

    // nodeId: this server's, kept in its data folder, so that a restarted server takes its own lease back at once.
    AcmeCluster(Database &db, QString nodeId, const Clock &clock);

    QString nodeId() const { return m_nodeId; }
    // changed(name) whenever another server changed a name's row.
    Result<void> listen(std::function<void(const QString &name)> changed);
    std::optional<AcmeCertificateRow> row(const QString &name) const; // none also when unreadable (logged)
    bool takeLease(const QString &name); // false: another server orders it, or the database is away (logged)
    // The row as this server's order left it; the lease given up.
    void finish(const AcmeCertificateRow &row);
    // A certificate this server holds that the database has no row for: shared as it is.
    void seed(const AcmeCertificateRow &row);
    // The HTTP-01 answers, kept in the database besides memory (AcmeChallenges::share).
    AcmeChallenges::SharedAnswers answers();

private:
    Database &m_db;
    AcmeCertificateRepository m_repository;
    const QString m_nodeId;
    const Clock &m_clock;
};

} // namespace berth
