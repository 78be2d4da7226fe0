#pragma once

#include "ui/mainwindow/dashboardcontext.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QStackedWidget;
class QTextBrowser;
QT_END_NAMESPACE

namespace berth {

class DataTableView;
class SubmissionsModel;

// A deployment's form submissions: a page of the table at a time, newest first, with the selected
// submission in full below it; delete the selected ones, or export all of them to a CSV file.
class SubmissionsPanel final : public QWidget
{
    Q_OBJECT

public:
    SubmissionsPanel(
        const DashboardContext &context, const QString &deploymentId, const QString &slug, QWidget *parent = nullptr);

    SubmissionsModel &model() const { return *m_model; }
    DataTableView *tableView() const { return m_table; }
    void setSlug(const QString &slug) { m_slug = slug; } // after a rename

    QAction *const previousPageAction;
    QAction *const nextPageAction;
    QAction *const deleteAction;
    QAction *const exportAction;

    void deleteSelected();
    void exportCsv();

private:
    void updatePage();
    void showSelected();
    QStringList selectedIds() const;

    DashboardContext m_context;
    QString m_deploymentId;
    QString m_slug;
    SubmissionsModel *m_model;
    DataTableView *m_table;
    QTextBrowser *m_details;
    QStackedWidget *m_stack;
    QLabel *m_pageLabel;
    QLabel *m_message;
};

} // namespace berth
