#pragma once

#include "ui/mainwindow/dashboardcontext.h"

#include <QObject>
#include <QPointer>

QT_BEGIN_NAMESPACE
class QMenu;
class QWidget;
QT_END_NAMESPACE

namespace berth {

class AccountsDialog;
class FirstKeyDialog;

// The owner's windows that the main window's File and Help menus open, and those menus' entries for them: API keys,
// settings, the accounts (one window, brought to the front when it is open already), the first-run key sheet, the
// keyboard shortcuts and About. Each is a child of the main window and deletes itself when closed.
class OwnerWindows final : public QObject
{
    Q_OBJECT

public:
    OwnerWindows(const DashboardContext &context, QWidget *window);

    // The entries that open them: API Keys, Accounts and Settings in the File menu, the shortcuts and About in Help.
    void addFileActions(QMenu *file);
    void addHelpActions(QMenu *help);

    void openKeys();
    void openSettings();
    AccountsDialog *showAccounts();
    FirstKeyDialog *showFirstKey(const QString &key);
    void openShortcuts();
    void about();

Q_SIGNALS:
    // Settings were saved; planLimitsChanged when a plan's limits were among what changed.
    void settingsSaved(bool planLimitsChanged);

private:
    DashboardContext m_context;
    QWidget *m_window;
    QPointer<AccountsDialog> m_accounts;
};

} // namespace berth
