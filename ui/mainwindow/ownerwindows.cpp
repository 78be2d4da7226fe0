#include "ui/mainwindow/ownerwindows.h"

#include "ui/accounts/accountsdialog.h"
#include "ui/accounts/firstkeydialog.h"
#include "ui/accounts/keysdialog.h"
#include "ui/mainwindow/shortcutsdialog.h"
#include "ui/settings/settingsdialog.h"
#include "ui/widgets/icons.h"

#include <QCoreApplication>
#include <QMenu>
#include <QMessageBox>

using namespace Qt::StringLiterals;

namespace berth {

OwnerWindows::OwnerWindows(const DashboardContext &context, QWidget *window)
    : QObject(window)
    , m_context(context)
    , m_window(window)
{
}

void OwnerWindows::addFileActions(QMenu *file)
{
    QAction *keys = file->addAction(Icons::icon(u"key"_s), tr("API &Keys…"), this, &OwnerWindows::openKeys);
    keys->setObjectName(u"keysAction"_s);
    keys->setShortcut(Qt::CTRL | Qt::Key_K);
    QAction *accounts = file->addAction(Icons::icon(u"users"_s), tr("&Accounts…"), this, &OwnerWindows::showAccounts);
    accounts->setObjectName(u"accountsAction"_s);
    accounts->setShortcut(Qt::CTRL | Qt::Key_U);
    accounts->setStatusTip(tr("Users and their plans, who may sign in, sign-in codes to pass on, mail"));
    QAction *settings
        = file->addAction(Icons::icon(u"settings"_s), tr("&Settings…"), this, &OwnerWindows::openSettings);
    settings->setObjectName(u"settingsAction"_s);
    settings->setShortcut(Qt::CTRL | Qt::Key_Comma);
}

void OwnerWindows::addHelpActions(QMenu *help)
{
    help->addAction(tr("&Keyboard Shortcuts"), this, &OwnerWindows::openShortcuts)->setObjectName(u"shortcutsAction"_s);
    help->addAction(tr("&About Berth"), this, &OwnerWindows::about)->setObjectName(u"aboutAction"_s);
}

void OwnerWindows::openKeys()
{
    auto *dialog = new KeysDialog(m_context, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void OwnerWindows::openSettings()
{
    auto *dialog = new SettingsDialog(m_context, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (dialog->planLimitsChanged() && m_accounts)
            m_accounts->reload();
        Q_EMIT settingsSaved(dialog->planLimitsChanged());
    });
    dialog->open();
}

AccountsDialog *OwnerWindows::showAccounts()
{
    if (!m_accounts) {
        m_accounts = new AccountsDialog(m_context, m_window);
        m_accounts->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_accounts->show();
    m_accounts->raise();
    m_accounts->activateWindow();
    return m_accounts;
}

FirstKeyDialog *OwnerWindows::showFirstKey(const QString &key)
{
    auto *dialog = new FirstKeyDialog(m_context, key, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

void OwnerWindows::openShortcuts()
{
    auto *dialog = new ShortcutsDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

void OwnerWindows::about()
{
    QMessageBox::about(m_window, tr("About Berth"),
        tr("<h3>Berth %1</h3><p>Puts a folder on a live address from your own machine.</p>"
           "<p>Sites stay online while Berth runs, in this window or in the tray.</p>"
           "<p>GPL-3.0-or-later</p>")
            .arg(QCoreApplication::applicationVersion()));
}

} // namespace berth
