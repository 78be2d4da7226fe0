#include "ui/sitelist/historydialog.h"

#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/versionhistory.h"
#include "instance/engine.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/treelist.h"

#include <QDialogButtonBox>
#include <QHash>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {

constexpr int kVersionRole = Qt::UserRole + 1;
constexpr int kLiveRole = Qt::UserRole + 2;
constexpr int kPreparedRole = Qt::UserRole + 3; // newer than the live version: stored without publishing
constexpr int kTitleColumn = 4; // takes the spare width; the others, the date's included, are shown whole
constexpr int kShownPaths = 8; // paths named per kind of change; the rest are counted

QString pathsText(const QStringList &paths)
{
    QStringList shown = paths.mid(0, kShownPaths);
    if (paths.size() > kShownPaths)
        shown.append(HistoryDialog::tr("and %n more", nullptr, int(paths.size() - kShownPaths)));
    return shown.join(u", "_s);
}

} // namespace

FileListDiff FileListDiff::between(const QList<StoredFile> &from, const QList<StoredFile> &to)
{
    QHash<QString, QByteArray> before;
    for (const StoredFile &file : from)
        before.insert(file.path, file.blob);
    FileListDiff diff;
    for (const StoredFile &file : to) {
        const auto found = before.constFind(file.path);
        if (found == before.constEnd())
            diff.added.append(file.path);
        else if (*found != file.blob)
            diff.changed.append(file.path);
        before.remove(file.path);
    }
    for (const StoredFile &file : from) {
        if (before.contains(file.path))
            diff.removed.append(file.path);
    }
    return diff;
}

HistoryDialog::HistoryDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_deployment(deployment)
    , m_list(TreeList::make(this, u"versionList"_s, tr("Versions"),
          {tr("Version"), tr("Published"), tr("Files"), tr("Size"), tr("Title")}, kTitleColumn))
    , m_diff(new QLabel(this))
    , m_rollbackButton(new QPushButton(tr("&Roll Back to This Version"), this))
{
    setObjectName(u"historyDialog"_s);
    setWindowTitle(tr("History of %1").arg(deployment.slug));
    setMinimumSize(620, 420);

    connect(m_list, &QTreeWidget::currentItemChanged, this, &HistoryDialog::showSelected);

    m_diff->setObjectName(u"diffSummary"_s);
    m_diff->setWordWrap(true);
    m_diff->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_rollbackButton->setObjectName(u"rollbackButton"_s);
    connect(m_rollbackButton, &QPushButton::clicked, this, &HistoryDialog::rollBack);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_rollbackButton, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &HistoryDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_diff);
    layout->addWidget(buttons);
    reload();
}

void HistoryDialog::reload()
{
    m_list->clear();
    const auto versions = m_context.engine.history().versions(m_context.owner, m_deployment.id);
    if (!versions) {
        m_diff->setText(ErrorText::describe(versions.error()));
        m_rollbackButton->setEnabled(false);
        return;
    }
    if (const auto fresh = m_context.engine.deployments().get(m_context.owner, m_deployment.id))
        m_deployment = fresh.value();
    const QLocale locale;
    bool aboveLive = true; // newest first: those before the live one were prepared, not yet published
    for (const StoredVersion &version : versions.value()) {
        const bool live = version.id == m_deployment.versionId;
        aboveLive = aboveLive && !live;
        auto *item = new QTreeWidgetItem(m_list);
        item->setText(0,
            live            ? tr("%1 (live)").arg(version.number)
                : aboveLive ? tr("%1 (prepared)").arg(version.number)
                            : QString::number(version.number));
        item->setData(0, kPreparedRole, aboveLive);
        item->setText(1, locale.toString(version.createdAt.toLocalTime(), QLocale::ShortFormat));
        item->setText(2, QString::number(version.fileCount));
        item->setText(3, locale.formattedDataSize(version.totalSize));
        item->setText(kTitleColumn, version.title);
        item->setToolTip(kTitleColumn, version.title); // whole, where the column elides it
        item->setData(0, kVersionRole, version.number);
        item->setData(0, kLiveRole, live);
    }
    m_list->setCurrentItem(m_list->topLevelItem(0));
    showSelected();
}

int HistoryDialog::selectedVersion() const
{
    const QTreeWidgetItem *item = m_list->currentItem();
    return item ? item->data(0, kVersionRole).toInt() : 0;
}

void HistoryDialog::showSelected()
{
    const QTreeWidgetItem *item = m_list->currentItem();
    const bool live = item && item->data(0, kLiveRole).toBool();
    const bool prepared = item && item->data(0, kPreparedRole).toBool();
    m_rollbackButton->setEnabled(item && !live);
    m_rollbackButton->setText(prepared ? tr("&Make This Version Live") : tr("&Roll Back to This Version"));
    if (!item) {
        m_diff->clear();
        return;
    }
    if (live) {
        m_diff->setText(tr("This version is live."));
        return;
    }
    auto &history = m_context.engine.history();
    const auto selected = history.versionFiles(m_context.owner, m_deployment.id, selectedVersion());
    QList<StoredFile> current;
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->data(0, kLiveRole).toBool()) {
            const auto files = history.versionFiles(
                m_context.owner, m_deployment.id, m_list->topLevelItem(i)->data(0, kVersionRole).toInt());
            if (files)
                current = files.value();
        }
    }
    if (!selected) {
        m_diff->setText(ErrorText::describe(selected.error()));
        return;
    }
    // What rolling back would do to the live site.
    const FileListDiff diff = FileListDiff::between(current, selected.value());
    QStringList lines;
    lines.append((prepared ? tr("Making it live: %n file(s) added", nullptr, int(diff.added.size()))
                           : tr("Rolling back: %n file(s) added", nullptr, int(diff.added.size())))
        + (diff.added.isEmpty() ? QString() : u": "_s + pathsText(diff.added)));
    lines.append(tr("%n file(s) removed", nullptr, int(diff.removed.size()))
        + (diff.removed.isEmpty() ? QString() : u": "_s + pathsText(diff.removed)));
    lines.append(tr("%n file(s) changed", nullptr, int(diff.changed.size()))
        + (diff.changed.isEmpty() ? QString() : u": "_s + pathsText(diff.changed)));
    m_diff->setText(lines.join(u'\n'));
}

void HistoryDialog::rollBack()
{
    const int version = selectedVersion();
    if (version <= 0)
        return;
    const auto result = m_context.engine.history().rollback(m_context.owner, m_deployment.id, version);
    if (!result) {
        m_context.prompter.warning(this, tr("Roll Back"), ErrorText::describe(result.error()));
        return;
    }
    Q_EMIT rolledBack(result.value().slug, version);
    reload();
}

} // namespace berth
