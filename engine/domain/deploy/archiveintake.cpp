#include "domain/deploy/archiveintake.h"

#include "domain/common/workerpriority.h"

#include <QPromise>

using namespace Qt::StringLiterals;

namespace berth::ArchiveIntake {

namespace {

// One upload's intake: its staging and its promise, kept alive by the tasks and the source's wake-up.
class Intake final : public std::enable_shared_from_this<Intake>
{
public:
    Intake(ArchiveInput input, BlobStore &blobs, const FaultPoints &faults, QThreadPool &workers, bool yield,
        QFuture<void> sweep, std::shared_ptr<QList<QByteArray>> written)
        : m_source(std::move(input.source))
        , m_staging(blobs, input.compression, faults)
        , m_workers(workers)
        , m_yield(yield)
        , m_sweep(std::move(sweep))
        , m_written(std::move(written))
    {
        m_promise.start();
    }
    Q_DISABLE_COPY_MOVE(Intake)

    QFuture<Result<StagedArchive>> future() { return m_promise.future(); }

    // One task at a time: a new one is asked for only by the wake-up the last one left.
    void schedule()
    {
        runOnWorker(m_workers, m_yield, [self = shared_from_this()] { self->drain(); });
    }

private:
    void drain()
    {
        // The sweep at start removes every blob unreferenced when it began: nothing is written before it ends.
        QFuture<void>(m_sweep).waitForFinished();
        for (;;) {
            const QByteArray piece = m_source->take();
            if (!piece.isEmpty()) {
                if (const Result<void> fed = m_staging.feed(piece); !fed)
                    return finish(fed.error());
                continue;
            }
            switch (m_source->state()) {
            case ArchiveSource::State::Failed:
                return finish(Error {Error::Kind::BadRequest, endedEarlyMessage()});
            case ArchiveSource::State::Complete:
                return finish(m_staging.finish());
            case ArchiveSource::State::Open:
                m_source->whenReadable([self = shared_from_this()] { self->schedule(); });
                return;
            }
        }
    }

    void finish(Result<StagedArchive> result)
    {
        if (!result)
            m_source->stop();
        *m_written = m_staging.written();
        m_promise.addResult(std::move(result));
        m_promise.finish();
    }

    std::shared_ptr<ArchiveSource> m_source;
    ArchiveStaging m_staging;
    QThreadPool &m_workers;
    const bool m_yield;
    const QFuture<void> m_sweep;
    const std::shared_ptr<QList<QByteArray>> m_written;
    QPromise<Result<StagedArchive>> m_promise;
};

} // namespace

QString endedEarlyMessage()
{
    return u"The upload ended before the whole archive arrived"_s;
}

QFuture<Result<StagedArchive>> start(ArchiveInput input, BlobStore &blobs, const FaultPoints &faults,
    QThreadPool &workers, bool yieldToServing, QFuture<void> sweep, std::shared_ptr<QList<QByteArray>> written)
{
    auto intake = std::make_shared<Intake>(
        std::move(input), blobs, faults, workers, yieldToServing, std::move(sweep), std::move(written));
    QFuture<Result<StagedArchive>> future = intake->future();
    intake->schedule();
    return future;
}

} // namespace berth::ArchiveIntake
