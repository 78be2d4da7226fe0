#pragma once

#include "storage/deployment.h"
#include "ui/mainwindow/dashboardcontext.h"

#include <QDialog>

QT_BEGIN_NAMESPACE
class QTabWidget;
QT_END_NAMESPACE

namespace berth {

class CountersPanel;
class SubmissionsPanel;

// What visitors left on one site: its form submissions and its counters, in two tabs. A window of
// its own beside the dashboard (not modal), live while open; it closes when the site is deleted.
class SubmissionsDialog final : public QDialog
{
    Q_OBJECT

public:
    enum class Tab
    {
        Submissions,
        Counters
    };

    SubmissionsDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent = nullptr);

    QString deploymentId() const { return m_deploymentId; }
    void showTab(Tab tab);
    SubmissionsPanel *submissionsPanel() const { return m_submissions; }
    CountersPanel *countersPanel() const { return m_counters; }

private:
    void updateTitles();
    void onDeploymentChanged(const QString &id);

    DashboardContext m_context;
    QString m_deploymentId;
    QString m_slug;
    QTabWidget *m_tabs;
    SubmissionsPanel *m_submissions;
    CountersPanel *m_counters;
};

} // namespace berth
