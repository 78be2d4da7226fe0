#pragma once

#include "ui/mainwindow/dashboardcontext.h"
#include "ui/widgets/appearance.h"
#include "ui/widgets/prompter.h"

#include <QMainWindow>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QStackedWidget;
QT_END_NAMESPACE

namespace berth {

class AccountsDialog;
class DeploymentActions;
class DeploymentFilterModel;
class DeploymentTableModel;
class DeploymentTableView;
class EmptyStatePage;
class FirstKeyDialog;
class Notifier;
class OwnerWindows;
class SubmissionAlerts;
class WebhookAlerts;
class TrayController;

// The dashboard: where Berth is serving, the owner's deployments, and everything to do with them.
// Folders and .html files dropped anywhere on it publish a new site; dropped on a row, they replace
// that site's content.
class MainWindow final : public QMainWindow
{
    Q_OBJECT

public:
    MainWindow(Engine &engine, AppSettings &settings, QWidget *parent = nullptr);
    ~MainWindow() override;

    Prompter &prompter() { return m_prompter; }
    DeploymentTableModel &model() const { return *m_model; }
    DeploymentActions &actions() const { return *m_actions; }
    DeploymentTableView *tableView() const { return m_table; }
    SubmissionAlerts &submissionAlerts() const { return *m_alerts; }
    // Where notifications go: the tray icon unless a test sets its own.
    void setNotifier(Notifier *notifier);

    void selectDeployment(const QString &id);
    // The owner's account controls, one window, opened at the tab (or brought to the front).
    AccountsDialog *showAccounts();
    // Publishes one path as a new site, or replaces targetId's content with it.
    void publishPaths(const QStringList &paths, const QString &targetId = {});

    // File > Quit, Ctrl+Q and the tray's Quit: cancels what is only being prepared, waits for a
    // publish the engine is committing ("Finishing publish…"), then emits readyToQuit.
    void quit();
    bool isQuitting() const { return m_quitting; }
    // The first-run sheet with the owner's first API key, shown this once.
    FirstKeyDialog *showFirstKey(const QString &key);
    // Shows the window in front of the others (from the tray, or asked by a second `berth`).
    void bringToFront();

Q_SIGNALS:
    // Nothing is left in flight: main() ends the event loop, and with it the engine stops serving.
    void readyToQuit();

protected:
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragLeaveEvent(QDragLeaveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void closeEvent(QCloseEvent *event) override;

private:
    void buildMenus();
    void updateView();
    void updateCurrent();
    void showContextMenu(const QPoint &position);
    void showDropHint(int proxyRow, bool active);
    QString idAtRow(int proxyRow) const;
    void applySettings(bool planLimitsChanged); // what Settings changes in this window at once
    void onPublished(const QString &id);
    void saveState();

    Appearance m_appearance; // first: it remembers the desktop's look before anything changes it
    Prompter m_prompter;
    DashboardContext m_context;
    DeploymentTableModel *m_model;
    DeploymentFilterModel *m_proxy;
    DeploymentTableView *m_table;
    DeploymentActions *m_actions;
    TrayController *m_tray;
    SubmissionAlerts *m_alerts;
    WebhookAlerts *m_webhookAlerts;
    OwnerWindows *m_owner;
    QStackedWidget *m_stack = nullptr;
    EmptyStatePage *m_empty = nullptr;
    QLabel *m_noMatch = nullptr;
    QLineEdit *m_filter = nullptr;
    QLabel *m_count = nullptr;
    bool m_trayHintShown = false;
    bool m_quitting = false;
    Notifier *m_notifier = nullptr; // the tray unless a test sets its own
};

} // namespace berth
