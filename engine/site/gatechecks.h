#pragma once

#include "http/requesthandler.h"

#include <QString>
#include <functional>
#include <memory>

QT_BEGIN_NAMESPACE
class QThread;
class QThreadPool;
QT_END_NAMESPACE

namespace berth {

// The private gates' password checks (Argon2id: tens of milliseconds and 64 MiB each) on their own small pool, kept
// fair under attack. Each site's checks wait in a queue of their own, bounded per site and in all. A free worker takes
// the next site's check in turn (round-robin), and a site runs at most runningPerSite checks at once (fewer than the
// workers: with two, one at a time), so a site flooded with guesses leaves a worker to the others, and delays another
// site's check by at most one check. When a check's turn comes, its client's serving thread first confirms that the
// client is still there: a check whose client has left is dropped unrun. Thread-safe; submit() never waits.
class GateChecks final
{
public:
    struct Limits
    {
        int workers = 1; // checks at once: the pool's threads
        int runningPerSite = 1; // checks of one site at once
        int queuedPerSite = 1; // checks waiting for a worker, per site
        int queuedInAll = 1; // and for all sites together
    };
    enum class Admission
    {
        Queued, // the check runs when its turn comes (at once when a worker is free)
        SiteFull, // this site's queue is full
        AllFull, // the queues of all sites together are full
    };

    // The client a check is for: its sink, and the serving thread it is connected on (where it is asked whether it
    // is still there). Made on that thread.
    struct Client
    {
        ResponseSink sink;
        std::shared_ptr<ThreadMailbox> mailbox;
        QThread *thread = nullptr;
    };
    static Client clientHere(const ResponseSink &sink);

    GateChecks(QThreadPool &pool, Limits limits);
    ~GateChecks();
    Q_DISABLE_COPY_MOVE(GateChecks)

    // Queues `check` (run on a worker, answering through the client's sink) behind `site`'s earlier ones. From any
    // thread. Anything but Queued means the check will not run: the caller answers.
    Admission submit(const QString &site, Client client, std::function<void()> check);

    int checksRun() const; // checks started
    int checksDropped() const; // clients that had left before their check's turn
    int waiting() const; // checks queued for a worker now
    // For tests: runs on the worker before each check (to count checks, or hold the workers). Set before serving.
    void setBeforeCheck(std::function<void()> hook);

private:
    struct Core;
    class Turn;
    std::shared_ptr<Core> m_core; // shared with the turns in flight, which may outlive this
};

} // namespace berth
