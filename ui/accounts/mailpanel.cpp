#include "ui/accounts/mailpanel.h"

#include "domain/accounts/emailaddress.h"
#include "domain/accounts/otpservice.h"
#include "domain/accounts/signinpolicy.h"
#include "instance/engine.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/timetext.h"

#include <QAction>
#include <QComboBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kMaxPort = 65535;

int defaultPort(SmtpConfig::Security security)
{
    switch (security) {
    case SmtpConfig::Security::None:
        return 25;
    case SmtpConfig::Security::StartTls:
        return 587;
    case SmtpConfig::Security::Tls:
        return 465;
    }
    return SmtpConfig::kDefaultPort;
}
} // namespace

MailPanel::MailPanel(const DashboardContext &context, QWidget *parent)
    : QWidget(parent)
    , m_context(context)
    , m_host(new QLineEdit(this))
    , m_port(new QSpinBox(this))
    , m_security(new QComboBox(this))
    , m_user(new QLineEdit(this))
    , m_password(new QLineEdit(this))
    , m_from(new QLineEdit(this))
    , m_save(new QPushButton(Icons::icon(u"check"_s), tr("Sa&ve Mail Settings"), this))
    , m_clear(new QPushButton(Icons::icon(u"delete"_s), tr("Stop Mai&ling…"), this))
    , m_testTo(new QLineEdit(this))
    , m_test(new QPushButton(Icons::icon(u"mail"_s), tr("Send &Test"), this))
    , m_status(new QLabel(this))
    , m_message(new QLabel(this))
{
    setObjectName(u"mailPanel"_s);
    m_host->setObjectName(u"smtpHostLineEdit"_s);
    m_host->setAccessibleName(tr("SMTP server"));
    m_host->setPlaceholderText(tr("smtp.example.com"));
    m_port->setObjectName(u"smtpPortSpinBox"_s);
    m_port->setAccessibleName(tr("Port"));
    m_port->setRange(1, kMaxPort);
    m_port->setGroupSeparatorShown(false);
    m_security->setObjectName(u"smtpSecurityComboBox"_s);
    m_security->setAccessibleName(tr("Security"));
    m_security->addItem(tr("STARTTLS (port 587)"), int(SmtpConfig::Security::StartTls));
    m_security->addItem(tr("TLS (port 465)"), int(SmtpConfig::Security::Tls));
    m_security->addItem(tr("None: a relay you trust (port 25)"), int(SmtpConfig::Security::None));
    m_user->setObjectName(u"smtpUserLineEdit"_s);
    m_user->setAccessibleName(tr("SMTP user name"));
    m_user->setPlaceholderText(tr("Empty: no sign-in"));
    m_password->setObjectName(u"smtpPasswordLineEdit"_s);
    m_password->setAccessibleName(tr("SMTP password"));
    m_password->setEchoMode(QLineEdit::Password);
    QAction *reveal = m_password->addAction(Icons::icon(u"eye"_s), QLineEdit::TrailingPosition);
    reveal->setObjectName(u"revealPasswordAction"_s);
    reveal->setCheckable(true);
    reveal->setToolTip(tr("Show the password"));
    connect(reveal, &QAction::toggled, this,
        [this](bool shown) { m_password->setEchoMode(shown ? QLineEdit::Normal : QLineEdit::Password); });
    m_from->setObjectName(u"smtpFromLineEdit"_s);
    m_from->setAccessibleName(tr("Sender address"));
    m_from->setPlaceholderText(tr("berth@example.com"));
    m_save->setObjectName(u"saveMailButton"_s);
    m_clear->setObjectName(u"clearMailButton"_s);
    m_testTo->setObjectName(u"testToLineEdit"_s);
    m_testTo->setAccessibleName(tr("Test message recipient"));
    m_testTo->setPlaceholderText(tr("you@example.com"));
    m_test->setObjectName(u"sendTestButton"_s);
    m_status->setObjectName(u"mailStatusLabel"_s);
    m_status->setWordWrap(true);
    m_message->setObjectName(u"mailMessageLabel"_s);
    m_message->setWordWrap(true);
    m_message->hide();

    auto *server = new QGroupBox(tr("Mail for sign-in codes"), this);
    server->setObjectName(u"smtpGroupBox"_s);
    auto *portRow = new QHBoxLayout;
    portRow->addWidget(m_port);
    auto *securityLabel = new QLabel(tr("S&ecurity:"), server);
    securityLabel->setBuddy(m_security);
    portRow->addWidget(securityLabel);
    portRow->addWidget(m_security, 1);
    auto *form = new QFormLayout(server);
    form->addRow(tr("SMTP &server:"), m_host);
    auto *portLabel = new QLabel(tr("&Port:"), server);
    portLabel->setBuddy(m_port);
    form->addRow(portLabel, portRow);
    form->addRow(tr("User &name:"), m_user);
    form->addRow(tr("Pass&word:"), m_password);
    form->addRow(tr("Sen&der:"), m_from);
    auto *note = new QLabel(tr("Berth keeps the password in its database, as it needs it to send: keep the data "
                               "folder private."),
        server);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    form->addRow(note);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_clear);
    buttons->addStretch();
    buttons->addWidget(m_save);
    form->addRow(buttons);

    auto *test = new QGroupBox(tr("Test"), this);
    test->setObjectName(u"testGroupBox"_s);
    auto *testRow = new QHBoxLayout(test);
    auto *toLabel = new QLabel(tr("Send a test message t&o:"), test);
    toLabel->setBuddy(m_testTo);
    testRow->addWidget(toLabel);
    testRow->addWidget(m_testTo, 1);
    testRow->addWidget(m_test);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(server);
    layout->addWidget(test);
    layout->addWidget(m_message);
    layout->addStretch();
    const QList<QWidget *> order {
        m_host, m_port, m_security, m_user, m_password, m_from, m_save, m_clear, m_testTo, m_test};
    for (qsizetype i = 1; i < order.size(); ++i)
        setTabOrder(order.at(i - 1), order.at(i));

    connect(m_security, &QComboBox::currentIndexChanged, this, &MailPanel::securityChanged);
    connect(m_save, &QPushButton::clicked, this, &MailPanel::save);
    connect(m_clear, &QPushButton::clicked, this, &MailPanel::clear);
    connect(m_test, &QPushButton::clicked, this, &MailPanel::sendTest);
    connect(m_testTo, &QLineEdit::returnPressed, this, &MailPanel::sendTest);
    reload();
}

