#pragma once

#include <QObject>
#include <QTimer>

namespace berth {

class Clock;
class DeploymentRepository;
class DeploymentService;

// Takes sites offline when their expiry passes, exactly as their owner's delete would (DeploymentService::
// removeExpired): slug and plan slot freed, blobs left to the collector. Runs on the thread that owns the database
// (the engine's), never on a serving thread, and reads the time from the injected clock. Every server of a cluster
// sweeps; the delete is conditional on the expiry, so exactly one of them takes each site.
class SiteExpiry final : public QObject
{
    Q_OBJECT

public:
    static constexpr int kBatch = 100; // sites per sweep; a fuller backlog goes on at once, in turns with other work

    SiteExpiry(DeploymentRepository &repository, DeploymentService &deployments, const Clock &clock,
        QObject *parent = nullptr);

    void start(int intervalMs); // a sweep now (what expired while stopped), then one every intervalMs
    void stop();
    int sweep(); // one batch now: how many sites this server took offline (another server's share not counted)

Q_SIGNALS:
    void siteExpired(const QString &id, const QString &slug);

private:
    DeploymentRepository &m_repository;
    DeploymentService &m_deployments;
    const Clock &m_clock;
    QTimer m_timer;
};

} // namespace berth
