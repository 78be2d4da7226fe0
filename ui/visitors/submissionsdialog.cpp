#include "ui/visitors/submissionsdialog.h"

#include "domain/deploy/deploymentservice.h"
#include "domain/deploy/siteloader.h"
#include "instance/engine.h"
#include "ui/visitors/countersmodel.h"
#include "ui/visitors/counterspanel.h"
#include "ui/visitors/submissionsmodel.h"
#include "ui/visitors/submissionspanel.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/tabbedwindow.h"

#include <QLocale>
#include <QTabBar>
#include <QTabWidget>

using namespace Qt::StringLiterals;

namespace berth {

SubmissionsDialog::SubmissionsDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_deploymentId(deployment.id)
    , m_slug(deployment.slug)
    , m_tabs(new QTabWidget(this))
    , m_submissions(new SubmissionsPanel(context, deployment.id, deployment.slug, m_tabs))
    , m_counters(new CountersPanel(context, deployment.id, m_tabs))
{
    setObjectName(u"submissionsDialog"_s);
    setWindowIcon(Icons::icon(u"inbox"_s));
    setSizeGripEnabled(true);
    resize(860, 540);

    m_tabs->setObjectName(u"submissionsTabWidget"_s);
    m_tabs->setAccessibleName(tr("Submissions and counters"));
    m_tabs->tabBar()->setAccessibleName(tr("Submissions or counters"));
    m_tabs->addTab(m_submissions, Icons::icon(u"inbox"_s), QString());
    m_tabs->addTab(m_counters, Icons::icon(u"counter"_s), QString());
    TabbedWindow::layOut(this, m_tabs);

    connect(&m_submissions->model(), &SubmissionsModel::pageChanged, this, &SubmissionsDialog::updateTitles);
    CountersModel &counters = m_counters->model();
    connect(&counters, &QAbstractItemModel::rowsInserted, this, &SubmissionsDialog::updateTitles);
    connect(&counters, &QAbstractItemModel::rowsRemoved, this, &SubmissionsDialog::updateTitles);
    connect(&counters, &QAbstractItemModel::modelReset, this, &SubmissionsDialog::updateTitles);
    SiteLoader &sites = m_context.engine.siteLoader();
    connect(&sites, &SiteLoader::deploymentChanged, this, &SubmissionsDialog::onDeploymentChanged);
    connect(&sites, &SiteLoader::deploymentRemoved, this, [this](const QString &id) {
        if (id == m_deploymentId)
            close();
    });
    updateTitles();
}

void SubmissionsDialog::showTab(Tab tab)
{
    m_tabs->setCurrentWidget(tab == Tab::Submissions ? static_cast<QWidget *>(m_submissions) : m_counters);
    m_tabs->currentWidget()->setFocus();
}

void SubmissionsDialog::updateTitles()
{
    const QLocale locale;
    setWindowTitle(tr("%1 – Submissions and Counters").arg(m_slug));
    m_tabs->setTabText(0, tr("&Submissions (%1)").arg(locale.toString(m_submissions->model().total())));
    m_tabs->setTabText(1, tr("&Counters (%1)").arg(locale.toString(m_counters->model().rowCount())));
}

void SubmissionsDialog::onDeploymentChanged(const QString &id)
{
    if (id != m_deploymentId)
        return;
    if (const auto deployment = m_context.engine.deployments().get(m_context.owner, id)) {
        m_slug = deployment.value().slug;
        m_submissions->setSlug(m_slug);
        updateTitles();
    }
}

} // namespace berth
