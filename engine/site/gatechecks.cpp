#include "site/gatechecks.h"

#include <QHash>
#include <QObject>
#include <QThread>
#include <QThreadPool>
#include <atomic>
#include <deque>
#include <mutex>
#include <vector>

namespace berth {

namespace {

// Each serving thread's own post box for the checks' turns, made there on first use and closed as the thread ends,
// so that a turn offered to a thread that has stopped serving is dropped instead of posted to a deleted object.
struct ThreadAnchor
{
    QObject anchor;
    std::shared_ptr<ThreadMailbox> mailbox = std::make_shared<ThreadMailbox>(&anchor);

    ThreadAnchor() = default;
    ~ThreadAnchor() { mailbox->close(); }
    Q_DISABLE_COPY_MOVE(ThreadAnchor)
};

} // namespace

struct GateChecks::Core
{
    struct Job
    {
        Client client;
        std::function<void()> check;
    };

    Core(QThreadPool &workers, Limits chosen)
        : pool(workers)
        , limits(chosen)
    {
    }

    // Gives free workers to the sites next in turn. With mutex held.
    std::vector<std::shared_ptr<Turn>> takeTurns(const std::shared_ptr<Core> &self);
    // A turn has ended (its check ran, or its client had left): the worker goes to the next site in turn.
    static void releaseWorker(const std::shared_ptr<Core> &core, const QString &site);

    QThreadPool &pool;
    const Limits limits;
    // A std::mutex rather than a QMutex: ThreadSanitizer sees it, and Qt's own locks are invisible to it.
    mutable std::mutex mutex;
    bool closed = false;
    int busy = 0; // workers taken: checks running, or turns offered to their clients
    int waiting = 0;
    QHash<QString, std::deque<Job>> queues; // site -> its checks waiting, oldest first
    QHash<QString, int> running; // site -> its turns taken and not yet ended
    // The sites that may take the next free worker, in turn: checks waiting, and fewer than runningPerSite under way.
    // A site leaves the line when it takes a turn and joins it again at the back.
    std::deque<QString> rotation;
    std::function<void()> beforeCheck;
    std::atomic<int> run {0};
    std::atomic<int> dropped {0};
};

// A worker given to one check. Offered to the check's client on the client's own thread, which starts the check if
// the client is still there. However it ends (run, dropped, or never delivered because that thread stopped serving),
// its destruction hands the worker on.
class GateChecks::Turn final : public std::enable_shared_from_this<Turn>
{
public:
    Turn(std::shared_ptr<Core> core, QString site, Core::Job job)
        : m_core(std::move(core))
        , m_site(std::move(site))
        , m_job(std::move(job))
    {
    }
    ~Turn()
    {
        if (!m_ran.load())
            m_core->dropped.fetch_add(1);
        Core::releaseWorker(m_core, m_site);
    }
    Q_DISABLE_COPY_MOVE(Turn)

    // From any thread.
    void offer()
    {
        if (m_job.client.thread == QThread::currentThread())
            return begin();
        m_job.client.mailbox->post([self = shared_from_this()] { self->begin(); });
    }

private:
    // On the client's thread, the only one that may ask its connection.
    void begin()
    {
        if (!m_job.client.sink.isConnected())
            return;
        const std::lock_guard<std::mutex> locker(m_core->mutex);
        if (!m_core->closed)
            m_core->pool.start([self = shared_from_this()] { self->run(); });
    }

    // On a worker.
    void run()
    {
        std::function<void()> hook;
        {
            const std::lock_guard<std::mutex> locker(m_core->mutex);
            hook = m_core->beforeCheck;
        }
        if (hook)
            hook();
        m_core->run.fetch_add(1);
        m_ran.store(true);
        m_job.check();
    }

    const std::shared_ptr<Core> m_core;
    const QString m_site;
    const Core::Job m_job;
    std::atomic<bool> m_ran {false};
};

std::vector<std::shared_ptr<GateChecks::Turn>> GateChecks::Core::takeTurns(const std::shared_ptr<Core> &self)
{
    std::vector<std::shared_ptr<Turn>> turns;
    while (!closed && busy < limits.workers && !rotation.empty()) {
        const QString site = rotation.front();
        rotation.pop_front();
        const auto queue = queues.find(site);
        Job job = std::move(queue->front());
        queue->pop_front();
        const int under = ++running[site];
        if (queue->empty())
            queues.erase(queue);
        else if (under < limits.runningPerSite)
            rotation.push_back(site); // behind every other site waiting
        --waiting;
        ++busy;
        turns.push_back(std::make_shared<Turn>(self, site, std::move(job)));
    }
    return turns;
}

void GateChecks::Core::releaseWorker(const std::shared_ptr<Core> &core, const QString &site)
{
    std::vector<std::shared_ptr<Turn>> next;
    {
        const std::lock_guard<std::mutex> locker(core->mutex);
        --core->busy;
        const int under = --core->running[site];
        if (under <= 0)
            core->running.remove(site);
        // A site held back by its share of the workers takes its place in line again, at the back.
        if (under == core->limits.runningPerSite - 1 && core->queues.contains(site))
            core->rotation.push_back(site);
        next = core->takeTurns(core);
    }
    for (const std::shared_ptr<Turn> &turn : next)
        turn->offer();
}

GateChecks::Client GateChecks::clientHere(const ResponseSink &sink)
{
    thread_local ThreadAnchor anchor;
    return {sink, anchor.mailbox, QThread::currentThread()};
}

GateChecks::GateChecks(QThreadPool &pool, Limits limits)
    : m_core(std::make_shared<Core>(pool, limits))
{
}

GateChecks::~GateChecks()
{
    // Checks still waiting are forgotten (outside the lock: their clients go with them); turns in flight find the
    // queues closed and start nothing more.
    QHash<QString, std::deque<Core::Job>> abandoned;
    const std::lock_guard<std::mutex> locker(m_core->mutex);
    m_core->closed = true;
    abandoned.swap(m_core->queues);
    m_core->rotation.clear();
    m_core->waiting = 0;
}

GateChecks::Admission GateChecks::submit(const QString &site, Client client, std::function<void()> check)
{
    std::vector<std::shared_ptr<Turn>> turns;
    {
        const std::lock_guard<std::mutex> locker(m_core->mutex);
        if (m_core->closed)
            return Admission::AllFull;
        const auto found = m_core->queues.constFind(site);
        if (found != m_core->queues.constEnd() && int(found->size()) >= m_core->limits.queuedPerSite)
            return Admission::SiteFull;
        if (m_core->waiting >= m_core->limits.queuedInAll)
            return Admission::AllFull;
        std::deque<Core::Job> &queue = m_core->queues[site];
        if (queue.empty() && m_core->running.value(site) < m_core->limits.runningPerSite)
            m_core->rotation.push_back(site);
        queue.push_back({std::move(client), std::move(check)});
        ++m_core->waiting;
        turns = m_core->takeTurns(m_core);
    }
    for (const std::shared_ptr<Turn> &turn : turns)
        turn->offer();
    return Admission::Queued;
}

int GateChecks::checksRun() const
{
    return m_core->run.load();
}

int GateChecks::checksDropped() const
{
    return m_core->dropped.load();
}

int GateChecks::waiting() const
{
    const std::lock_guard<std::mutex> locker(m_core->mutex);
    return m_core->waiting;
}

void GateChecks::setBeforeCheck(std::function<void()> hook)
{
    const std::lock_guard<std::mutex> locker(m_core->mutex);
    m_core->beforeCheck = std::move(hook);
}

} // namespace berth
