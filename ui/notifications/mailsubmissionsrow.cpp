#include "ui/notifications/mailsubmissionsrow.h"

#include "domain/events/eventtypes.h"
#include "domain/events/webhookservice.h"
#include "instance/engine.h"
#include "ui/widgets/errortext.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

MailSubmissionsRow::MailSubmissionsRow(const DashboardContext &context, const QString &deploymentId, QWidget *parent)
    : QWidget(parent)
    , m_context(context)
    , m_deploymentId(deploymentId)
    , m_address(new QLineEdit(context.owner.email, this))
    , m_button(new QPushButton(this))
    , m_state(new QLabel(this))
{
    m_address->setObjectName(u"mailAddressLineEdit"_s);
    m_address->setAccessibleName(tr("Address for new submissions"));
    m_address->setPlaceholderText(tr("you@example.com"));
    connect(m_address, &QLineEdit::textChanged, this, &MailSubmissionsRow::updateButton);
    m_button->setObjectName(u"mailSubmissionsButton"_s);
    connect(m_button, &QPushButton::clicked, this, &MailSubmissionsRow::toggle);
    m_state->setObjectName(u"mailStateLabel"_s);
    m_state->setWordWrap(true);

    auto *label = new QLabel(tr("&Mail to:"), this);
    label->setBuddy(m_address);
    auto *row = new QHBoxLayout;
    row->addWidget(label);
    row->addWidget(m_address, 1);
    row->addWidget(m_button);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_state);
    updateButton();
}

void MailSubmissionsRow::showWebhooks(const QList<Webhook> &webhooks)
{
    m_mailing.reset();
    for (const Webhook &webhook : webhooks) {
        if (webhook.deploymentId == m_deploymentId && webhook.url.startsWith(mailtoPrefix())
            && webhook.events.contains(QLatin1String(EventTypes::kSubmissionCreated)))
            m_mailing = webhook;
    }
    if (m_mailing)
        m_address->setText(m_mailing->url.mid(mailtoPrefix().size()));
    m_state->setText(m_mailing ? tr("New submissions are mailed to %1.").arg(m_address->text())
                               : tr("Submissions are not mailed; they wait in the site's Submissions window."));
    updateButton();
}

void MailSubmissionsRow::updateButton()
{
    m_address->setReadOnly(m_mailing.has_value());
    m_button->setText(m_mailing ? tr("&Stop Mailing") : tr("Mail Me &New Submissions"));
    const QString address = m_address->text().trimmed();
    m_button->setEnabled(!m_busy && (m_mailing || (address.contains(u'@') && !address.contains(u' '))));
}

void MailSubmissionsRow::toggle()
{
    WebhookService &webhooks = m_context.engine.webhooks();
    if (m_mailing) {
        if (const auto removed = webhooks.remove(m_context.owner, m_mailing->id); !removed)
            Q_EMIT failed(ErrorText::describe(removed.error()));
        Q_EMIT changed();
        return;
    }
    WebhookService::NewWebhook request;
    request.url = mailtoPrefix() + m_address->text().trimmed();
    request.events = {QLatin1String(EventTypes::kSubmissionCreated)};
    request.deploymentId = m_deploymentId;
    m_busy = true;
    updateButton();
    QPointer<MailSubmissionsRow> self(this); // the service may answer after a lookup, when the window is gone
    webhooks.add(m_context.owner, request, [self](Result<Webhook> added) {
        if (!self)
            return;
        self->m_busy = false;
        self->updateButton();
        if (!added)
            Q_EMIT self->failed(ErrorText::describe(added.error()));
        Q_EMIT self->changed();
    });
}

} // namespace berth
