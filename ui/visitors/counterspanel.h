#pragma once

#include "ui/mainwindow/dashboardcontext.h"

#include <QWidget>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QStackedWidget;
QT_END_NAMESPACE

namespace berth {

class CountersModel;
class DataTableView;

// A deployment's counters: name, value and last update, live as visitors count; reset one (the
// engine deletes it, so it reads 0 until its next increment).
class CountersPanel final : public QWidget
{
    Q_OBJECT

public:
    CountersPanel(const DashboardContext &context, const QString &deploymentId, QWidget *parent = nullptr);

    CountersModel &model() const { return *m_model; }
    DataTableView *tableView() const { return m_table; }

    QAction *const resetAction;

    void resetSelected();

private:
    void updateView();

    DashboardContext m_context;
    QString m_deploymentId;
    CountersModel *m_model;
    DataTableView *m_table;
    QStackedWidget *m_stack;
    QLabel *m_message;
};

} // namespace berth
