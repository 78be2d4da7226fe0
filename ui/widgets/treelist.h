#pragma once

#include <QHash>
#include <QHeaderView>
#include <QList>
#include <QStyle>
#include <QTreeWidget>

namespace berth::TreeList {

// Where a synced item keeps the id of its row.
constexpr int kIdRole = Qt::UserRole + 1;

// A flat, single-selection list of records in columns (users, keys, emails, sign-in requests, versions): one column
// (the first unless told) takes the spare width and elides what does not fit, the others fit their content whole.
inline QTreeWidget *make(QWidget *parent, const QString &objectName, const QString &accessibleName,
    const QStringList &headers, int stretchColumn = 0)
{
    auto *tree = new QTreeWidget(parent);
    tree->setObjectName(objectName);
    tree->setAccessibleName(accessibleName);
    tree->setRootIsDecorated(false);
    tree->setUniformRowHeights(true);
    tree->setAlternatingRowColors(true);
    tree->setSelectionMode(QAbstractItemView::SingleSelection);
    tree->setHeaderLabels(headers);
    tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    tree->header()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    tree->header()->setStretchLastSection(false);
    return tree;
}

// The width that shows every column of the tree whole, with its frame and room for a vertical scroll bar: a window
// that must not elide (a list of shortcuts) is made at least this wide.
inline int wholeWidth(const QTreeWidget *tree)
{
    const QAbstractItemView *view = tree; // sizeHintForColumn is public here, protected in QTreeView
    int width = 2 * tree->frameWidth() + tree->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, tree);
    for (int column = 0; column < tree->columnCount(); ++column)
        width += qMax(view->sizeHintForColumn(column), tree->header()->sectionSizeHint(column));
    return width;
}

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

} // namespace berth::TreeList
