#pragma once

#include "core/error.h"
#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>
#include <QFutureWatcher>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
QT_END_NAMESPACE

namespace berth {

class QrCodeView;

// Who can visit a site: public, or private behind its share link, optionally with a password.
class ProtectionDialog final : public QDialog
{
    Q_OBJECT

public:
    ProtectionDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent = nullptr);

    void accept() override;

private:
    void updateFields();
    void onSaved(const Result<Deployment> &result);

    DashboardContext m_context;
    Deployment m_deployment;
    QFutureWatcher<Result<Deployment>> m_watcher;
    QRadioButton *m_public;
    QRadioButton *m_private;
    QCheckBox *m_requirePassword;
    QLineEdit *m_password;
    QLineEdit *m_shareLink;
    QPushButton *m_copyShareLink;
    QrCodeView *m_qrCode;
    QLabel *m_message;
    QPushButton *m_saveButton;
};

} // namespace berth
