#pragma once

#include <QHash>
#include <QList>
#include <QTreeWidget>

namespace berth::ItemSync {

// Where a synced item keeps the id of its row.
constexpr int kIdRole = Qt::UserRole + 1;

// Makes the tree's top-level items match rows, in their order, by id: items of ids that stay are kept (with their
// selection and the current item), so a list refreshed while someone works in it does not jump.
template<typename Row, typename IdOf, typename Fill>
void sync(QTreeWidget *tree, const QList<Row> &rows, IdOf idOf, Fill fill)
{
    QHash<QString, QTreeWidgetItem *> stale;
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        stale.insert(tree->topLevelItem(i)->data(0, kIdRole).toString(), tree->topLevelItem(i));
    for (int row = 0; row < rows.size(); ++row) {
        const QString id = idOf(rows.at(row));
        QTreeWidgetItem *item = stale.take(id);
        if (!item) {
            item = new QTreeWidgetItem;
            item->setData(0, kIdRole, id);
            tree->insertTopLevelItem(row, item);
        } else if (const int at = tree->indexOfTopLevelItem(item); at != row) {
            const bool selected = item->isSelected();
            const bool current = tree->currentItem() == item;
            tree->insertTopLevelItem(row, tree->takeTopLevelItem(at));
            item->setSelected(selected);
            if (current)
                tree->setCurrentItem(item);
        }
        fill(item, rows.at(row));
    }
    qDeleteAll(stale); // a deleted item leaves its tree
}

// The id of the tree's current item, or an empty string.
inline QString currentId(const QTreeWidget *tree)
{
    const QTreeWidgetItem *item = tree->currentItem();
    return item ? item->data(0, kIdRole).toString() : QString();
}

} // namespace berth::ItemSync
