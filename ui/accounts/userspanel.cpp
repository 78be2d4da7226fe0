#include "ui/accounts/userspanel.h"

#include "domain/accounts/accountservice.h"
#include "domain/plans/plantable.h"
#include "instance/engine.h"
#include "ui/accounts/plantext.h"
#include "ui/widgets/actionbutton.h"
#include "ui/widgets/actionmaker.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/timetext.h"
#include "ui/widgets/treelist.h"

#include <QAction>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
enum KeyColumn
{
    KeyLabelColumn,
    KeyCreatedColumn,
    KeyLastUsedColumn,
    KeyExpiresColumn,
    KeyStatusColumn
};

QString timeOrNever(const QDateTime &time, const QString &never)
{
    return time.isNull() ? never : TimeText::brief(time);
}
} // namespace

UsersPanel::UsersPanel(const DashboardContext &context, QWidget *parent)
    : QWidget(parent)
    , revokeKeyAction(ActionMaker::make(
          this, u"revokeUserKeyAction"_s, u"delete"_s, tr("&Revoke Key…"), QKeySequence::Delete, Qt::WidgetShortcut))
    , m_context(context)
    , m_users(TreeList::make(this, u"usersTreeWidget"_s, tr("Users"),
          {tr("User"), tr("Plan"), tr("Deployments"), tr("Keys"), tr("Created"), tr("Last active")}))
    , m_plan(new QComboBox(this))
    , m_keysBox(new QGroupBox(this))
    , m_keys(TreeList::make(m_keysBox, u"userKeysTreeWidget"_s, tr("Keys of the selected user"),
          {tr("Label"), tr("Created"), tr("Last used"), tr("Expires"), tr("Status")}))
    , m_message(new QLabel(this))
{
    setObjectName(u"usersPanel"_s);
    m_keys->addAction(revokeKeyAction);
    revokeKeyAction->setToolTip(tr("The key stops working at once: requests with it are refused"));

    m_plan->setObjectName(u"planComboBox"_s);
    m_plan->setAccessibleName(tr("Plan of the selected user"));
    for (const QString &plan : PlanTable::plans())
        m_plan->addItem(PlanText::name(plan), plan);
    auto *planLabel = new QLabel(tr("&Plan:"), this);
    planLabel->setBuddy(m_plan);
    auto *planNote
        = new QLabel(tr("A new plan applies at once; deployments a user already has above its limit stay."), this);
    planNote->setObjectName(u"planNoteLabel"_s);
    planNote->setWordWrap(true);
    planNote->setForegroundRole(QPalette::PlaceholderText);
    m_message->setObjectName(u"usersMessageLabel"_s);
    m_message->setWordWrap(true);
    m_message->hide();

    m_keysBox->setObjectName(u"userKeysGroupBox"_s);
    auto *keysBar = new QHBoxLayout;
    keysBar->addStretch();
    keysBar->addWidget(new ActionButton(revokeKeyAction, m_keysBox));
    auto *keysLayout = new QVBoxLayout(m_keysBox);
    keysLayout->addWidget(m_keys, 1);
    keysLayout->addLayout(keysBar);

    auto *planRow = new QHBoxLayout;
    planRow->addWidget(planLabel);
    planRow->addWidget(m_plan);
    planRow->addWidget(planNote, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_users, 3);
    layout->addLayout(planRow);
    layout->addWidget(m_message);
    layout->addWidget(m_keysBox, 2);

    connect(m_users, &QTreeWidget::currentItemChanged, this, [this] {
        reloadKeys();
        updateControls();
    });
    connect(m_keys, &QTreeWidget::currentItemChanged, this, &UsersPanel::updateControls);
    connect(m_plan, &QComboBox::activated, this, &UsersPanel::applyPlan);
    connect(revokeKeyAction, &QAction::triggered, this, &UsersPanel::revokeSelectedKey);
    reload();
}

QString UsersPanel::describe(const User &user) const
{
    if (user.isOwner)
        return user.email.isEmpty() ? tr("You (owner)") : tr("%1 (owner)").arg(user.email);
    if (user.plan == u"agent" || user.email.isEmpty())
        return tr("Agent");
    return user.email;
}

