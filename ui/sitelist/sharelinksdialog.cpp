#include "ui/sitelist/sharelinksdialog.h"

#include "domain/common/clock.h"
#include "instance/engine.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/qrcodeview.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/timetext.h"

#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

enum Column
{
    LabelColumn,
    StateColumn,
    OpensColumn,
    ExpiresColumn,
    LastOpenedColumn,
};

constexpr qint64 kDay = 24 * 60 * 60;

QString stateText(ShareLinkState state)
{
    switch (state) {
    case ShareLinkState::Open:
        return ShareLinksDialog::tr("Open");
    case ShareLinkState::Expired:
        return ShareLinksDialog::tr("Expired");
    case ShareLinkState::Exhausted:
        return ShareLinksDialog::tr("Used up");
    case ShareLinkState::Revoked:
        return ShareLinksDialog::tr("Revoked");
    }
    return {};
}

} // namespace

QList<qint64> ShareLinksDialog::expiryChoices()
{
    return {0, kDay, 7 * kDay, 30 * kDay};
}

ShareLinksDialog::ShareLinksDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_deployment(deployment)
    , m_list(new QTreeWidget(this))
    , m_label(new QLineEdit(this))
    , m_expires(new QComboBox(this))
    , m_maxOpens(new QSpinBox(this))
    , m_createButton(new QPushButton(Icons::icon(u"add"_s), tr("Create &Link"), this))
    , m_revokeButton(new QPushButton(tr("&Revoke"), this))
    , m_newLink(new QLineEdit(this))
    , m_copyNewLink(new QPushButton(Icons::icon(u"copy"_s), tr("&Copy"), this))
    , m_qrCode(new QrCodeView(this))
    , m_message(new QLabel(this))
{
    setObjectName(u"shareLinksDialog"_s);
    setWindowTitle(tr("Share links of %1").arg(deployment.slug));
    setMinimumWidth(620);

    auto *intro = new QLabel(deployment.isProtected
            ? tr("Each link opens this private site for whoever has it. Revoking one shuts out only the visitors who "
                 "came in through it.")
            : tr("This site is public: anyone with its address can visit. Links matter once it is private (Access…)."),
        this);
    intro->setWordWrap(true);

    m_list->setObjectName(u"shareLinksList"_s);
    m_list->setAccessibleName(tr("Share links"));
    m_list->setRootIsDecorated(false);
    m_list->setHeaderLabels({tr("Label"), tr("State"), tr("Opens"), tr("Expires"), tr("Last opened")});
    m_list->header()->setSectionResizeMode(LabelColumn, QHeaderView::Stretch);
    m_list->header()->setStretchLastSection(false);
    m_list->setMinimumHeight(160);
    m_revokeButton->setObjectName(u"revokeLinkButton"_s);
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, [this] {
        const QTreeWidgetItem *item = m_list->currentItem();
        m_revokeButton->setEnabled(item && item->isSelected() && item->data(StateColumn, Qt::UserRole).toBool());
    });
    connect(m_revokeButton, &QPushButton::clicked, this, &ShareLinksDialog::revokeSelected);

    m_label->setObjectName(u"linkLabelLineEdit"_s);
    m_label->setMaxLength(ShareLinkService::kMaxLabelLength);
    m_label->setPlaceholderText(tr("e.g. Client review"));
    m_expires->setObjectName(u"linkExpiresComboBox"_s);
    m_expires->addItems({tr("Never"), tr("In 1 day"), tr("In 7 days"), tr("In 30 days")});
    m_maxOpens->setObjectName(u"linkMaxOpensSpinBox"_s);
    m_maxOpens->setRange(0, ShareLinkService::kMaxOpensLimit);
    m_maxOpens->setSpecialValueText(tr("No limit"));
    m_createButton->setObjectName(u"createLinkButton"_s);
    connect(m_createButton, &QPushButton::clicked, this, &ShareLinksDialog::create);
    auto *form = new QFormLayout;
    form->addRow(tr("&Label:"), m_label);
    form->addRow(tr("&Expires:"), m_expires);
    form->addRow(tr("&Max opens:"), m_maxOpens);
    auto *createRow = new QHBoxLayout;
    createRow->addStretch();
    createRow->addWidget(m_createButton);
    auto *newLinkBox = new QGroupBox(tr("New link"), this);
    auto *newLinkLayout = new QVBoxLayout(newLinkBox);
    newLinkLayout->addLayout(form);
    newLinkLayout->addLayout(createRow);

    // The new link's address is shown once: only its hash is kept.
    m_newLink->setObjectName(u"newLinkLineEdit"_s);
    m_newLink->setAccessibleName(tr("New share link"));
    m_newLink->setReadOnly(true);
    m_copyNewLink->setObjectName(u"copyNewLinkButton"_s);
    m_copyNewLink->setAccessibleName(tr("Copy new share link"));
    connect(m_copyNewLink, &QPushButton::clicked, this,
        [this] { QGuiApplication::clipboard()->setText(m_newLink->text()); });
    m_qrCode->setObjectName(u"newLinkQrCode"_s);
    m_qrCode->setAccessibleName(tr("QR code of the new share link"));
    auto *newLinkRow = new QHBoxLayout;
    newLinkRow->addWidget(m_newLink, 1);
    newLinkRow->addWidget(m_copyNewLink);
    newLinkLayout->addLayout(newLinkRow);
    newLinkLayout->addWidget(m_qrCode, 0, Qt::AlignHCenter);
    showNewLink({});

    m_message->setObjectName(u"messageLabel"_s);
    m_message->setWordWrap(true);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_revokeButton, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &ShareLinksDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list, 1);
    layout->addWidget(newLinkBox);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    reload();
}

