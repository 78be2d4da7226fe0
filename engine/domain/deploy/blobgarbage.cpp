#include "domain/deploy/blobgarbage.h"

#include "domain/common/contentcoding.h"
#include "domain/common/workerpriority.h"
#include "domain/deploy/faultpoints.h"
#include "domain/siterules/sitetable.h"
#include "storage/blobstore.h"
#include "storage/deploymentrepository.h"

#include <QDebug>

namespace berth {

namespace {

QList<QByteArray> variantSuffixes()
{
    QList<QByteArray> suffixes;
    for (const ContentCoding coding : kContentCodings)
        suffixes.append(ContentCodings::suffix(coding));
    return suffixes;
}

} // namespace

BlobGarbage::BlobGarbage(DeploymentRepository &repository, BlobStore &blobs, const SiteTable &sites,
    QThreadPool &workers, const FaultPoints &faults)
    : m_repository(repository)
    , m_blobs(blobs)
    , m_sites(sites)
    , m_workers(workers)
    , m_faults(faults)
{
}

void BlobGarbage::deployStarted()
{
    ++m_inFlight;
}

void BlobGarbage::deployFinished()
{
    --m_inFlight;
    if (m_inFlight == 0 && !m_candidates.isEmpty())
        collect();
}

void BlobGarbage::addCandidates(const QList<QByteArray> &blobs)
{
    for (const QByteArray &blob : blobs) {
        if (!blob.isEmpty())
            m_candidates.insert(blob);
    }
}

void BlobGarbage::collectUnlessBusy()
{
    if (m_inFlight == 0)
        collect();
}

QFuture<void> BlobGarbage::sweepStore()
{
    // Fail closed: without a trustworthy list of what is referenced, nothing is removed. Every deployment serves at
    // least one file, so an empty list while deployments exist is taken as a failure too.
    const auto referenced = m_repository.referencedBlobs();
    if (!referenced) {
        qWarning().noquote() << "blob sweep skipped: the list of referenced blobs could not be read:"
                             << referenced.error().message;
        return QtFuture::makeReadyFuture();
    }
    if (referenced.value().isEmpty() && m_sites.size() > 0) {
        qWarning().noquote() << "blob sweep skipped: no blob is referenced while deployments exist";
        return QtFuture::makeReadyFuture();
    }
    // A deploy in flight has blobs that nothing references yet: only with none (at start, before listening).
    if (m_inFlight > 0) {
        qWarning().noquote() << "blob sweep skipped: a deploy is in flight";
        return QtFuture::makeReadyFuture();
    }
    m_sweep = runOnWorker(m_workers, m_workersYield, [blobs = &m_blobs, keep = referenced.value()] {
        const int removed = blobs->collectGarbage(keep);
        if (removed > 0)
            qInfo().noquote() << "removed" << removed << "unreferenced blobs";
    });
    return m_sweep;
}

void BlobGarbage::collect()
{
    // Only with no deploy in flight: a staged blob is unreferenced until its commit. Only the candidates are looked
    // at, each by the indexed reference query; a failed query removes nothing and keeps them for the next time.
    if (m_candidates.isEmpty())
        return;
    m_faults.reach("before-garbage-check");
    const QList<QByteArray> candidates(m_candidates.cbegin(), m_candidates.cend());
    const auto referenced = m_repository.referencedAmong(candidates);
    if (!referenced) {
        qWarning().noquote() << "blob collection postponed: the reference check failed:" << referenced.error().message;
        return;
    }
    m_candidates.clear();
    const QList<QByteArray> suffixes = variantSuffixes();
    for (const QByteArray &blob : candidates) {
        if (referenced.value().contains(blob))
            continue;
        // The shared store keeps a blob stored within its grace (another node may be about to commit a deploy that
        // uses it): tried again at a later collection, or left to the next start's sweep.
        if (m_blobs.remove(blob, suffixes) == BlobStore::Removal::Kept)
            m_candidates.insert(blob);
    }
}

} // namespace berth
