#pragma once

#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
class QWidget;
QT_END_NAMESPACE

namespace berth {

// The owner's API keys: create one with a label (its secret is shown once, to copy), or revoke one.
class KeysDialog final : public QDialog
{
    Q_OBJECT

public:
    explicit KeysDialog(const DashboardContext &context, QWidget *parent = nullptr);

    void reload();

private:
    void createKey();
    void revokeSelected();
    void updateButtons();

    DashboardContext m_context;
    QTreeWidget *m_keys;
    QLineEdit *m_label;
    QPushButton *m_createButton;
    QPushButton *m_revokeButton;
    QWidget *m_secretBox;
    QLabel *m_secretLabel;
    QLineEdit *m_secret;
    QString m_secretKeyId; // the key whose secret is shown
};

} // namespace berth
