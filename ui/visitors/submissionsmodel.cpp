#include "ui/visitors/submissionsmodel.h"

#include "domain/visitors/submissionservice.h"
#include "ui/widgets/timetext.h"

#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace berth {

// A field sent several times (checkboxes) arrives as an array: its values read as a list.
QString SubmissionsModel::fullText(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isNull() || value.isUndefined())
        return {};
    if (value.isArray()) {
        QStringList parts;
        const QJsonArray array = value.toArray();
        for (const QJsonValue &item : array)
            parts.append(fullText(item));
        return parts.join(u", "_s);
    }
    const QByteArray json = QJsonDocument(QJsonArray {value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(json.mid(1, json.size() - 2));
}

SubmissionsModel::SubmissionsModel(
    SubmissionService &service, User owner, QString deploymentId, int pageSize, QObject *parent)
    : QAbstractTableModel(parent)
    , m_service(service)
    , m_owner(std::move(owner))
    , m_deploymentId(std::move(deploymentId))
    , m_pageSize(qBound(1, pageSize, SubmissionService::kMaxPageSize))
{
    connect(&m_service, &SubmissionService::submissionReceived, this, &SubmissionsModel::onReceived);
    connect(&m_service, &SubmissionService::submissionRemoved, this, &SubmissionsModel::onRemoved);
    firstPage();
}

QString SubmissionsModel::cellText(const QJsonValue &value)
{
    QString text = fullText(value);
    text.replace(u"\r\n"_s, u"\n"_s);
    text.replace(u'\n', u" ⏎ "_s);
    return text;
}

int SubmissionsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SubmissionsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_fields.size()) + 1;
}

QVariant SubmissionsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Submission &row = m_rows.at(index.row());
    const QString field = index.column() == ReceivedColumn ? QString() : m_fields.at(index.column() - 1);
    switch (role) {
    case Qt::DisplayRole:
        return field.isEmpty() ? TimeText::brief(row.createdAt) : cellText(row.data.value(field));
    case Qt::ToolTipRole:
        return field.isEmpty() ? TimeText::full(row.createdAt) : fullText(row.data.value(field));
    case IdRole:
        return row.id;
    case FieldRole:
        return field;
    default:
        return {};
    }
}

QVariant SubmissionsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section > m_fields.size())
        return QAbstractTableModel::headerData(section, orientation, role);
    return section == ReceivedColumn ? tr("Received") : m_fields.at(section - 1);
}

bool SubmissionsModel::firstPage()
{
    m_cursors = QStringList {QString()};
    m_offsets = {0};
    return load({});
}

bool SubmissionsModel::nextPage()
{
    if (!hasNextPage())
        return false;
    m_offsets.append(m_offsets.constLast() + int(m_rows.size()));
    m_cursors.append(m_nextBefore);
    return load(m_nextBefore);
}

bool SubmissionsModel::previousPage()
{
    if (!hasPreviousPage())
        return false;
    m_cursors.removeLast();
    m_offsets.removeLast();
    return load(m_cursors.constLast());
}

bool SubmissionsModel::reload()
{
    return load(m_cursors.constLast());
}

bool SubmissionsModel::load(const QString &before)
{
    const auto page = m_service.list(m_owner, m_deploymentId, m_pageSize, before);
    if (!page && !before.isEmpty()) // the page began after a submission deleted since: start again
        return firstPage();
    beginResetModel();
    m_rows.clear();
    m_fields.clear();
    m_nextBefore.clear();
    m_error = page ? QString() : page.error().message;
    if (page) {
        m_total = page.value().total;
        m_nextBefore = page.value().nextBefore;
        m_rows = page.value().submissions;
        for (const Submission &submission : std::as_const(m_rows)) {
            for (const QString &field : submission.fields()) { // in the order the visitor's form sent them
                if (!m_fields.contains(field))
                    m_fields.append(field);
            }
        }
    }
    endResetModel();
    Q_EMIT pageChanged();
    return bool(page);
}

void SubmissionsModel::insertRows(int at, const QList<Submission> &rows)
{
    if (rows.isEmpty())
        return;
    QStringList added;
    for (const Submission &submission : rows) {
        for (const QString &field : submission.fields()) {
            if (!m_fields.contains(field) && !added.contains(field))
                added.append(field);
        }
    }
    if (!added.isEmpty()) {
        const int first = columnCount();
        beginInsertColumns({}, first, first + int(added.size()) - 1);
        m_fields.append(added);
        endInsertColumns();
    }
    beginInsertRows({}, at, at + int(rows.size()) - 1);
    for (int i = 0; i < rows.size(); ++i)
        m_rows.insert(at + i, rows.at(i));
    endInsertRows();
}

void SubmissionsModel::onReceived(const QString &deploymentId, const QString &)
{
    if (deploymentId != m_deploymentId)
        return;
    if (hasPreviousPage()) { // this page keeps its rows; one more newer submission precedes them
        for (int i = 1; i < m_offsets.size(); ++i)
            ++m_offsets[i];
        refreshTotal();
        return;
    }
    const auto page = m_service.list(m_owner, m_deploymentId, m_pageSize, {});
    if (!page)
        return;
    const QList<Submission> &fresh = page.value().submissions;
    const QString newestShown = m_rows.isEmpty() ? QString() : m_rows.constFirst().id;
    qsizetype count = 0;
    while (count < fresh.size() && fresh.at(count).id != newestShown)
        ++count;
    insertRows(0, fresh.mid(0, count));
    if (m_rows.size() > m_pageSize) {
        beginRemoveRows({}, m_pageSize, int(m_rows.size()) - 1);
        m_rows.resize(m_pageSize);
        endRemoveRows();
    }
    m_total = page.value().total;
    m_nextBefore = page.value().nextBefore;
    Q_EMIT pageChanged();
}

void SubmissionsModel::onRemoved(const QString &deploymentId, const QString &submissionId)
{
    if (deploymentId != m_deploymentId)
        return;
    const int row = rowOf(submissionId);
    if (row < 0) {
        refreshTotal();
        return;
    }
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
    fillPage();
}

// After a deletion: the next older submissions move up into this page, and an emptied page that
// is not the first gives way to the one before it.
void SubmissionsModel::fillPage()
{
    if (m_rows.isEmpty() && hasPreviousPage()) {
        previousPage();
        return;
    }
    const auto page = m_service.list(m_owner, m_deploymentId, m_pageSize, m_cursors.constLast());
    if (!page) {
        firstPage();
        return;
    }
    const QList<Submission> &fresh = page.value().submissions;
    qsizetype from = 0;
    if (!m_rows.isEmpty()) {
        const QString oldestShown = m_rows.constLast().id;
        while (from < fresh.size() && fresh.at(from).id != oldestShown)
            ++from;
        ++from;
    }
    if (from <= fresh.size())
        insertRows(int(m_rows.size()), fresh.mid(from));
    m_total = page.value().total;
    m_nextBefore = page.value().nextBefore;
    Q_EMIT pageChanged();
}

void SubmissionsModel::refreshTotal()
{
    if (const auto page = m_service.list(m_owner, m_deploymentId, 1, {})) {
        m_total = page.value().total;
        Q_EMIT pageChanged();
    }
}

int SubmissionsModel::rowOf(const QString &id) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows.at(i).id == id)
            return i;
    }
    return -1;
}

} // namespace berth
