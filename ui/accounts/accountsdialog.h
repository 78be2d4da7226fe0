#pragma once

#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QTabWidget;
class QTimer;
QT_END_NAMESPACE

namespace berth {

class MailPanel;
class SignInPanel;
class UsersPanel;

// The owner's account controls, in a window of its own beside the dashboard: users with their plans and keys, who
// may sign in (with the codes waiting to be passed on, live), and the mail that carries codes.
class AccountsDialog final : public QDialog
{
    Q_OBJECT

public:
    enum class Tab
    {
        Users,
        SignIn,
        Mail
    };

    explicit AccountsDialog(const DashboardContext &context, QWidget *parent = nullptr);

    void showTab(Tab tab);
    // Everything again from the engine (also every few seconds, and when the window comes to the front).
    void reload();

    UsersPanel *usersPanel() const { return m_users; }
    SignInPanel *signInPanel() const { return m_signIn; }
    MailPanel *mailPanel() const { return m_mail; }

protected:
    void changeEvent(QEvent *event) override;

private:
    DashboardContext m_context;
    QTabWidget *m_tabs;
    UsersPanel *m_users;
    SignInPanel *m_signIn;
    MailPanel *m_mail;
    QTimer *m_refresh;
};

} // namespace berth
