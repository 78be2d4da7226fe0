#pragma once

#include "storage/deployment.h"
#include "storage/webhook.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>
#include <QTimer>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QTreeWidget;
QT_END_NAMESPACE

namespace berth {

class MailSubmissionsRow;

// Where a site's events go: the owner's webhooks that apply to it (its own and those for every site), the last
// deliveries of the one selected with their status, a "Send test" (a ping), and mail for new submissions. A window
// of its own beside the dashboard, read again every kRefreshMs while open, so deliveries show as they go out.
class NotificationsDialog final : public QDialog
{
    Q_OBJECT

public:
    static constexpr int kRefreshMs = 2000;

    NotificationsDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent = nullptr);

    QString deploymentId() const { return m_deploymentId; }
    // Reads the webhooks and the selected one's deliveries again (the timer does so while the window is open).
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void showDeliveries();
    void sendTest();
    void enableSelected();
    void showError(const QString &message);

    DashboardContext m_context;
    QString m_deploymentId;
    MailSubmissionsRow *m_mail;
    QTreeWidget *m_webhooks;
    QTreeWidget *m_deliveries;
    QPushButton *m_sendTestButton;
    QPushButton *m_enableButton;
    QLabel *m_message;
    QTimer m_refresh;
};

} // namespace berth
