#pragma once

#include "core/error.h"
#include "domain/deploy/archivestaging.h"

#include <QByteArray>
#include <QFuture>
#include <functional>
#include <memory>

QT_BEGIN_NAMESPACE
class QThreadPool;
QT_END_NAMESPACE

namespace berth {

class BlobStore;
class FaultPoints;

// Where an archive's bytes come from while they arrive (the API's request body). One reader; none of it waits.
class ArchiveSource
{
public:
    enum class State
    {
        Open, // more is to come
        Complete, // everything has arrived (take() may still have some)
        Failed, // the rest will never come: the client left or was too slow
    };
    virtual ~ArchiveSource() = default;
    virtual QByteArray take() = 0; // what has arrived since the last call; empty when nothing has
    virtual State state() const = 0;
    // wake runs once, on any thread, when take() has something or state() changed; at once if it has already.
    virtual void whenReadable(std::function<void()> wake) = 0;
    virtual void stop() = 0; // the reader refused the archive: the rest may be dropped
};

struct ArchiveInput
{
    std::shared_ptr<ArchiveSource> source;
    ArchiveStaging::Compression compression = ArchiveStaging::Compression::None;
};

// Moves an archive from its source into an ArchiveStaging on the worker pool: a task whenever bytes have arrived and
// none while the client is slow, so that a trickled upload holds no worker. The future gives the staged files once
// the upload is over, or the first refusal (the source is stopped at once). Every blob written, whatever the outcome,
// is in *written once the future has finished.
namespace ArchiveIntake {

QFuture<Result<StagedArchive>> start(ArchiveInput input, BlobStore &blobs, const FaultPoints &faults,
    QThreadPool &workers, bool yieldToServing, QFuture<void> sweep, std::shared_ptr<QList<QByteArray>> written);

QString endedEarlyMessage();

} // namespace ArchiveIntake
} // namespace berth
