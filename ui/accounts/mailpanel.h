#pragma once

#include "ui/mainwindow/dashboardcontext.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
QT_END_NAMESPACE

namespace berth {

// How Berth mails sign-in codes: the SMTP server, its security, the account and the sender; a test message. With
// no server set, the owner passes codes on from the sign-in tab.
class MailPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit MailPanel(const DashboardContext &context, QWidget *parent = nullptr);

    // Shows the stored settings and the last delivery problem.
    void reload();
    void save();

Q_SIGNALS:
    void settingsChanged();

private:
    void securityChanged(int index);
    void clear();
    void sendTest();
    void updateStatus();

    DashboardContext m_context;
    QLineEdit *m_host;
    QSpinBox *m_port;
    QComboBox *m_security;
    QLineEdit *m_user;
    QLineEdit *m_password;
    QLineEdit *m_from;
    QPushButton *m_save;
    QPushButton *m_clear;
    QLineEdit *m_testTo;
    QPushButton *m_test;
    QLabel *m_status;
    QLabel *m_message;
    int m_lastSecurity = -1;
};

} // namespace berth