void UsersPanel::reload()
{
    const QLocale locale;
    const PlanTable &plans = m_context.engine.plans();
    const QList<UserUsage> users = m_context.engine.accounts().listUsers();
    TreeList::sync(
        m_users, users, [](const UserUsage &usage) { return usage.user.id; },
        [&](QTreeWidgetItem *item, const UserUsage &usage) {
            const User &user = usage.user;
            const int allowed = plans.limits(user.plan).deployments;
            item->setText(UserColumn, describe(user));
            item->setToolTip(UserColumn, user.id);
            item->setIcon(UserColumn, Icons::icon(user.email.isEmpty() && !user.isOwner ? u"agent"_s : u"user"_s));
            item->setText(PlanColumn, PlanText::name(user.plan));
            item->setData(PlanColumn, Qt::UserRole, user.plan);
            item->setText(
                DeploymentsColumn, tr("%1 of %2").arg(locale.toString(usage.deployments), locale.toString(allowed)));
            item->setToolTip(DeploymentsColumn,
                tr("%1 deployments of the %2 the plan allows")
                    .arg(locale.toString(usage.deployments), locale.toString(allowed)));
            item->setForeground(DeploymentsColumn,
                usage.deployments >= allowed ? Theme::errorColour(m_users->palette()) : m_users->palette().text());
            item->setText(KeysColumn, locale.toString(usage.liveKeys));
            item->setText(CreatedColumn, TimeText::brief(user.createdAt));
            item->setToolTip(CreatedColumn, TimeText::full(user.createdAt));
            item->setText(LastActiveColumn, timeOrNever(usage.lastActive, tr("Never")));
            for (int column = DeploymentsColumn; column <= KeysColumn; ++column)
                item->setTextAlignment(column, Qt::AlignRight | Qt::AlignVCenter);
        });
    if (!m_users->currentItem() && m_users->topLevelItemCount() > 0)
        m_users->setCurrentItem(m_users->topLevelItem(0));
    reloadKeys();
    updateControls();
}

void UsersPanel::selectUser(const QString &userId)
{
    for (int i = 0; i < m_users->topLevelItemCount(); ++i) {
        if (m_users->topLevelItem(i)->data(0, TreeList::kIdRole).toString() == userId)
            m_users->setCurrentItem(m_users->topLevelItem(i));
    }
}

void UsersPanel::reloadKeys()
{
    const QString userId = TreeList::currentId(m_users);
    const QTreeWidgetItem *user = m_users->currentItem();
    m_keysBox->setTitle(user ? tr("Keys of %1").arg(user->text(UserColumn)) : tr("Keys"));
    const QList<ApiKey> keys = userId.isEmpty() ? QList<ApiKey>() : m_context.engine.accounts().keys(userId);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    TreeList::sync(
        m_keys, keys, [](const ApiKey &key) { return key.id; },
        [&](QTreeWidgetItem *item, const ApiKey &key) {
            const bool revoked = !key.revokedAt.isNull();
            const bool expired = !key.expiresAt.isNull() && key.expiresAt <= now;
            item->setText(KeyLabelColumn, key.label);
            item->setIcon(KeyLabelColumn, Icons::icon(u"key"_s));
            item->setText(KeyCreatedColumn, TimeText::brief(key.createdAt));
            item->setText(KeyLastUsedColumn, timeOrNever(key.lastUsedAt, tr("Never")));
            item->setText(KeyExpiresColumn, timeOrNever(key.expiresAt, tr("Never")));
            item->setText(KeyStatusColumn,
                revoked       ? tr("Revoked %1").arg(TimeText::brief(key.revokedAt))
                    : expired ? tr("Expired")
                              : tr("Active"));
            item->setDisabled(revoked || expired);
        });
    updateControls();
}

void UsersPanel::updateControls()
{
    const QTreeWidgetItem *user = m_users->currentItem();
    m_plan->setEnabled(user);
    if (user) {
        const QSignalBlocker blocker(m_plan);
        m_plan->setCurrentIndex(m_plan->findData(user->data(PlanColumn, Qt::UserRole)));
    }
    const QTreeWidgetItem *key = m_keys->currentItem();
    revokeKeyAction->setEnabled(key && !key->isDisabled());
}

void UsersPanel::applyPlan(int index)
{
    const QString userId = TreeList::currentId(m_users);
    const QString plan = m_plan->itemData(index).toString();
    if (userId.isEmpty() || plan.isEmpty())
        return;
    const auto result = m_context.engine.accounts().setPlan(userId, plan);
    if (!result) {
        Theme::showMessage(m_message, result.error().message, Theme::Tone::Error);
        reload();
        return;
    }
    const PlanLimits limits = m_context.engine.plans().limits(plan);
    Theme::showMessage(m_message,
        tr("%1 is on %2 now: up to %3 deployments.")
            .arg(describe(result.value()), PlanText::name(plan), QLocale().toString(limits.deployments)),
        Theme::Tone::Success);
    reload();
}

void UsersPanel::revokeSelectedKey()
{
    const QTreeWidgetItem *key = m_keys->currentItem();
    const QTreeWidgetItem *user = m_users->currentItem();
    if (!key || !user || key->isDisabled())
        return;
    const auto answer = m_context.prompter.question(this, tr("Revoke Key"),
        tr("Revoke the key “%1” of %2? Requests with it are refused from now on. This cannot be undone.")
            .arg(key->text(KeyLabelColumn), user->text(UserColumn)),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel, tr("&Revoke"));
    if (answer != QMessageBox::Yes)
        return;
    const auto result = m_context.engine.accounts().revokeAnyKey(key->data(0, TreeList::kIdRole).toString());
    if (!result)
        Theme::showMessage(m_message, result.error().message, Theme::Tone::Error);
    else
        Theme::showMessage(m_message, tr("The key “%1” is revoked.").arg(result.value().label), Theme::Tone::Normal);
    reload();
}

} // namespace berth
