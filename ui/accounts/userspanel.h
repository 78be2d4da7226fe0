#pragma once

#include "ui/mainwindow/dashboardcontext.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QComboBox;
class QGroupBox;
class QLabel;
class QTreeWidget;
QT_END_NAMESPACE

namespace berth {

// Everyone with an account on this Berth: the owner, people who signed in, agents. Each with their plan and what
// they use of it; the owner moves a user to another plan and revokes any of their keys.
class UsersPanel final : public QWidget
{
    Q_OBJECT

public:
    enum Column
    {
        UserColumn,
        PlanColumn,
        DeploymentsColumn,
        KeysColumn,
        CreatedColumn,
        LastActiveColumn
    };

    explicit UsersPanel(const DashboardContext &context, QWidget *parent = nullptr);

    QAction *const revokeKeyAction;

    // Reads users and keys again from the engine, keeping the selection.
    void reload();
    void selectUser(const QString &userId);

private:
    void reloadKeys();
    void updateControls();
    void applyPlan(int index);
    void revokeSelectedKey();
    QString describe(const User &user) const;

    DashboardContext m_context;
    QTreeWidget *m_users;
    QComboBox *m_plan;
    QGroupBox *m_keysBox;
    QTreeWidget *m_keys;
    QLabel *m_message;
};

} // namespace berth
