#pragma once

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

namespace berth {

// Lowers the calling thread's CPU priority to a nice of kBackgroundNice (Linux: per thread, by its id), once per
// thread: the nice stays with the thread. For the workers that decode, hash and store deploys: while the cores are
// busy, a thread serving visitors then gets about nine times a worker's share of CPU (weights 1024 and 110), so a
// large deploy no longer doubles or triples a small page's p99; on an idle core the worker runs at full speed. Does
// nothing where threads have no nice of their own. (SCHED_IDLE was tried: it starved deploys and the start-up sweep
// whenever the cores were busy.)
void lowerThisThreadsPriority();

constexpr int kBackgroundNice = 10;

// Runs work on the pool as QtConcurrent::run does, on a lowered thread when `lowered`. Every task of the deploy
// pool goes through here, the start-up sweep included: Qt 6.4's QThreadPool has no hook for a thread's start.
template<typename Work>
auto runOnWorker(QThreadPool &pool, bool lowered, Work work)
{
    return QtConcurrent::run(&pool, [lowered, work = std::move(work)]() mutable {
        if (lowered)
            lowerThisThreadsPriority();
        return work();
    });
}

} // namespace berth
