#pragma once

#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>
#include <QTimer>

QT_BEGIN_NAMESPACE
class QComboBox;
class QGridLayout;
class QLabel;
class QTabWidget;
class QTreeWidget;
QT_END_NAMESPACE

namespace berth {

struct AnalyticsReport;
class TrafficChart;

// A site's traffic over a span of days: views, visitors, 404s and bytes sent in total, views and visitors per day
// as a chart, and the top pages, referrers and missing paths. A window of its own beside the dashboard (not modal),
// read again every kRefreshMs while open, so visits show as they come; it closes when the site is deleted.
class TrafficDialog final : public QDialog
{
    Q_OBJECT

public:
    static constexpr int kRefreshMs = 2000; // page views reach the database about once a second

    TrafficDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent = nullptr);

    QString deploymentId() const { return m_deploymentId; }
    TrafficChart *chart() const { return m_chart; }
    // Reads the report again (the timer does so while the window is open).
    void refresh();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    QLabel *addTotal(QGridLayout *grid, int column, const QString &name, const QString &caption);
    void showReport(const AnalyticsReport &report);
    int spanDays() const;

    DashboardContext m_context;
    QString m_deploymentId;
    QComboBox *m_span;
    QLabel *m_views = nullptr;
    QLabel *m_visitors = nullptr;
    QLabel *m_notFound = nullptr;
    QLabel *m_bytes = nullptr;
    QLabel *m_message;
    TrafficChart *m_chart;
    QTabWidget *m_lists;
    QTreeWidget *m_pages;
    QTreeWidget *m_referrers;
    QTreeWidget *m_missing;
    QTimer m_refresh;
};

} // namespace berth
