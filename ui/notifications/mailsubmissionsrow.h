#pragma once

#include "core/error.h"
#include "storage/webhook.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QWidget>
#include <optional>

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QPushButton;
QT_END_NAMESPACE

namespace berth {

// "Mail me new submissions" for one site: a mailto: webhook of the owner for submission.created on that site, made
// through the engine's webhook service (which mails through the instance's SMTP settings), or removed again. The
// address starts as the owner's own.
class MailSubmissionsRow final : public QWidget
{
    Q_OBJECT

public:
    MailSubmissionsRow(const DashboardContext &context, const QString &deploymentId, QWidget *parent = nullptr);

    // Shows whether one of webhooks mails this site's submissions.
    void showWebhooks(const QList<Webhook> &webhooks);
    static QString mailtoPrefix() { return QStringLiteral("mailto:"); }

Q_SIGNALS:
    void changed(); // a webhook was added or removed
    void failed(const QString &message);

private:
    void toggle();
    void updateButton();

    DashboardContext m_context;
    QString m_deploymentId;
    std::optional<Webhook> m_mailing; // the webhook that mails this site's submissions, if any
    bool m_busy = false;
    QLineEdit *m_address;
    QPushButton *m_button;
    QLabel *m_state;
};

} // namespace berth
