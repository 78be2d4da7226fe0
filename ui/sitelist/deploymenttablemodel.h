#pragma once

#include "storage/deployment.h"
#include "storage/user.h"

#include <QAbstractTableModel>
#include <QHash>
#include <QTimer>
#include <optional>

namespace berth {

class Clock;
class LanService;

class DeploymentService;
class SiteLoader;
class SiteAddresses;
class SiteTable;

// The owner's deployments as table rows, kept current from SiteLoader's signals: a deploy,
// rename or protection change from the API shows here as it happens.
class DeploymentTableModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        SlugColumn,
        TitleColumn,
        KindColumn,
        AccessColumn,
        SizeColumn,
        UpdatedColumn,
        UrlColumn,
        ExpiresColumn, // the time left until the site goes offline by itself; empty when it does not
        ColumnCount
    };
    enum Role
    {
        IdRole = Qt::UserRole + 1, // the deployment id, on every column
        SortRole, // a sortable value: text, bytes, time
        UrlRole,
        ShareUrlRole, // empty unless private
        ProtectedRole,
        LanUrlsRole, // QStringList: where other devices open the site (LAN sharing on), the .local name first
    };

    DeploymentTableModel(DeploymentService &service, const SiteLoader &changes, const SiteTable &sites,
        const SiteAddresses &addresses, User owner, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    std::optional<Deployment> deployment(const QString &id) const;
    QModelIndex indexOf(const QString &id, int column = SlugColumn) const;
    QString urlOf(const Deployment &deployment) const;
    QString shareUrlOf(const Deployment &deployment) const;

    void reload();
    // LAN sharing: the sites' LAN addresses in LanUrlsRole and the address column's tooltip.
    void setLan(const LanService *lan);
    // A live folder's state for the row: when it last synced or why it did not; empty: not live.
    void setLiveStatus(const QString &id, const QString &status);
    // The time the Expires column counts down from (the engine's); without it, the system's.
    void setClock(const Clock *clock) { m_clock = clock; }
    QString liveStatus(const QString &id) const { return m_liveStatus.value(id); }

private:
    struct Row
    {
        Deployment deployment;
        qint64 bytes = 0;
        int files = 0;
    };

    Row makeRow(const Deployment &deployment) const;
    int rowOf(const QString &id) const;
    QVariant display(const Row &row, int column) const;
    QVariant sortValue(const Row &row, int column) const;
    QString accessText(const Deployment &deployment) const;
    void onChanged(const QString &id);
    void onRemoved(const QString &id);

    QHash<QString, QString> m_liveStatus;
    DeploymentService &m_service;
    const SiteTable &m_sites;
    const SiteAddresses &m_addresses;
    User m_owner;
    const LanService *m_lan = nullptr;
    const Clock *m_clock = nullptr;
    QTimer m_countdown; // the Expires column, said again while time passes
    QList<Row> m_rows;
};

} // namespace berth
