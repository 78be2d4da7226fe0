#include "ui/sitelist/protectiondialog.h"

#include "domain/deploy/deploymentservice.h"
#include "domain/siterules/siteaddresses.h"
#include "instance/engine.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/qraddress.h"
#include "ui/widgets/qrcodeview.h"
#include "ui/widgets/theme.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

ProtectionDialog::ProtectionDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_deployment(deployment)
    , m_public(new QRadioButton(tr("P&ublic: anyone with the address can visit"), this))
    , m_private(new QRadioButton(tr("P&rivate: only people with the share link can visit"), this))
    , m_requirePassword(new QCheckBox(tr("Also require a &password"), this))
    , m_password(new QLineEdit(this))
    , m_shareLink(new QLineEdit(this))
    , m_copyShareLink(new QPushButton(Icons::icon(u"copy"_s), tr("&Copy"), this))
    , m_qrCode(new QrCodeView(this))
    , m_message(new QLabel(this))
{
    setObjectName(u"protectionDialog"_s);
    setWindowTitle(tr("Access to %1").arg(deployment.slug));
    setMinimumWidth(500);

    m_public->setObjectName(u"publicRadioButton"_s);
    m_private->setObjectName(u"privateRadioButton"_s);
    auto *group = new QButtonGroup(this);
    group->addButton(m_public);
    group->addButton(m_private);
    (deployment.isProtected ? m_private : m_public)->setChecked(true);

    const bool hasPassword = !deployment.passwordHash.isEmpty();
    m_requirePassword->setObjectName(u"requirePasswordCheckBox"_s);
    m_requirePassword->setChecked(hasPassword);
    m_password->setObjectName(u"passwordLineEdit"_s);
    m_password->setAccessibleName(tr("Password"));
    m_password->setEchoMode(QLineEdit::Password);
    m_password->setMaxLength(kMaxPasswordLength);
    m_password->setPlaceholderText(hasPassword ? tr("Set; type here to change it") : tr("New password"));

    m_shareLink->setObjectName(u"shareLinkLineEdit"_s);
    m_shareLink->setAccessibleName(tr("Share link"));
    m_shareLink->setReadOnly(true);
    if (deployment.isProtected) {
        m_shareLink->setText(context.engine.addresses().shareUrl(deployment.slug, deployment.shareToken));
        // The whole link in view, so that what is read out or checked is what gets copied.
        const QFontMetrics metrics = m_shareLink->fontMetrics();
        m_shareLink->setMinimumWidth(metrics.horizontalAdvance(m_shareLink->text()) + 4 * metrics.averageCharWidth());
        m_shareLink->setCursorPosition(0);
    }
    m_copyShareLink->setObjectName(u"copyShareLinkButton"_s);
    m_copyShareLink->setAccessibleName(tr("Copy share link"));
    connect(m_copyShareLink, &QPushButton::clicked, this,
        [this] { QGuiApplication::clipboard()->setText(m_shareLink->text()); });

    // The share link as a QR code, for a phone to scan instead of typing the token.
    m_qrCode->setObjectName(u"qrCodeView"_s);
    m_qrCode->setAccessibleName(tr("QR code of the share link"));
    if (deployment.isProtected)
        m_qrCode->setText(qrAddress(context.engine, deployment));
    m_qrCode->setFixedSize(m_qrCode->sizeHint());

    m_message->setObjectName(u"messageLabel"_s);
    m_message->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_saveButton = buttons->addButton(QDialogButtonBox::Save);
    m_saveButton->setObjectName(u"saveButton"_s);
    connect(buttons, &QDialogButtonBox::accepted, this, &ProtectionDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &ProtectionDialog::reject);
    connect(m_private, &QRadioButton::toggled, this, &ProtectionDialog::updateFields);
    connect(m_requirePassword, &QCheckBox::toggled, this, &ProtectionDialog::updateFields);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] { onSaved(m_watcher.future().result()); });

    auto *shareRow = new QHBoxLayout;
    shareRow->addWidget(m_shareLink, 1);
    shareRow->addWidget(m_copyShareLink);
    auto *passwordRow = new QHBoxLayout;
    passwordRow->addSpacing(24);
    passwordRow->addWidget(m_password, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_public);
    layout->addWidget(m_private);
    layout->addWidget(m_requirePassword);
    layout->addLayout(passwordRow);
    layout->addWidget(new QLabel(tr("Share link:"), this));
    layout->addLayout(shareRow);
    layout->addWidget(m_qrCode, 0, Qt::AlignHCenter);
    layout->addWidget(m_message);
    layout->addStretch();
    layout->addWidget(buttons);
    updateFields();
}

void ProtectionDialog::updateFields()
{
    const bool isPrivate = m_private->isChecked();
    m_requirePassword->setEnabled(isPrivate);
    m_password->setEnabled(isPrivate && m_requirePassword->isChecked());
    const bool hasLink = isPrivate && !m_shareLink->text().isEmpty();
    m_copyShareLink->setEnabled(hasLink);
    m_shareLink->setEnabled(hasLink);
    m_qrCode->setVisible(hasLink && m_qrCode->hasCode());
    QString note;
    if (isPrivate && m_shareLink->text().isEmpty())
        note = tr("A share link is made when you save.");
    else if (!isPrivate && m_deployment.isProtected)
        note = tr("Making the site public removes its share link and password. Making it private again later makes "
                  "a new link; the one given out now stops working.");
    Theme::showMessage(m_message, note, Theme::Tone::Normal);
}

void ProtectionDialog::accept()
{
    const bool hadPassword = !m_deployment.passwordHash.isEmpty();
    DeployRequest request;
    if (m_public->isChecked()) {
        request.protect = false;
    } else {
        request.protect = true;
        if (m_requirePassword->isChecked() && !m_password->text().isEmpty())
            request.password = m_password->text();
        else if (m_requirePassword->isChecked() && !hadPassword) {
            Theme::showMessage(m_message,
                tr("Type the password visitors will need, or untick “Also require a password”."), Theme::Tone::Error);
            return;
        } else if (!m_requirePassword->isChecked() && hadPassword)
            request.removePassword = true;
    }
    m_saveButton->setEnabled(false);
    m_watcher.setFuture(m_context.engine.deployments().update(m_context.owner, m_deployment.id, std::move(request)));
}

void ProtectionDialog::onSaved(const Result<Deployment> &result)
{
    m_saveButton->setEnabled(true);
    if (!result) {
        Theme::showMessage(m_message, ErrorText::describe(result.error()), Theme::Tone::Error);
        return;
    }
    QDialog::accept();
}

} // namespace berth
