#include "ui/accounts/accountsdialog.h"

#include "domain/accounts/agentservice.h"
#include "domain/accounts/otpservice.h"
#include "domain/deploy/siteloader.h"
#include "instance/engine.h"
#include "ui/accounts/mailpanel.h"
#include "ui/accounts/signinpanel.h"
#include "ui/accounts/userspanel.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/tabbedwindow.h"

#include <QAction>
#include <QEvent>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
// Expiry times count down and agents arrive without a signal: a light refresh this often.
constexpr int kRefreshMs = 15'000;
} // namespace

AccountsDialog::AccountsDialog(const DashboardContext &context, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_tabs(new QTabWidget(this))
    , m_users(new UsersPanel(context, m_tabs))
    , m_signIn(new SignInPanel(context, m_tabs))
    , m_mail(new MailPanel(context, m_tabs))
    , m_refresh(new QTimer(this))
{
    setObjectName(u"accountsDialog"_s);
    setWindowTitle(tr("Accounts"));
    setWindowIcon(Icons::icon(u"users"_s));
    setSizeGripEnabled(true);
    resize(940, 560);

    m_tabs->setObjectName(u"accountsTabWidget"_s);
    m_tabs->setAccessibleName(tr("Accounts"));
    m_tabs->tabBar()->setAccessibleName(tr("Users, sign-in or mail"));
    m_tabs->addTab(m_users, Icons::icon(u"users"_s), tr("&Users"));
    m_tabs->addTab(m_signIn, Icons::icon(u"signin"_s), tr("S&ign-in"));
    m_tabs->addTab(m_mail, Icons::icon(u"mail"_s), tr("&Mail"));
    TabbedWindow::layOut(this, m_tabs);

    auto *refresh = new QAction(tr("Refresh"), this);
    refresh->setObjectName(u"refreshAccountsAction"_s);
    refresh->setShortcut(QKeySequence::Refresh);
    connect(refresh, &QAction::triggered, this, &AccountsDialog::reload);
    addAction(refresh);

    // What changes a user's row: their deployments, a sign-in (a new user, a used code), a claim.
    SiteLoader &sites = m_context.engine.siteLoader();
    connect(&sites, &SiteLoader::deploymentChanged, m_users, &UsersPanel::reload);
    connect(&sites, &SiteLoader::deploymentRemoved, m_users, &UsersPanel::reload);
    connect(&m_context.engine.signIns(), &OtpService::requestsChanged, m_users, &UsersPanel::reload);
    connect(&m_context.engine.agents(), &AgentService::agentClaimed, m_users, &UsersPanel::reload);
    connect(m_mail, &MailPanel::settingsChanged, m_signIn, &SignInPanel::reloadRequests);
    connect(m_refresh, &QTimer::timeout, this, &AccountsDialog::reload);
    m_refresh->start(kRefreshMs);
}

void AccountsDialog::showTab(Tab tab)
{
    QWidget *page = m_users;
    if (tab == Tab::SignIn)
        page = m_signIn;
    else if (tab == Tab::Mail)
        page = m_mail;
    m_tabs->setCurrentWidget(page);
}

void AccountsDialog::reload()
{
    m_users->reload();
    m_signIn->reload();
}

void AccountsDialog::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::ActivationChange && isActiveWindow())
        reload();
    QDialog::changeEvent(event);
}

} // namespace berth
