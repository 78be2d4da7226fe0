#include "ui/notifications/notificationsdialog.h"

#include "domain/deploy/siteloader.h"
#include "domain/events/webhookservice.h"
#include "instance/engine.h"
#include "ui/notifications/mailsubmissionsrow.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/timetext.h"
#include "ui/widgets/treelist.h"

#include <QDialogButtonBox>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

QString statusText(const WebhookDelivery &delivery)
{
    if (delivery.status == u"delivered")
        return NotificationsDialog::tr("Delivered");
    if (delivery.status == u"failed")
        return NotificationsDialog::tr("Failed");
    return NotificationsDialog::tr("Pending");
}

// The receiver's answer: its HTTP status, or why there was none.
QString answerText(const WebhookDelivery &delivery)
{
    if (delivery.responseStatus > 0)
        return QString::number(delivery.responseStatus);
    return delivery.error;
}

QString whenText(const WebhookDelivery &delivery)
{
    if (delivery.deliveredAt.isValid())
        return TimeText::brief(delivery.deliveredAt);
    if (delivery.status == u"pending" && delivery.nextAttemptAt.isValid())
        return NotificationsDialog::tr("next try %1").arg(TimeText::brief(delivery.nextAttemptAt));
    return {};
}

} // namespace

NotificationsDialog::NotificationsDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_deploymentId(deployment.id)
    , m_mail(new MailSubmissionsRow(context, deployment.id, this))
    , m_webhooks(TreeList::make(
          this, u"webhooksList"_s, tr("Webhooks"), {tr("Address"), tr("Events"), tr("Sites"), tr("State")}))
    , m_deliveries(TreeList::make(this, u"deliveriesList"_s, tr("Last deliveries"),
          {tr("Event"), tr("Status"), tr("Attempts"), tr("Answer"), tr("When")}, 3))
    , m_sendTestButton(new QPushButton(tr("Send &Test"), this))
    , m_enableButton(new QPushButton(tr("Turn &On Again"), this))
    , m_message(new QLabel(this))
{
    setObjectName(u"notificationsDialog"_s);
    setWindowTitle(tr("%1 – Notifications").arg(deployment.slug));
    setWindowIcon(Icons::icon(u"mail"_s));
    setSizeGripEnabled(true);
    resize(780, 560);

    auto *mailBox = new QGroupBox(tr("Mail"), this);
    auto *mailLayout = new QVBoxLayout(mailBox);
    mailLayout->addWidget(m_mail);
    connect(m_mail, &MailSubmissionsRow::changed, this, &NotificationsDialog::refresh);
    connect(m_mail, &MailSubmissionsRow::failed, this, &NotificationsDialog::showError);

    connect(m_webhooks, &QTreeWidget::currentItemChanged, this, &NotificationsDialog::showDeliveries);
    m_sendTestButton->setObjectName(u"sendTestButton"_s);
    m_sendTestButton->setToolTip(tr("Send a ping event to the selected webhook now"));
    connect(m_sendTestButton, &QPushButton::clicked, this, &NotificationsDialog::sendTest);
    m_enableButton->setObjectName(u"enableWebhookButton"_s);
    m_enableButton->setToolTip(tr("Deliver the selected webhook's new events again"));
    connect(m_enableButton, &QPushButton::clicked, this, &NotificationsDialog::enableSelected);
    m_message->setObjectName(u"messageLabel"_s);
    m_message->setWordWrap(true);
    m_message->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_sendTestButton, QDialogButtonBox::ActionRole);
    buttons->addButton(m_enableButton, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &NotificationsDialog::reject);

    auto *webhooksLabel = new QLabel(tr("&Webhooks of this site:"), this);
    webhooksLabel->setBuddy(m_webhooks);
    auto *deliveriesLabel = new QLabel(tr("&Last deliveries of the selected webhook:"), this);
    deliveriesLabel->setBuddy(m_deliveries);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(mailBox);
    layout->addWidget(webhooksLabel);
    layout->addWidget(m_webhooks, 1);
    layout->addWidget(deliveriesLabel);
    layout->addWidget(m_deliveries, 2);
    layout->addWidget(m_message);
    layout->addWidget(buttons);

    m_refresh.setInterval(kRefreshMs);
    connect(&m_refresh, &QTimer::timeout, this, &NotificationsDialog::refresh);
    connect(&m_context.engine.siteLoader(), &SiteLoader::deploymentRemoved, this, [this](const QString &id) {
        if (id == m_deploymentId)
            close();
    });
    refresh();
}

