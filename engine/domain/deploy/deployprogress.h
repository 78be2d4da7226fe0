#pragma once

#include "core/error.h"

#include <QObject>
#include <atomic>
#include <memory>

namespace berth {

// How far one deploy has come, and its cancel, shared between the front end that started it and the
// engine's threads. Cancel takes effect up to the commit and never after: beginCommit() and cancel() race
// on one atomic state, so exactly one of them wins. A cancelled deploy ends with cancelledError() and
// stores nothing (its blobs go with the next garbage check).
//
// progressed() is emitted on the engine's threads; connections to objects of other threads are queued.
class DeployProgress final : public QObject
{
    Q_OBJECT

public:
    enum class Step
    {
        Checking, // the request against the plan and the slug
        Storing, // done and total are bytes of content
        Committing, // the final transaction: no cancel from here on
    };
    Q_ENUM(Step)

    // Deleted on its own thread once the last holder lets go (a worker may hold it after its front end closed).
    static std::shared_ptr<DeployProgress> make();
    ~DeployProgress() override;
    Q_DISABLE_COPY_MOVE(DeployProgress)

    // False once the commit has begun (too late) or when already cancelled.
    bool cancel();
    bool isCancelled() const { return m_state.load() == State::Cancelled; }

    // For the engine.
    void report(Step step, qint64 done, qint64 total);
    // False when cancelled: the deploy must then end with cancelledError().
    bool beginCommit();
    static Error cancelledError();

Q_SIGNALS:
    void progressed(berth::DeployProgress::Step step, qint64 done, qint64 total);

private:
    DeployProgress();

    enum class State
    {
        Running,
        Cancelled,
        Committing,
    };
    std::atomic<State> m_state {State::Running};
    std::atomic<int> m_lastPermille {-1}; // Storing is reported at most once per thousandth
};

} // namespace berth
