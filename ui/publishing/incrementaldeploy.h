#pragma once

#include "core/error.h"
#include "domain/deploy/deployrequest.h"
#include "storage/deployment.h"

#include <QFutureWatcher>
#include <QObject>
#include <functional>

namespace berth {

// One deploy of packaged content that sends only what the engine lacks: the publish sheet, Redeploy from
// Folder and live folders all go through it. The files are hashed on a worker and go first named by sha256 alone;
// when the engine answers which of them this user's deployments do not hold, those go again with their content,
// once, and the rest stays named by hash. A request without files (a single page) is sent as it is.
class IncrementalDeploy final : public QObject
{
    Q_OBJECT

public:
    // Hands one request to the engine: DeploymentService::create or update, with the caller's owner and progress.
    using Send = std::function<QFuture<Result<Deployment>>(DeployRequest request)>;

    explicit IncrementalDeploy(QObject *parent = nullptr);
    ~IncrementalDeploy() override;
    Q_DISABLE_COPY_MOVE(IncrementalDeploy)

    // Deploys request (its files with their content) through sender; finished() follows, also for a refusal.
    // cancelled, when given, is asked before each request goes: true ends with DeployProgress::cancelledError().
    void start(DeployRequest request, Send sender, std::function<bool()> cancelled = {});
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    // Each request as it goes to the engine, so a test can see that only changed content travels.
    void sending(const berth::DeployRequest &request);
    void finished(const berth::Result<berth::Deployment> &result);

private:
    void send(DeployRequest request);
    void onAnswered();
    // m_full with every file named by hash, except those in withContent, which keep their content.
    DeployRequest byHash(const QStringList &withContent) const;
    void finish(const Result<Deployment> &result);

    Send m_send;
    std::function<bool()> m_cancelled;
    DeployRequest m_full;
    QList<QByteArray> m_hashes; // of m_full's files, in order
    QFutureWatcher<QList<QByteArray>> m_hashing;
    QFutureWatcher<Result<Deployment>> m_answer;
    bool m_running = false;
    bool m_contentSent = false; // the second request, with the missing content, went
};

} // namespace berth
