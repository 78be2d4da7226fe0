#include "ui/accounts/signinpanel.h"

#include "domain/accounts/emailaddress.h"
#include "domain/accounts/otpservice.h"
#include "domain/accounts/signinpolicy.h"
#include "instance/engine.h"
#include "ui/widgets/actionbutton.h"
#include "ui/widgets/actionmaker.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/timetext.h"
#include "ui/widgets/treelist.h"

#include <QAction>
#include <QCheckBox>
#include <QClipboard>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
QLabel *makeNote(const QString &text, QWidget *parent)
{
    auto *note = new QLabel(text, parent);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    return note;
}

// "123 456": easier to read out than six digits in a row.
QString spaced(const QString &code)
{
    return code.size() == 6 ? code.left(3) + u' ' + code.mid(3) : code;
}
} // namespace

SignInPanel::SignInPanel(const DashboardContext &context, QWidget *parent)
    : QWidget(parent)
    , copyCodeAction(ActionMaker::make(
          this, u"copyCodeAction"_s, u"copy"_s, tr("&Copy Code"), QKeySequence::Copy, Qt::WidgetShortcut))
    , removeEmailAction(ActionMaker::make(
          this, u"removeEmailAction"_s, u"delete"_s, tr("&Remove"), QKeySequence::Delete, Qt::WidgetShortcut))
    , m_context(context)
    , m_signups(new QCheckBox(tr("Anyone may &sign up"), this))
    , m_lanAgents(new QCheckBox(tr("Allow &agent sessions from the local network"), this))
    , m_agentsNote(new QLabel(this))
    , m_allowList(nullptr)
    , m_email(new QLineEdit(this))
    , m_add(new QPushButton(Icons::icon(u"add"_s), tr("A&dd"), this))
    , m_accessMessage(new QLabel(this))
    , m_deliveryNote(new QLabel(this))
    , m_requests(nullptr)
    , m_requestsMessage(new QLabel(this))
{
    setObjectName(u"signInPanel"_s);
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(buildAccess(), 2);
    layout->addWidget(buildRequests(), 3); // the codes: the part to read out

    connect(m_signups, &QCheckBox::toggled, this, [this](bool open) {
        m_context.engine.signInPolicy().setSignupsOpen(open);
        reload();
    });
    connect(m_lanAgents, &QCheckBox::toggled, this, [this](bool lan) {
        m_context.engine.signInPolicy().setAgentSessionScope(
            lan ? AgentSessionScope::Lan : AgentSessionScope::Loopback);
        reload();
    });
    connect(m_email, &QLineEdit::textChanged, this, &SignInPanel::updateControls);
    connect(m_email, &QLineEdit::returnPressed, this, &SignInPanel::addEmail);
    connect(m_add, &QPushButton::clicked, this, &SignInPanel::addEmail);
    connect(removeEmailAction, &QAction::triggered, this, &SignInPanel::removeSelectedEmail);
    connect(copyCodeAction, &QAction::triggered, this, &SignInPanel::copyCode);
    connect(m_allowList, &QTreeWidget::currentItemChanged, this, &SignInPanel::updateControls);
    connect(m_requests, &QTreeWidget::currentItemChanged, this, &SignInPanel::updateControls);
    connect(m_requests, &QTreeWidget::itemActivated, copyCodeAction, &QAction::trigger);
    connect(&m_context.engine.signIns(), &OtpService::requestsChanged, this, &SignInPanel::reloadRequests);
    reload();
}

