#pragma once

#include <QByteArray>
#include <QFuture>
#include <QList>
#include <QSet>

QT_BEGIN_NAMESPACE
class QThreadPool;
QT_END_NAMESPACE

namespace berth {

class BlobStore;
class DeploymentRepository;
class FaultPoints;
class SiteTable;

// Removes the blobs nothing references any more: the candidates the deploy path names (blobs of replaced, pruned or
// deleted versions and of refused deploys), collected once no deploy is in flight, since a staged blob is
// unreferenced until its deploy commits; and the one full sweep of the store at start. On the thread that owns the
// database connection, like the deploy path that tells it.
class BlobGarbage final
{
    Q_DISABLE_COPY_MOVE(BlobGarbage)

public:
    BlobGarbage(DeploymentRepository &repository, BlobStore &blobs, const SiteTable &sites, QThreadPool &workers,
        const FaultPoints &faults);

    // Whether the sweep's worker runs at a lower CPU priority than serving (as DeploymentService's deploy work).
    void setWorkersYieldToServing(bool yield) { m_workersYield = yield; }

    // A deploy is in flight from before its staging until its commit or refusal: no blob is collected meanwhile.
    void deployStarted();
    void deployFinished(); // the last one in flight collects the candidates
    void addCandidates(const QList<QByteArray> &blobs);
    void collectUnlessBusy(); // collects the candidates now, unless a deploy is in flight

    // Removes the blobs nothing references (a crash between writing blobs and committing leaves such orphans): the
    // one full sweep, once after start, failing closed. The reference list is read here; the walk of the store runs
    // on a worker. Skipped while a deploy is in flight.
    QFuture<void> sweepStore();
    // The sweep while it walks the store: staging waits for it on its worker, so that no blob of a deploy staged
    // meanwhile can be swept.
    QFuture<void> sweep() const { return m_sweep; }

private:
    void collect();

    DeploymentRepository &m_repository;
    BlobStore &m_blobs;
    const SiteTable &m_sites;
    QThreadPool &m_workers;
    const FaultPoints &m_faults;
    bool m_workersYield = false;
    int m_inFlight = 0; // deploys whose blobs may not be referenced yet
    QSet<QByteArray> m_candidates; // checked and removed once nothing is in flight
    QFuture<void> m_sweep; // the sweep at start, while it walks the store
};

} // namespace berth
