#pragma once

#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QLabel;
class QPushButton;
class QTreeWidget;
QT_END_NAMESPACE

namespace berth {

// What changed between two file lists: paths added, removed, and present in both with other content.
struct FileListDiff
{
    QStringList added;
    QStringList removed;
    QStringList changed;

    static FileListDiff between(const QList<StoredFile> &from, const QList<StoredFile> &to);
};

// A site's kept versions, newest first: when, how many files, how large, the title; for the selected one
// what differs from the live version; and "Roll back to this version", which serves it again as a new version.
class HistoryDialog final : public QDialog
{
    Q_OBJECT

public:
    HistoryDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent = nullptr);

Q_SIGNALS:
    void rolledBack(const QString &slug, int version);

private:
    void reload();
    void showSelected();
    void rollBack();
    int selectedVersion() const; // 0 for none

    DashboardContext m_context;
    Deployment m_deployment;
    QTreeWidget *m_list;
    QLabel *m_diff;
    QPushButton *m_rollbackButton;
};

} // namespace berth
