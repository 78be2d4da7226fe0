#include "ui/accounts/keysdialog.h"

#include "domain/accounts/accountservice.h"
#include "instance/engine.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/treelist.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kIdRole = Qt::UserRole + 1;
constexpr int kMaxLabelLength = 100;

QString when(const QDateTime &time)
{
    return time.isNull() ? QString() : QLocale().toString(time.toLocalTime(), QLocale::ShortFormat);
}
} // namespace

KeysDialog::KeysDialog(const DashboardContext &context, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_keys(TreeList::make(
          this, u"keysTreeWidget"_s, tr("API keys"), {tr("Label"), tr("Created"), tr("Last used"), tr("Status")}))
    , m_label(new QLineEdit(this))
    , m_createButton(new QPushButton(Icons::icon(u"key"_s), tr("&Create Key"), this))
    , m_revokeButton(new QPushButton(Icons::icon(u"delete"_s), tr("&Revoke…"), this))
    , m_secretBox(new QWidget(this))
    , m_secretLabel(new QLabel(m_secretBox))
    , m_secret(new QLineEdit(m_secretBox))
{
    setObjectName(u"keysDialog"_s);
    setWindowTitle(tr("API Keys"));

    auto *intro = new QLabel(tr("Scripts and agents publish through the API with a key: "
                                "<code>Authorization: Bearer bk_…</code>. Berth keeps only a hash of each key."),
        this);
    intro->setWordWrap(true);
    m_label->setObjectName(u"labelLineEdit"_s);
    m_label->setAccessibleName(tr("Label of the new key"));
    m_label->setPlaceholderText(tr("Label, e.g. deploy script"));
    m_label->setMaxLength(kMaxLabelLength);
    m_createButton->setObjectName(u"createKeyButton"_s);
    m_revokeButton->setObjectName(u"revokeKeyButton"_s);

    m_secret->setObjectName(u"secretLineEdit"_s);
    m_secret->setAccessibleName(tr("New key"));
    m_secret->setReadOnly(true);
    auto *copy = new QPushButton(Icons::icon(u"copy"_s), tr("C&opy"), m_secretBox);
    copy->setObjectName(u"copyKeyButton"_s);
    connect(copy, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_secret->text()); });
    auto *secretRow = new QHBoxLayout;
    secretRow->addWidget(m_secret, 1);
    secretRow->addWidget(copy);
    auto *secretLayout = new QVBoxLayout(m_secretBox);
    secretLayout->setContentsMargins(0, 0, 0, 0);
    m_secretLabel->setObjectName(u"secretLabel"_s);
    m_secretLabel->setWordWrap(true);
    secretLayout->addWidget(m_secretLabel);
    secretLayout->addLayout(secretRow);
    m_secretBox->hide();

    auto *createRow = new QHBoxLayout;
    createRow->addWidget(m_label, 1);
    createRow->addWidget(m_createButton);
    createRow->addWidget(m_revokeButton);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &KeysDialog::reject);
    // Enter in the label field creates the key (returnPressed); no button may also take Enter as the
    // dialog's default, or one Enter would create two keys.
    for (QPushButton *button : findChildren<QPushButton *>())
        button->setAutoDefault(false);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_keys, 1);
    layout->addLayout(createRow);
    layout->addWidget(m_secretBox);
    layout->addWidget(buttons);

    connect(m_createButton, &QPushButton::clicked, this, &KeysDialog::createKey);
    connect(m_label, &QLineEdit::returnPressed, this, &KeysDialog::createKey);
    connect(m_revokeButton, &QPushButton::clicked, this, &KeysDialog::revokeSelected);
    connect(m_keys, &QTreeWidget::itemSelectionChanged, this, &KeysDialog::updateButtons);
    reload();
    // Wide enough for the keys there are, whole (up to a limit: a long label elides), and no wider.
    constexpr int kMaxOpeningWidth = 760;
    const QMargins margins = layout->contentsMargins();
    resize(
        qBound(sizeHint().width(), TreeList::wholeWidth(m_keys) + margins.left() + margins.right(), kMaxOpeningWidth),
        sizeHint().height());
    m_label->setFocus(); // naming a new key is what this window is opened for most
}

void KeysDialog::reload()
{
    m_keys->clear();
    const QList<ApiKey> keys = m_context.engine.accounts().keys(m_context.owner.id);
    for (const ApiKey &key : keys) {
        const bool revoked = !key.revokedAt.isNull();
        auto *item = new QTreeWidgetItem(m_keys,
            {key.label, when(key.createdAt), key.lastUsedAt.isNull() ? tr("Never") : when(key.lastUsedAt),
                revoked ? tr("Revoked %1").arg(when(key.revokedAt)) : tr("Active")});
        item->setData(0, kIdRole, key.id);
        item->setIcon(0, Icons::icon(u"key"_s));
        item->setDisabled(revoked);
    }
    updateButtons();
}

void KeysDialog::updateButtons()
{
    const auto selected = m_keys->selectedItems();
    m_revokeButton->setEnabled(!selected.isEmpty() && !selected.constFirst()->isDisabled());
}

void KeysDialog::createKey()
{
    const QString label = m_label->text().trimmed().isEmpty() ? tr("dashboard") : m_label->text().trimmed();
    const auto key = m_context.engine.accounts().createKey(m_context.owner.id, label);
    if (!key) {
        m_context.prompter.warning(this, tr("API Keys"), key.error().message);
        return;
    }
    m_secretKeyId = key.value().key.id;
    m_secretLabel->setText(
        tr("<b>Copy the new key “%1” now:</b> it is shown only this once.").arg(label.toHtmlEscaped()));
    m_secret->setText(key.value().secret);
    m_secretBox->show();
    m_secret->setFocus();
    m_secret->selectAll();
    m_label->clear();
    reload();
}

void KeysDialog::revokeSelected()
{
    const auto selected = m_keys->selectedItems();
    if (selected.isEmpty())
        return;
    const QTreeWidgetItem *item = selected.constFirst();
    const auto answer = m_context.prompter.question(this, tr("Revoke Key"),
        tr("Revoke the key “%1”? Scripts using it are refused from now on. This cannot be undone.").arg(item->text(0)),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel, tr("&Revoke"));
    if (answer != QMessageBox::Yes)
        return;
    const QString id = item->data(0, kIdRole).toString();
    if (!m_context.engine.accounts().revokeKey(m_context.owner.id, id))
        m_context.prompter.warning(this, tr("API Keys"), tr("The key could not be revoked."));
    else if (id == m_secretKeyId) { // a revoked key's secret is of no use to anyone any more
        m_secretKeyId.clear();
        m_secret->clear();
        m_secretBox->hide();
    }
    reload();
}

} // namespace berth