void NotificationsDialog::refresh()
{
    const auto all = m_context.engine.webhooks().list(m_context.owner);
    if (!all) {
        showError(ErrorText::describe(all.error()));
        return;
    }
    QList<Webhook> applying;
    for (const Webhook &webhook : all.value()) {
        if (webhook.deploymentId.isEmpty() || webhook.deploymentId == m_deploymentId)
            applying.append(webhook);
    }
    m_mail->showWebhooks(applying);
    TreeList::sync(
        m_webhooks, applying, [](const Webhook &webhook) { return webhook.id; },
        [](QTreeWidgetItem *item, const Webhook &webhook) {
            item->setText(0, webhook.url);
            item->setToolTip(0, webhook.url);
            item->setText(1, webhook.events.join(u", "_s));
            item->setText(2, webhook.deploymentId.isEmpty() ? tr("All sites") : tr("This site"));
            // Turned off after failing every delivery for days: nothing goes out until it is turned on again.
            item->setText(3,
                webhook.disabledAt.isValid() ? tr("Off since %1").arg(TimeText::brief(webhook.disabledAt)) : tr("On"));
            item->setData(3, Qt::UserRole, webhook.disabledAt.isValid());
        });
    if (!m_webhooks->currentItem() && m_webhooks->topLevelItemCount() > 0)
        m_webhooks->setCurrentItem(m_webhooks->topLevelItem(0));
    showDeliveries();
}

void NotificationsDialog::showDeliveries()
{
    const QTreeWidgetItem *selected = m_webhooks->currentItem();
    m_enableButton->setEnabled(selected && selected->data(3, Qt::UserRole).toBool());
    const QString id = TreeList::currentId(m_webhooks);
    m_sendTestButton->setEnabled(!id.isEmpty());
    QList<WebhookDelivery> deliveries;
    if (!id.isEmpty()) {
        const auto found = m_context.engine.webhooks().deliveries(m_context.owner, id);
        if (found)
            deliveries = found.value();
    }
    TreeList::sync(
        m_deliveries, deliveries, [](const WebhookDelivery &delivery) { return delivery.id; },
        [](QTreeWidgetItem *item, const WebhookDelivery &delivery) {
            item->setText(0, delivery.type);
            item->setText(1, statusText(delivery));
            item->setText(2, QString::number(delivery.attempts));
            item->setText(3, answerText(delivery));
            item->setToolTip(3, answerText(delivery));
            item->setText(4, whenText(delivery));
        });
}

void NotificationsDialog::sendTest()
{
    const QString id = TreeList::currentId(m_webhooks);
    if (id.isEmpty())
        return;
    const auto ping = m_context.engine.webhooks().ping(m_context.owner, id);
    if (!ping) {
        showError(ErrorText::describe(ping.error()));
        return;
    }
    Theme::showMessage(m_message, tr("A test event is on its way."), Theme::Tone::Success);
    showDeliveries();
}

void NotificationsDialog::enableSelected()
{
    const QString id = TreeList::currentId(m_webhooks);
    if (id.isEmpty())
        return;
    const auto enabled = m_context.engine.webhooks().enable(m_context.owner, id);
    if (!enabled) {
        showError(ErrorText::describe(enabled.error()));
        return;
    }
    Theme::showMessage(m_message, tr("The webhook is on again: new events go out to it."), Theme::Tone::Success);
    refresh();
}

void NotificationsDialog::showError(const QString &message)
{
    Theme::showMessage(m_message, message, Theme::Tone::Error);
}

void NotificationsDialog::showEvent(QShowEvent *event)
{
    QDialog::showEvent(event);
    m_refresh.start();
}

void NotificationsDialog::hideEvent(QHideEvent *event)
{
    m_refresh.stop();
    QDialog::hideEvent(event);
}

} // namespace berth