QWidget *SignInPanel::buildAccess()
{
    auto *box = new QGroupBox(tr("Who may sign in"), this);
    box->setObjectName(u"accessGroupBox"_s);
    m_signups->setObjectName(u"signupsCheckBox"_s);
    auto *signupsNote = makeNote(tr("Otherwise only the emails below. Whoever signs up while this is on joins the "
                                    "list, and stays on it when you turn it off."),
        box);
    m_allowList
        = TreeList::make(box, u"allowListTreeWidget"_s, tr("Emails that may sign in"), {tr("Email"), tr("Added")});
    m_allowList->addAction(removeEmailAction);
    removeEmailAction->setToolTip(tr("Takes the email off the list; keys its owner already has keep working"));
    m_email->setObjectName(u"allowEmailLineEdit"_s);
    m_email->setAccessibleName(tr("Email to allow"));
    m_email->setPlaceholderText(tr("name@example.com"));
    m_email->setMaxLength(254);
    m_add->setObjectName(u"addEmailButton"_s);
    m_accessMessage->setObjectName(u"accessMessageLabel"_s);
    m_accessMessage->setWordWrap(true);
    m_accessMessage->hide();
    m_lanAgents->setObjectName(u"lanAgentsCheckBox"_s);
    m_agentsNote->setObjectName(u"agentsNoteLabel"_s);
    m_agentsNote->setWordWrap(true);
    m_agentsNote->setForegroundRole(QPalette::PlaceholderText);

    auto *addRow = new QHBoxLayout;
    addRow->addWidget(m_email, 1);
    addRow->addWidget(m_add);
    addRow->addWidget(new ActionButton(removeEmailAction, box));
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_signups);
    layout->addWidget(signupsNote);
    layout->addWidget(m_allowList, 1);
    layout->addLayout(addRow);
    layout->addWidget(m_accessMessage);
    layout->addSpacing(8);
    layout->addWidget(m_lanAgents);
    layout->addWidget(m_agentsNote);
    return box;
}

QWidget *SignInPanel::buildRequests()
{
    auto *box = new QGroupBox(tr("Sign-in requests"), this);
    box->setObjectName(u"requestsGroupBox"_s);
    m_deliveryNote->setObjectName(u"deliveryNoteLabel"_s);
    m_deliveryNote->setWordWrap(true);
    m_requests = TreeList::make(box, u"signInRequestsTreeWidget"_s, tr("Sign-in requests"),
        {tr("Email"), tr("Code"), tr("Status"), tr("Expires")});
    m_requests->addAction(copyCodeAction);
    copyCodeAction->setToolTip(tr("Copies the selected request's code, to pass on to its person"));
    m_requestsMessage->setObjectName(u"requestsMessageLabel"_s);
    m_requestsMessage->setWordWrap(true);
    m_requestsMessage->hide();
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_requestsMessage, 1);
    bar->addWidget(new ActionButton(copyCodeAction, box), 0, Qt::AlignRight);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(m_deliveryNote);
    layout->addWidget(m_requests, 1);
    layout->addLayout(bar);
    return box;
}

void SignInPanel::reload()
{
    const SignInPolicy &policy = m_context.engine.signInPolicy();
    {
        const QSignalBlocker signups(m_signups);
        const QSignalBlocker agents(m_lanAgents);
        m_signups->setChecked(policy.signupsOpen());
        const AgentSessionScope scope = policy.agentSessionScope();
        m_lanAgents->setChecked(scope != AgentSessionScope::Loopback);
        switch (scope) {
        case AgentSessionScope::Loopback:
            m_agentsNote->setText(tr("Scripts and agents on this computer get a key with POST /auth/session; "
                                     "from elsewhere they are refused."));
            break;
        case AgentSessionScope::Lan:
            m_agentsNote->setText(tr("Scripts and agents on this computer and on private networks (10/8, 172.16/12, "
                                     "192.168/16, link-local) get a key with POST /auth/session."));
            break;
        case AgentSessionScope::Anywhere:
            m_agentsNote->setText(tr("Agent sessions are open to any address (berthd agents anywhere). Turn this "
                                     "off to allow this computer only."));
            break;
        }
    }
    const QList<AllowedEmail> emails = policy.allowList();
    TreeList::sync(
        m_allowList, emails, [](const AllowedEmail &allowed) { return allowed.email; },
        [](QTreeWidgetItem *item, const AllowedEmail &allowed) {
            item->setText(0, allowed.email);
            item->setText(1, TimeText::brief(allowed.addedAt));
            item->setToolTip(1, TimeText::full(allowed.addedAt));
        });
    reloadRequests();
}

