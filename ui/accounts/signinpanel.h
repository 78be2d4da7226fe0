#pragma once

#include "ui/mainwindow/dashboardcontext.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
QT_END_NAMESPACE

namespace berth {

// Who may sign in and how: sign-ups open or closed, the allow-list, agent sessions from the local network, and the
// sign-in requests waiting for their code, live, so that the owner can pass codes on when Berth does not mail them.
class SignInPanel final : public QWidget
{
    Q_OBJECT

public:
    enum RequestColumn
    {
        EmailColumn,
        CodeColumn,
        StatusColumn,
        ExpiresColumn
    };

    explicit SignInPanel(const DashboardContext &context, QWidget *parent = nullptr);

    QAction *const copyCodeAction;
    QAction *const removeEmailAction;

    // Reads the policy, the allow-list and the requests again.
    void reload();
    void reloadRequests();

private:
    QWidget *buildAccess();
    QWidget *buildRequests();
    void updateControls();
    void addEmail();
    void removeSelectedEmail();
    void copyCode();

    DashboardContext m_context;
    QCheckBox *m_signups;
    QCheckBox *m_lanAgents;
    QLabel *m_agentsNote;
    QTreeWidget *m_allowList;
    QLineEdit *m_email;
    QPushButton *m_add;
    QLabel *m_accessMessage;
    QLabel *m_deliveryNote;
    QTreeWidget *m_requests;
    QLabel *m_requestsMessage;
};

} // namespace berth
