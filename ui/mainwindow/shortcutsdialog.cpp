#include "ui/mainwindow/shortcutsdialog.h"

#include "ui/widgets/treelist.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QSet>
#include <QVBoxLayout>

namespace berth {

namespace {

// "&Publish Folder…" as a menu shows it: without its mnemonic marks.
QString plainText(QString text)
{
    text.replace(QLatin1String("&&"), QStringLiteral("\x01"));
    text.remove(QLatin1Char('&'));
    return text.replace(QLatin1Char('\x01'), QLatin1Char('&'));
}

} // namespace

ShortcutsDialog::ShortcutsDialog(QWidget *window)
    : QDialog(window)
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto *list = TreeList::make(
        this, QStringLiteral("shortcutsList"), tr("Keyboard shortcuts"), {tr("Action"), tr("Shortcut")});
    QSet<QString> listed;
    const QList<QAction *> actions = window->findChildren<QAction *>();
    for (const QAction *action : actions) {
        const QString name = plainText(action->text());
        if (action->shortcut().isEmpty() || name.isEmpty() || listed.contains(name))
            continue;
        listed.insert(name);
        new QTreeWidgetItem(list, {name, action->shortcut().toString(QKeySequence::NativeText)});
    }
    list->sortItems(0, Qt::AscendingOrder);
    list->setMinimumWidth(TreeList::wholeWidth(list)); // an action's name is never cut short

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(list);
    layout->addWidget(buttons);
    resize(sizeHint().width(), qMin(list->sizeHintForRow(0) * (list->topLevelItemCount() + 3), 560));
}

} // namespace berth
