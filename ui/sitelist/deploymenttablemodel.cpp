#include "ui/sitelist/deploymenttablemodel.h"

#include "domain/common/clock.h"
#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/siteloader.h"
#include "domain/siterules/siteaddresses.h"
#include "domain/siterules/sitetable.h"
#include "lan/lanservice.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/timetext.h"

#include <QGuiApplication>
#include <QLocale>
#include <QPalette>
#include <limits>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kCountdownMs = 30'000; // the time left is said in minutes at the finest
} // namespace

DeploymentTableModel::DeploymentTableModel(DeploymentService &service, const SiteLoader &changes,
    const SiteTable &sites, const SiteAddresses &addresses, User owner, QObject *parent)
    : QAbstractTableModel(parent)
    , m_service(service)
    , m_sites(sites)
    , m_addresses(addresses)
    , m_owner(std::move(owner))
{
    connect(&changes, &SiteLoader::deploymentChanged, this, &DeploymentTableModel::onChanged);
    connect(&changes, &SiteLoader::deploymentRemoved, this, &DeploymentTableModel::onRemoved);
    m_countdown.setInterval(kCountdownMs);
    connect(&m_countdown, &QTimer::timeout, this, [this] {
        if (!m_rows.isEmpty())
            Q_EMIT dataChanged(index(0, ExpiresColumn), index(int(m_rows.size()) - 1, ExpiresColumn));
    });
    m_countdown.start();
    reload();
}

void DeploymentTableModel::setLan(const LanService *lan)
{
    m_lan = lan;
    connect(lan, &LanService::changed, this, [this] {
        if (!m_rows.isEmpty())
            Q_EMIT dataChanged(
                index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1), {Qt::ToolTipRole, LanUrlsRole});
    });
}

void DeploymentTableModel::setLiveStatus(const QString &id, const QString &status)
{
    if (status.isEmpty())
        m_liveStatus.remove(id);
    else
        m_liveStatus.insert(id, status);
    if (const QModelIndex index = indexOf(id, UpdatedColumn); index.isValid())
        Q_EMIT dataChanged(index, index);
}

void DeploymentTableModel::reload()
{
    beginResetModel();
    m_rows.clear();
    const QList<Deployment> deployments = m_service.list(m_owner);
    for (const Deployment &deployment : deployments)
        m_rows.append(makeRow(deployment));
    endResetModel();
}

DeploymentTableModel::Row DeploymentTableModel::makeRow(const Deployment &deployment) const
{
    Row row {deployment, 0, 0};
    if (const auto site = m_sites.find(deployment.slug)) { // a placeholder knows its totals too
        row.bytes = site->totalBytes;
        row.files = site->fileCount;
    }
    return row;
}

int DeploymentTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int DeploymentTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DeploymentTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows.at(index.row());
    const Deployment &deployment = row.deployment;
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case Qt::ToolTipRole:
        if (index.column() == UpdatedColumn)
            return m_liveStatus.contains(deployment.id)
                ? TimeText::full(deployment.updatedAt) + u"\n"_s + m_liveStatus.value(deployment.id)
                : TimeText::full(deployment.updatedAt);
        if (index.column() == SizeColumn)
            return tr("%n file(s)", nullptr, row.files);
        if (index.column() == ExpiresColumn)
            return deployment.expiresAt.isValid() ? tr("Goes offline on %1").arg(TimeText::full(deployment.expiresAt))
                                                  : tr("Stays online until you delete it");
        if (index.column() == UrlColumn) {
            const QStringList lan = m_lan ? m_lan->siteUrls(deployment.id) : QStringList();
            if (lan.isEmpty())
                return tr("Double-click to open in the browser");
            return tr("Double-click to open in the browser\nOn the local network: %1").arg(lan.join(u", "_s));
        }
        return deployment.description.isEmpty() ? QVariant() : QVariant(deployment.description);
    case Qt::DecorationRole:
        if (index.column() == AccessColumn)
            return Icons::icon(deployment.isProtected ? u"lock"_s : u"globe"_s);
        return {};
    case Qt::ForegroundRole:
        if (index.column() == UrlColumn)
            return QGuiApplication::palette().brush(QPalette::Link);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == SizeColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case IdRole:
        return deployment.id;
    case SortRole:
        return sortValue(row, index.column());
    case UrlRole:
        return urlOf(deployment);
    case ShareUrlRole:
        return shareUrlOf(deployment);
    case ProtectedRole:
        return deployment.isProtected;
    case LanUrlsRole:
        return m_lan ? m_lan->siteUrls(deployment.id) : QStringList();
    default:
        return {};
    }
}

