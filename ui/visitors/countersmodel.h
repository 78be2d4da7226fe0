#pragma once

#include "storage/counter.h"
#include "storage/user.h"

#include <QAbstractTableModel>

namespace berth {

class CounterService;

// A deployment's counters by name, with their value and last update, kept current from
// CounterService's signals: a visitor's increment shows here as it happens.
class CountersModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        NameColumn,
        ValueColumn,
        UpdatedColumn,
        ColumnCount
    };
    enum Role
    {
        NameRole = Qt::UserRole + 1, // the counter's name, on every column
        ValueRole, // the value as a number
    };

    CountersModel(CounterService &service, User owner, QString deploymentId, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    QString deploymentId() const { return m_deploymentId; }
    Counter counter(int row) const { return m_rows.value(row); }
    int rowOf(const QString &name) const;
    // Why the last load failed; empty after a good one.
    QString errorString() const { return m_error; }

    void reload();

private:
    void onChanged(const QString &deploymentId, const QString &name);
    void onRemoved(const QString &deploymentId, const QString &name);

    CounterService &m_service;
    User m_owner;
    QString m_deploymentId;
    QList<Counter> m_rows; // by name, as the engine lists them
    QString m_error;
};

} // namespace berth
