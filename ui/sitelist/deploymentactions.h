#pragma once

#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"
#include "ui/visitors/submissionsdialog.h"

#include <QObject>
#include <optional>

QT_BEGIN_NAMESPACE
class QAction;
class QDialog;
class QMenu;
QT_END_NAMESPACE

namespace berth {

class DeploymentTableModel;
class LiveFolders;
class NotificationsDialog;
class TrafficDialog;

// Everything a person can do to a deployment, as actions with shortcuts for the menu bar, the
// toolbar and the context menu; and publishing, which opens the publish sheet.
class DeploymentActions final : public QObject
{
    Q_OBJECT

public:
    DeploymentActions(const DashboardContext &context, DeploymentTableModel &model, QWidget *window);

    // The deployment the actions apply to (the table's current row); empty for none.
    void setCurrentId(const QString &id);
    QString currentId() const { return m_currentId; }
    void addTo(QMenu *menu) const;

    void publish(const QString &path);
    void replaceContent(const QString &deploymentId, const QString &path);
    void choosePublishFolder();
    void choosePublishFile();
    // Opens the site's submissions and counters window on a tab, or raises the one already open.
    SubmissionsDialog *showSubmissions(const QString &deploymentId, SubmissionsDialog::Tab tab);
    // The site's traffic window, or its webhooks and deliveries: opened, or raised when open.
    TrafficDialog *showTraffic(const QString &deploymentId);
    NotificationsDialog *showNotifications(const QString &deploymentId);

    QAction *const openAction;
    QAction *const copyUrlAction;
    QAction *const copyShareLinkAction;
    QAction *const newShareLinkAction; // a private site's link replaced: the one given out stops working
    QAction *const shareLinksAction; // named links, each with its own expiry, opens and revocation
    QAction *const privateAction;
    QAction *const protectionAction;
    QAction *const renameAction;
    QAction *const editDetailsAction;
    QAction *const redeployAction;
    QAction *const submissionsAction;
    QAction *const countersAction;
    QAction *const trafficAction; // views, visitors, pages, referrers and 404s per day
    QAction *const notificationsAction; // the site's webhooks, their deliveries, mail for new submissions
    QAction *const expiryAction; // when the site goes offline by itself: extend or remove
    QAction *const deleteAction;
    QAction *const historyAction; // the site's kept versions and rollback
    QAction *const liveAction; // checkable: the site follows its source folder
    LiveFolders &liveFolders() const { return *m_live; }

Q_SIGNALS:
    void statusMessage(const QString &text);
    void published(const QString &deploymentId);

private:
    std::optional<Deployment> current() const;
    // The site most recently updated of those published from path, if any.
    std::optional<Deployment> publishedFrom(const QString &path) const;
    QAction *makeAction(
        const QString &objectName, const QString &icon, const QString &text, const QKeySequence &shortcut);
    void updateActions();
    void openDialog(QDialog *dialog);
    void openInBrowser();
    void copyUrl();
    void copyShareLink();
    void replaceShareLink();
    void setPrivate(bool makePrivate);
    void redeploy();
    void remove();

    DashboardContext m_context;
    DeploymentTableModel &m_model;
    QWidget *m_window;
    QString m_currentId;
    LiveFolders *m_live;
};

} // namespace berth
