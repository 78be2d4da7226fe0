#pragma once

#include <QSortFilterProxyModel>

namespace berth {

// Sorts the deployments table by each column's natural value (bytes, time) and keeps the rows
// whose slug, title, description or address contain every word of the filter text.
class DeploymentFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit DeploymentFilterModel(QObject *parent = nullptr);

    void setFilterText(const QString &text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    QStringList m_words;
};

} // namespace berth
