#pragma once

#include "domain/sharing/sharelinkservice.h"
#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;
QT_END_NAMESPACE

namespace berth {

class QrCodeView;

// A private site's named share links: each with its label, state, opens and expiry; a new one made with a label, an
// expiry and a number of opens, its address shown once (copy, QR code); the selected one revoked, which shuts out
// whoever came in through it at their next request.
class ShareLinksDialog final : public QDialog
{
    Q_OBJECT

public:
    ShareLinksDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent = nullptr);

    // What the Expires choice offers, in seconds from now (0: never), in its order.
    static QList<qint64> expiryChoices();

private:
    void reload();
    void create();
    void revokeSelected();
    void showNewLink(const QString &url);
    QString selectedLinkId() const;

    DashboardContext m_context;
    Deployment m_deployment;
    QTreeWidget *m_list;
    QLineEdit *m_label;
    QComboBox *m_expires;
    QSpinBox *m_maxOpens;
    QPushButton *m_createButton;
    QPushButton *m_revokeButton;
    QLineEdit *m_newLink;
    QPushButton *m_copyNewLink;
    QrCodeView *m_qrCode;
    QLabel *m_message;
};

} // namespace berth
