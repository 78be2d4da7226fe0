#include "ui/visitors/countersmodel.h"

#include "domain/visitors/counterservice.h"
#include "ui/widgets/timetext.h"

#include <QLocale>

namespace berth {

CountersModel::CountersModel(CounterService &service, User owner, QString deploymentId, QObject *parent)
    : QAbstractTableModel(parent)
    , m_service(service)
    , m_owner(std::move(owner))
    , m_deploymentId(std::move(deploymentId))
{
    connect(&m_service, &CounterService::counterChanged, this, &CountersModel::onChanged);
    connect(&m_service, &CounterService::counterRemoved, this, &CountersModel::onRemoved);
    reload();
}

void CountersModel::reload()
{
    const auto counters = m_service.list(m_owner, m_deploymentId);
    beginResetModel();
    m_rows = counters ? counters.value() : QList<Counter>();
    m_error = counters ? QString() : counters.error().message;
    endResetModel();
}

int CountersModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int CountersModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CountersModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Counter &counter = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == NameColumn)
            return counter.name;
        if (index.column() == ValueColumn)
            return QLocale().toString(counter.value);
        return TimeText::brief(counter.updatedAt);
    case Qt::ToolTipRole:
        if (index.column() == UpdatedColumn)
            return tr("Counting since %1").arg(TimeText::full(counter.createdAt));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == ValueColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case NameRole:
        return counter.name;
    case ValueRole:
        return counter.value;
    default:
        return {};
    }
}

QVariant CountersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Name");
    case ValueColumn:
        return tr("Value");
    case UpdatedColumn:
        return tr("Last update");
    default:
        return {};
    }
}

int CountersModel::rowOf(const QString &name) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).name == name)
            return i;
    }
    return -1;
}

void CountersModel::onChanged(const QString &deploymentId, const QString &name)
{
    if (deploymentId != m_deploymentId)
        return;
    // The signal carries the value but not the times: the engine's list has both.
    const auto counters = m_service.list(m_owner, m_deploymentId);
    if (!counters)
        return;
    const QList<Counter> &fresh = counters.value();
    const auto it = std::find_if(fresh.cbegin(), fresh.cend(), [&](const Counter &c) { return c.name == name; });
    if (it == fresh.cend())
        return;
    if (const int row = rowOf(name); row >= 0) {
        m_rows[row] = *it;
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        return;
    }
    int row = 0;
    while (row < m_rows.size() && m_rows.at(row).name < name)
        ++row;
    beginInsertRows({}, row, row);
    m_rows.insert(row, *it);
    endInsertRows();
}

void CountersModel::onRemoved(const QString &deploymentId, const QString &name)
{
    if (deploymentId != m_deploymentId)
        return;
    const int row = rowOf(name);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
}

} // namespace berth
