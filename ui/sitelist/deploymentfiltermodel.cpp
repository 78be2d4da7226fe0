#include "ui/sitelist/deploymentfiltermodel.h"

#include "ui/sitelist/deploymenttablemodel.h"

namespace berth {

DeploymentFilterModel::DeploymentFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(DeploymentTableModel::SortRole);
    setSortCaseSensitivity(Qt::CaseInsensitive);
    setSortLocaleAware(true);
}

void DeploymentFilterModel::setFilterText(const QString &text)
{
    const QStringList words = text.simplified().split(u' ', Qt::SkipEmptyParts);
    if (words == m_words)
        return;
    m_words = words;
    invalidateRowsFilter();
}

bool DeploymentFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_words.isEmpty())
        return true;
    const QAbstractItemModel *model = sourceModel();
    QString haystack;
    for (const int column : {DeploymentTableModel::SlugColumn, DeploymentTableModel::TitleColumn,
             DeploymentTableModel::AccessColumn, DeploymentTableModel::UrlColumn}) {
        haystack += model->index(sourceRow, column, sourceParent).data().toString() + u' ';
        haystack += model->index(sourceRow, column, sourceParent).data(Qt::ToolTipRole).toString() + u' ';
    }
    for (const QString &word : m_words) {
        if (!haystack.contains(word, Qt::CaseInsensitive))
            return false;
    }
    return true;
}

} // namespace berth