void MailPanel::reload()
{
    const SmtpConfig smtp = m_context.engine.signInPolicy().smtp();
    m_host->setText(smtp.host);
    m_user->setText(smtp.user);
    m_password->setText(smtp.password);
    m_from->setText(smtp.from);
    {
        const QSignalBlocker blocker(m_security);
        m_security->setCurrentIndex(m_security->findData(int(smtp.security)));
    }
    m_lastSecurity = m_security->currentIndex();
    m_port->setValue(smtp.port);
    updateStatus();
}

void MailPanel::updateStatus()
{
    const SignInPolicy &policy = m_context.engine.signInPolicy();
    const SmtpConfig smtp = policy.smtp();
    QDateTime when;
    const QString lastError = policy.smtpLastError(&when);
    QString text = smtp.isConfigured()
        ? tr("Sign-in codes are mailed through <b>%1:%2</b>.").arg(smtp.host.toHtmlEscaped()).arg(smtp.port)
        : tr("<b>Mail is not set up.</b> Berth sends no codes: you pass them on from the Sign-in tab.");
    if (!lastError.isEmpty()) {
        text += u"<br>"_s + tr("Last delivery failed %1: %2").arg(TimeText::brief(when), lastError.toHtmlEscaped());
    }
    m_status->setText(text);
    m_clear->setEnabled(smtp.isConfigured());
    m_test->setEnabled(smtp.isConfigured());
}

void MailPanel::securityChanged(int index)
{
    // A port still at the old security's usual number follows to the new one's.
    const auto before = SmtpConfig::Security(m_security->itemData(m_lastSecurity).toInt());
    const auto after = SmtpConfig::Security(m_security->itemData(index).toInt());
    if (m_lastSecurity >= 0 && m_port->value() == defaultPort(before))
        m_port->setValue(defaultPort(after));
    m_lastSecurity = index;
}

void MailPanel::save()
{
    SmtpConfig smtp;
    smtp.host = m_host->text().trimmed();
    smtp.port = m_port->value();
    smtp.security = SmtpConfig::Security(m_security->currentData().toInt());
    smtp.user = m_user->text().trimmed();
    smtp.password = m_password->text();
    smtp.from = m_from->text().trimmed();
    // The usual mistakes in the dashboard's words; anything else in the engine's.
    QWidget *wrong = nullptr;
    QString problem;
    if (smtp.host.isEmpty() || smtp.host.contains(u' ') || smtp.host.contains(u'/')) {
        wrong = m_host;
        problem = tr("Enter the SMTP server's host name, such as smtp.example.com.");
    } else if (!EmailAddress::normalised(smtp.from)) {
        wrong = m_from;
        problem = tr("Enter the sender's email address, such as berth@example.com.");
    }
    if (wrong) {
        Theme::showMessage(m_message, problem, Theme::Tone::Error);
        wrong->setFocus();
        return;
    }
    const auto result = m_context.engine.signInPolicy().setSmtp(smtp);
    if (!result) {
        Theme::showMessage(m_message, result.error().message, Theme::Tone::Error);
        return;
    }
    Theme::showMessage(m_message, tr("Saved. The next sign-in code goes out by mail."), Theme::Tone::Success);
    updateStatus();
    Q_EMIT settingsChanged();
}

void MailPanel::clear()
{
    const auto answer = m_context.prompter.question(this, tr("Stop Mailing"),
        tr("Forget the mail settings? Berth then sends no sign-in codes: you pass them on yourself."),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel, tr("&Stop Mailing"));
    if (answer != QMessageBox::Yes)
        return;
    if (!m_context.engine.signInPolicy().clearSmtp()) {
        Theme::showMessage(m_message, tr("The mail settings could not be removed."), Theme::Tone::Error);
        return;
    }
    reload();
    Theme::showMessage(m_message, tr("Mail settings removed: you pass sign-in codes on."), Theme::Tone::Normal);
    Q_EMIT settingsChanged();
}

void MailPanel::sendTest()
{
    if (!m_test->isEnabled())
        return;
    const auto to = EmailAddress::normalised(m_testTo->text());
    if (!to) {
        Theme::showMessage(m_message, tr("Enter the address to send the test message to."), Theme::Tone::Error);
        m_testTo->setFocus();
        return;
    }
    m_test->setEnabled(false);
    Theme::showMessage(m_message, tr("Sending a test message to %1…").arg(*to), Theme::Tone::Normal);
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, address = *to] {
        const QString error = watcher->result();
        watcher->deleteLater();
        if (error.isEmpty())
            Theme::showMessage(m_message, tr("The test message to %1 is sent.").arg(address), Theme::Tone::Success);
        else
            Theme::showMessage(m_message, tr("The test message failed: %1").arg(error), Theme::Tone::Error);
        updateStatus();
    });
    watcher->setFuture(m_context.engine.signIns().sendTestMessage(*to));
}

} // namespace berth