void SignInPanel::reloadRequests()
{
    const SmtpConfig smtp = m_context.engine.signInPolicy().smtp();
    m_deliveryNote->setText(smtp.isConfigured()
            ? tr("Codes are mailed through %1. A code shows here when its mail could not be delivered.")
                  .arg(smtp.host.toHtmlEscaped())
            : tr("<b>Mail is not set up:</b> Berth does not send codes. Give each person the code of their request, "
                 "e.g. by phone or chat; it works for ten minutes."));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QList<SignInRequest> requests = m_context.engine.signIns().pendingRequests();
    TreeList::sync(
        m_requests, requests, [](const SignInRequest &request) { return request.email; },
        [&](QTreeWidgetItem *item, const SignInRequest &request) {
            item->setText(EmailColumn, request.email);
            item->setText(CodeColumn, spaced(request.relayCode));
            item->setData(CodeColumn, Qt::UserRole, request.relayCode);
            QString status;
            switch (request.delivery) {
            case SignInRequest::Delivery::Owner:
                status = tr("Pass it on");
                break;
            case SignInRequest::Delivery::Sending:
                status = tr("Mailing…");
                break;
            case SignInRequest::Delivery::Sent:
                status = tr("Mailed");
                break;
            case SignInRequest::Delivery::Failed:
                status = tr("Not delivered: pass it on");
                break;
            case SignInRequest::Delivery::Refused:
                status = tr("Not allowed to sign in");
                break;
            }
            item->setText(StatusColumn, status);
            item->setToolTip(StatusColumn,
                request.deliveryError.isEmpty() ? tr("Requested %1").arg(TimeText::full(request.requestedAt))
                                                : request.deliveryError);
            item->setText(ExpiresColumn,
                tr("%1 (%2)").arg(TimeText::brief(request.expiresAt), TimeText::relative(request.expiresAt, now)));
            item->setToolTip(ExpiresColumn, TimeText::full(request.expiresAt));
            item->setDisabled(request.delivery == SignInRequest::Delivery::Refused);
            QFont font = item->font(CodeColumn);
            font.setFamilies({u"monospace"_s});
            font.setStyleHint(QFont::Monospace);
            font.setBold(true);
            item->setFont(CodeColumn, font);
        });
    // The newest request a code can be copied from is at hand without a click.
    if (!m_requests->currentItem() || m_requests->currentItem()->isDisabled()) {
        for (int i = 0; i < m_requests->topLevelItemCount(); ++i) {
            if (!m_requests->topLevelItem(i)->data(CodeColumn, Qt::UserRole).toString().isEmpty()) {
                m_requests->setCurrentItem(m_requests->topLevelItem(i));
                break;
            }
        }
    }
    updateControls();
}

void SignInPanel::updateControls()
{
    m_add->setEnabled(EmailAddress::normalised(m_email->text()).has_value());
    const QTreeWidgetItem *allowed = m_allowList->currentItem();
    removeEmailAction->setEnabled(allowed);
    const QTreeWidgetItem *request = m_requests->currentItem();
    copyCodeAction->setEnabled(request && !request->data(CodeColumn, Qt::UserRole).toString().isEmpty());
}

void SignInPanel::addEmail()
{
    const QString typed = m_email->text().trimmed();
    if (typed.isEmpty())
        return;
    const auto result = m_context.engine.signInPolicy().allow(typed);
    if (!result) {
        Theme::showMessage(m_accessMessage, tr("“%1” is not an email address such as name@example.com.").arg(typed),
            Theme::Tone::Error);
        return;
    }
    Theme::showMessage(m_accessMessage, tr("%1 may sign in now.").arg(result.value().email), Theme::Tone::Success);
    m_email->clear();
    reload();
    for (int i = 0; i < m_allowList->topLevelItemCount(); ++i) {
        if (m_allowList->topLevelItem(i)->text(0) == result.value().email)
            m_allowList->setCurrentItem(m_allowList->topLevelItem(i));
    }
}

void SignInPanel::removeSelectedEmail()
{
    const QString email = TreeList::currentId(m_allowList);
    if (email.isEmpty())
        return;
    const auto result = m_context.engine.signInPolicy().disallow(email);
    Theme::showMessage(m_accessMessage,
        result ? tr("%1 may no longer sign in. Keys they already have keep working until you revoke them (Users).")
                     .arg(email)
               : result.error().message,
        result ? Theme::Tone::Normal : Theme::Tone::Error);
    reload();
}

void SignInPanel::copyCode()
{
    const QTreeWidgetItem *request = m_requests->currentItem();
    const QString code = request ? request->data(CodeColumn, Qt::UserRole).toString() : QString();
    if (code.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(code);
    Theme::showMessage(
        m_requestsMessage, tr("Copied the code for %1.").arg(request->text(EmailColumn)), Theme::Tone::Success);
}

} // namespace berth
