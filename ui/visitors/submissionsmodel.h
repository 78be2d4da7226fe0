#pragma once

#include "storage/submission.h"
#include "storage/user.h"

#include <QAbstractTableModel>
#include <QStringList>

namespace berth {

class SubmissionService;

// One page of a deployment's form submissions, newest first: a "Received" column, then a column per
// field any submission on the page has. Pages follow the engine's cursors (older than a given
// submission), so a page stays put while visitors keep posting. New submissions slide in at the top
// of the first page as they arrive; deleted ones leave, and the next older one fills the gap.
class SubmissionsModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    static constexpr int kDefaultPageSize = 100;

    enum Role
    {
        IdRole = Qt::UserRole + 1, // the submission id, on every column
        FieldRole, // the field's name, empty on the Received column
    };
    static constexpr int ReceivedColumn = 0;

    SubmissionsModel(SubmissionService &service, User owner, QString deploymentId, int pageSize = kDefaultPageSize,
        QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    QString deploymentId() const { return m_deploymentId; }
    int pageSize() const { return m_pageSize; }
    // All stored submissions of the deployment, and how many newer ones precede this page.
    int total() const { return m_total; }
    int offset() const { return m_offsets.constLast(); }
    int pageNumber() const { return int(m_cursors.size()); } // 1 for the newest page
    bool hasPreviousPage() const { return m_cursors.size() > 1; }
    bool hasNextPage() const { return !m_nextBefore.isEmpty(); }
    QStringList fields() const { return m_fields; }
    Submission submission(int row) const { return m_rows.value(row); }
    // Why the last load failed; empty after a good one.
    QString errorString() const { return m_error; }

    bool firstPage();
    bool nextPage();
    bool previousPage();
    bool reload(); // the current page again

    // How a field's value reads: in full (the tooltip), and in one line (the cell).
    static QString fullText(const QJsonValue &value);
    static QString cellText(const QJsonValue &value);

Q_SIGNALS:
    // The total, offset or the pages around this one changed.
    void pageChanged();

private:
    bool load(const QString &before);
    void insertRows(int at, const QList<Submission> &rows);
    void fillPage();
    void onReceived(const QString &deploymentId, const QString &submissionId);
    void onRemoved(const QString &deploymentId, const QString &submissionId);
    int rowOf(const QString &id) const;
    void refreshTotal();

    SubmissionService &m_service;
    User m_owner;
    QString m_deploymentId;
    int m_pageSize;
    QList<Submission> m_rows;
    QStringList m_fields;
    QStringList m_cursors {QString()}; // the `before` of every page up to this one; the first page's is empty
    QString m_nextBefore;
    int m_total = 0;
    QList<int> m_offsets {0}; // how many newer submissions precede every page up to this one
    QString m_error;
};

} // namespace berth
