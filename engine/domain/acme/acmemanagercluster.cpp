// AcmeManager on several servers of one PostgreSQL database: the lease before an order, what an order leaves shared,
// and the database's rows mirrored into this server's entries, files and TLS store (acmemanager.cpp orders and renews).
#include "domain/acme/acmecluster.h"
#include "domain/acme/acmemanager.h"
#include "domain/common/clock.h"
#include "storage/database.h"

using namespace Qt::StringLiterals;

namespace berth {

namespace {
bool sameStatus(const CertificateStatus &a, const CertificateStatus &b)
{
    return a.state == b.state && a.expiresAt == b.expiresAt && a.error == b.error && a.nextAttemptAt == b.nextAttemptAt;
}
} // namespace

Result<void> AcmeManager::shareThrough(Database &db)
{
    if (db.dialect() != SqlDialect::PostgreSql || m_cluster)
        return {}; // one server: nothing to share
    Result<QString> node = m_files.nodeId();
    if (!node)
        return node.error();
    m_cluster = std::make_unique<AcmeCluster>(db, node.value(), m_clock);
    m_challenges.share(m_cluster->answers());
    return m_cluster->listen([this](const QString &name) {
        if (m_entries.contains(name))
            mirror(name);
    });
}

bool AcmeManager::mayOrder(const QString &name)
{
    if (!m_cluster)
        return true;
    if (m_cluster->takeLease(name))
        return true;
    mirror(name); // pending on the server that holds the lease
    return false;
}

void AcmeManager::share(const QString &name, const StoredCertificate *issued)
{
    if (!m_cluster)
        return;
    const Entry &entry = m_entries[name];
    AcmeCertificateRow row;
    row.name = name;
    row.state = CertificateStatus::stateName(entry.status.state);
    if (issued) {
        row.chainPem = issued->chainPem;
        row.keyPem = issued->keyPem;
        row.expiresAt = issued->expiresAt;
    }
    row.error = entry.status.error;
    row.nextAttemptAt = entry.status.nextAttemptAt;
    row.failures = entry.failures;
    m_cluster->finish(row);
}

void AcmeManager::mirror(const QString &name)
{
    const auto found = m_entries.constFind(name);
    if (found == m_entries.cend() || found->orderingHere)
        return; // this server's own order is the news
    const std::optional<AcmeCertificateRow> row = m_cluster->row(name);
    if (!row) {
        // Nobody ordered it through the database yet (or it is away: then this fails too, and all stays as it was).
        // A certificate this server got before its data moved to the database is the others' as well.
        if (const auto kept = m_files.load(name)) {
            AcmeCertificateRow seeded;
            seeded.name = name;
            seeded.chainPem = kept->chainPem;
            seeded.keyPem = kept->keyPem;
            seeded.expiresAt = kept->expiresAt;
            m_cluster->seed(seeded);
        }
        return;
    }
    const CertificateStatus before = found->status;
    // A certificate another server obtained: kept in this data folder too (its key 0600), and served from now on.
    if (const auto issued = CertificateFiles::describe(row->chainPem, row->keyPem);
        issued && (!before.expiresAt.isValid() || issued->expiresAt > before.expiresAt)) {
        if (Result<void> stored = m_files.store(name, issued->chainPem, issued->keyPem); !stored)
            qWarning().noquote() << "acme: cannot keep the certificate of" << name << "-" << stored.error().message;
        hold(name, *issued);
    }
    Entry &entry = m_entries[name];
    const QDateTime now = m_clock.now();
    const QDateTime leaseUntil = QDateTime::fromMSecsSinceEpoch(row->leaseUntilMs, Qt::UTC);
    const bool held = entry.status.expiresAt.isValid() && entry.status.expiresAt > now;
    if (row->state == CertificateStatus::stateName(CertificateStatus::State::Pending)) {
        entry.status.state = CertificateStatus::State::Pending;
        // This server's own lease (from before a restart) is taken back at once.
        const bool elsewhere = !row->leaseHolder.isEmpty() && row->leaseHolder != m_cluster->nodeId();
        entry.elsewhereUntil = elsewhere ? leaseUntil : QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
    } else if (!row->error.isEmpty()) {
        // The other server's failure, with its backoff: the next attempt is anyone's once it is due.
        entry.status.error = row->error;
        entry.status.nextAttemptAt = row->nextAttemptAt;
        entry.failures = row->failures;
        entry.status.state = held ? CertificateStatus::State::Active : CertificateStatus::State::Failed;
        if (held)
            entry.renewAt = row->nextAttemptAt;
        entry.elsewhereUntil = {};
    } else if (entry.status.state == CertificateStatus::State::Pending) {
        entry.status.state = held ? CertificateStatus::State::Active : CertificateStatus::State::None;
        entry.elsewhereUntil = {};
    }
    // Only while another server orders the name may the CA's request for its answer reach the database here.
    m_challenges.setOrderedElsewhere(name, entry.elsewhereUntil.isValid() && entry.elsewhereUntil > now);
    if (!sameStatus(before, entry.status))
        Q_EMIT statusChanged(name);
}

} // namespace berth