void ShareLinksDialog::reload()
{
    const QString selected = selectedLinkId();
    m_list->clear();
    m_revokeButton->setEnabled(false);
    const auto links = m_context.engine.shareLinks().list(m_context.owner, m_deployment.id);
    if (!links) {
        Theme::showMessage(m_message, ErrorText::describe(links.error()), Theme::Tone::Error);
        return;
    }
    const QDateTime now = m_context.engine.clock().now();
    for (const ShareLinkView &view : links.value()) {
        const ShareLink &link = view.link;
        auto *item = new QTreeWidgetItem(m_list);
        item->setText(LabelColumn, link.label.isEmpty() ? tr("(no label)") : link.label);
        item->setData(LabelColumn, Qt::UserRole, link.id);
        item->setToolTip(LabelColumn, link.id);
        item->setText(StateColumn, stateText(view.state));
        item->setData(StateColumn, Qt::UserRole, view.state != ShareLinkState::Revoked);
        item->setText(OpensColumn,
            link.maxOpens > 0 ? tr("%1 of %2").arg(link.opens).arg(link.maxOpens) : QString::number(link.opens));
        item->setText(ExpiresColumn, link.expiresAt.isValid() ? TimeText::relative(link.expiresAt, now) : tr("Never"));
        if (link.expiresAt.isValid())
            item->setToolTip(ExpiresColumn, TimeText::full(link.expiresAt));
        item->setText(LastOpenedColumn, link.lastOpenedAt.isValid() ? TimeText::brief(link.lastOpenedAt) : tr("Never"));
        if (link.id == selected)
            m_list->setCurrentItem(item);
    }
    for (int column = StateColumn; column <= LastOpenedColumn; ++column)
        m_list->resizeColumnToContents(column);
}

void ShareLinksDialog::create()
{
    ShareLinkRequest request;
    request.label = m_label->text().trimmed();
    if (const qint64 seconds = expiryChoices().value(m_expires->currentIndex()); seconds > 0)
        request.expiresIn = seconds;
    request.maxOpens = m_maxOpens->value();
    const auto made = m_context.engine.shareLinks().create(m_context.owner, m_deployment.id, request);
    if (!made) {
        Theme::showMessage(m_message, ErrorText::describe(made.error()), Theme::Tone::Error);
        return;
    }
    m_label->clear();
    showNewLink(made.value().url);
    Theme::showMessage(m_message, tr("Copy the new link now: it is shown only once."), Theme::Tone::Normal);
    reload();
}

void ShareLinksDialog::revokeSelected()
{
    const QString id = selectedLinkId();
    if (id.isEmpty())
        return;
    const QString label = m_list->currentItem()->text(LabelColumn);
    if (m_context.prompter.question(this, tr("Revoke share link"),
            tr("Revoke “%1”? Whoever opened the site through it can no longer visit.").arg(label),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel, tr("Revoke"))
        != QMessageBox::Yes)
        return;
    const auto revoked = m_context.engine.shareLinks().revoke(m_context.owner, m_deployment.id, id);
    if (!revoked) {
        Theme::showMessage(m_message, ErrorText::describe(revoked.error()), Theme::Tone::Error);
        return;
    }
    Theme::showMessage(m_message, tr("“%1” is revoked.").arg(label), Theme::Tone::Normal);
    reload();
}

void ShareLinksDialog::showNewLink(const QString &url)
{
    m_newLink->setText(url);
    m_newLink->setCursorPosition(0);
    m_newLink->setVisible(!url.isEmpty());
    m_copyNewLink->setVisible(!url.isEmpty());
    m_qrCode->setText(url);
    m_qrCode->setFixedSize(m_qrCode->sizeHint());
    m_qrCode->setVisible(!url.isEmpty() && m_qrCode->hasCode());
}

QString ShareLinksDialog::selectedLinkId() const
{
    const QTreeWidgetItem *item = m_list->currentItem();
    return item && item->isSelected() ? item->data(LabelColumn, Qt::UserRole).toString() : QString();
}

} // namespace berth
