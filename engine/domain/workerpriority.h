#pragma once

namespace berth {

// Lowers the calling thread's CPU priority to a nice of kBackgroundNice (Linux: per thread, by its id). For the
// workers that decode, hash and store deploys: while the cores are busy, a thread serving visitors then gets about
// nine times a worker's share of CPU (weights 1024 and 110), so a large deploy no longer doubles or triples a small
// page's p99; on an idle core the worker runs at full speed. Does nothing where threads have no nice of their own.
// (SCHED_IDLE was tried: it starved deploys and the start-up sweep whenever the cores were busy.)
void lowerThisThreadsPriority();

constexpr int kBackgroundNice = 10;

} // namespace berth