QVariant DeploymentTableModel::display(const Row &row, int column) const
{
    const Deployment &deployment = row.deployment;
    switch (column) {
    case SlugColumn:
        return deployment.slug;
    case TitleColumn:
        return deployment.favicon.isEmpty() ? deployment.title : deployment.favicon + u"  "_s + deployment.title;
    case KindColumn:
        return deployment.storageType == u"html" ? tr("HTML page") : tr("Files");
    case AccessColumn:
        return accessText(deployment);
    case SizeColumn:
        return QLocale().formattedDataSize(row.bytes, 1, QLocale::DataSizeTraditionalFormat);
    case UpdatedColumn:
        if (m_liveStatus.contains(deployment.id))
            return TimeText::brief(deployment.updatedAt) + u" · "_s + m_liveStatus.value(deployment.id);
        return TimeText::brief(deployment.updatedAt);
    case UrlColumn:
        return urlOf(deployment);
    case ExpiresColumn:
        return deployment.expiresAt.isValid()
            ? TimeText::relative(deployment.expiresAt, m_clock ? m_clock->now() : QDateTime::currentDateTimeUtc())
            : QString();
    default:
        return {};
    }
}

QVariant DeploymentTableModel::sortValue(const Row &row, int column) const
{
    switch (column) {
    case SizeColumn:
        return row.bytes;
    case UpdatedColumn:
        return row.deployment.updatedAt;
    case ExpiresColumn: // the soonest first, those that never expire last
        return row.deployment.expiresAt.isValid() ? row.deployment.expiresAt.toSecsSinceEpoch()
                                                  : std::numeric_limits<qint64>::max();
    case TitleColumn:
        return row.deployment.title;
    default:
        return display(row, column);
    }
}

QString DeploymentTableModel::accessText(const Deployment &deployment) const
{
    if (!deployment.isProtected)
        return tr("Public");
    return deployment.passwordHash.isEmpty() ? tr("Private") : tr("Private, password");
}

QVariant DeploymentTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case SlugColumn:
        return tr("Slug");
    case TitleColumn:
        return tr("Title");
    case KindColumn:
        return tr("Kind");
    case AccessColumn:
        return tr("Access");
    case SizeColumn:
        return tr("Size");
    case UpdatedColumn:
        return tr("Updated");
    case UrlColumn:
        return tr("Address");
    case ExpiresColumn:
        return tr("Expires");
    default:
        return {};
    }
}

std::optional<Deployment> DeploymentTableModel::deployment(const QString &id) const
{
    const int row = rowOf(id);
    if (row < 0)
        return std::nullopt;
    return m_rows.at(row).deployment;
}

QModelIndex DeploymentTableModel::indexOf(const QString &id, int column) const
{
    const int row = rowOf(id);
    return row < 0 ? QModelIndex() : index(row, column);
}

QString DeploymentTableModel::urlOf(const Deployment &deployment) const
{
    return m_addresses.siteUrl(deployment.slug);
}

QString DeploymentTableModel::shareUrlOf(const Deployment &deployment) const
{
    if (!deployment.isProtected || deployment.shareToken.isEmpty())
        return {};
    return m_addresses.shareUrl(deployment.slug, deployment.shareToken);
}

int DeploymentTableModel::rowOf(const QString &id) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).deployment.id == id)
            return i;
    }
    return -1;
}

void DeploymentTableModel::onChanged(const QString &id)
{
    const auto fresh = m_service.get(m_owner, id);
    const int row = rowOf(id);
    if (!fresh) { // someone else's deployment: not shown
        if (row >= 0)
            onRemoved(id);
        return;
    }
    if (row >= 0) {
        m_rows[row] = makeRow(fresh.value());
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        return;
    }
    const int end = int(m_rows.size());
    beginInsertRows({}, end, end);
    m_rows.append(makeRow(fresh.value()));
    endInsertRows();
}

void DeploymentTableModel::onRemoved(const QString &id)
{
    const int row = rowOf(id);
    if (row < 0)
        return;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
}

} // namespace berth
