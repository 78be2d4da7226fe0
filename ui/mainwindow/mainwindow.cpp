#include "ui/mainwindow/mainwindow.h"

#include "domain/accounts/accountservice.h"
#include "domain/siterules/siteaddresses.h"
#include "instance/engine.h"
#include "ui/mainwindow/ownerwindows.h"
#include "ui/mainwindow/traycontroller.h"
#include "ui/notifications/webhookalerts.h"
#include "ui/publishing/publishdialog.h"
#include "ui/settings/appsettings.h"
#include "ui/sitelist/deploymentactions.h"
#include "ui/sitelist/deploymentfiltermodel.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/sitelist/deploymenttableview.h"
#include "ui/sitelist/emptystatepage.h"
#include "ui/sitelist/servingheader.h"
#include "ui/visitors/submissionalerts.h"
#include "ui/widgets/icons.h"

#include <QApplication>
#include <QCloseEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kStatusTimeoutMs = 5000;

User ownerOf(Engine &engine)
{
    const auto setup = engine.accounts().ensureOwner();
    return setup ? setup.value().owner : User();
}
} // namespace

MainWindow::MainWindow(Engine &engine, AppSettings &settings, QWidget *parent)
    : QMainWindow(parent)
    , m_context {engine, ownerOf(engine), settings, m_prompter}
    , m_model(new DeploymentTableModel(
          engine.deployments(), engine.siteLoader(), engine.sites(), engine.addresses(), m_context.owner, this))
    , m_proxy(new DeploymentFilterModel(this))
    , m_table(new DeploymentTableView(this))
    , m_actions(new DeploymentActions(m_context, *m_model, this))
    , m_tray(new TrayController(this))
    , m_alerts(new SubmissionAlerts(engine.submissions(), engine.deployments(), m_context.owner, m_tray, this))
    , m_webhookAlerts(new WebhookAlerts(engine.webhooks(), m_context.owner, m_tray, this))
    , m_owner(new OwnerWindows(m_context, this))
{
    m_appearance.apply(Appearance::fromName(settings.appearance()));
    setObjectName(u"mainWindow"_s);
    setWindowTitle(tr("Berth"));
    setWindowIcon(Icons::appIcon());
    setAcceptDrops(true);
    resize(980, 560);

    m_model->setClock(&engine.clock());
    m_proxy->setSourceModel(m_model);
    m_table->setObjectName(u"deploymentsTableView"_s);
    m_table->setAccessibleName(tr("Deployments"));
    m_table->setModel(m_proxy);
    m_table->sortByColumn(DeploymentTableModel::UpdatedColumn, Qt::DescendingOrder);
    m_table->setTabKeyNavigation(false); // Tab leaves the table; the arrows move within it
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(DeploymentTableModel::TitleColumn, QHeaderView::Stretch);
    header->setStretchLastSection(false);
    if (!settings.tableHeaderState().isEmpty())
        header->restoreState(settings.tableHeaderState());

    m_stack = new QStackedWidget(this);
    m_empty = new EmptyStatePage(this);
    connect(m_empty, &EmptyStatePage::chooseFolder, m_actions, &DeploymentActions::choosePublishFolder);
    connect(m_empty, &EmptyStatePage::chooseFile, m_actions, &DeploymentActions::choosePublishFile);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_table);
    m_noMatch = new QLabel(this);
    m_noMatch->setObjectName(u"noMatchLabel"_s);
    m_noMatch->setAlignment(Qt::AlignCenter);
    m_noMatch->setWordWrap(true);
    m_noMatch->setForegroundRole(QPalette::PlaceholderText);
    m_stack->addWidget(m_noMatch);
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    m_model->setLan(&engine.lan());
    auto *serving = new ServingHeader(engine, settings, m_prompter, this);
    m_filter = serving->filter();
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &DeploymentFilterModel::setFilterText);
    connect(m_filter, &QLineEdit::textChanged, this, &MainWindow::updateView);
    layout->addWidget(serving);
    layout->addWidget(m_stack, 1);
    setCentralWidget(central);
    buildMenus();

    m_count = new QLabel(this);
    m_count->setObjectName(u"countLabel"_s);
    statusBar()->addPermanentWidget(m_count);

    connect(m_model, &QAbstractItemModel::rowsInserted, this, &MainWindow::updateView);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &MainWindow::updateView);
    connect(m_model, &QAbstractItemModel::modelReset, this, &MainWindow::updateView);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::updateCurrent);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &MainWindow::updateCurrent);
    connect(m_table, &QAbstractItemView::activated, m_actions->openAction, &QAction::trigger);
    connect(m_table, &QWidget::customContextMenuRequested, this, &MainWindow::showContextMenu);
    connect(m_table, &DeploymentTableView::pathsDropped, this,
        [this](const QStringList &paths, int row) { publishPaths(paths, idAtRow(row)); });
    connect(m_table, &DeploymentTableView::dropTargetChanged, this, &MainWindow::showDropHint);
    connect(m_actions, &DeploymentActions::statusMessage, this,
        [this](const QString &text) { statusBar()->showMessage(text, kStatusTimeoutMs); });
    connect(m_actions, &DeploymentActions::published, this, &MainWindow::onPublished);

    if (!settings.windowGeometry().isEmpty())
        restoreGeometry(settings.windowGeometry());
    m_tray->setEnabled(settings.keepServingInTray());
    m_notifier = m_tray;
    connect(m_tray, &TrayController::quitRequested, this, &MainWindow::quit);
    connect(m_owner, &OwnerWindows::settingsSaved, this, &MainWindow::applySettings);
    updateView();
}

MainWindow::~MainWindow() = default;

void MainWindow::setNotifier(Notifier *notifier)
{
    m_notifier = notifier ? notifier : m_tray;
    m_alerts->setNotifier(m_notifier);
    m_webhookAlerts->setNotifier(m_notifier);
}

void MainWindow::buildMenus()
{
    auto *publishFolder = new QAction(Icons::icon(u"publish"_s), tr("&Publish Folder…"), this);
    publishFolder->setObjectName(u"publishFolderAction"_s);
    publishFolder->setShortcut(QKeySequence::Open);
    connect(publishFolder, &QAction::triggered, m_actions, &DeploymentActions::choosePublishFolder);
    auto *publishFile = new QAction(Icons::icon(u"file"_s), tr("Publish &HTML File…"), this);
    publishFile->setObjectName(u"publishFileAction"_s);
    publishFile->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_O);
    connect(publishFile, &QAction::triggered, m_actions, &DeploymentActions::choosePublishFile);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addActions({publishFolder, publishFile});
    file->addSeparator();
    m_owner->addFileActions(file);
    file->addSeparator();
    file->addAction(tr("&Close Window"), QKeySequence::Close, this, &QWidget::close);
    // Ctrl+Q spelled out: QKeySequence::Quit is empty on platforms without the binding.
    QAction *quit = file->addAction(
        Icons::icon(u"quit"_s), tr("&Quit"), QKeySequence(Qt::CTRL | Qt::Key_Q), this, &MainWindow::quit);
    quit->setObjectName(u"quitAction"_s);
    quit->setShortcutContext(Qt::ApplicationShortcut); // also from the windows and dialogs it opens

    m_actions->addTo(menuBar()->addMenu(tr("&Site")));
    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->addAction(Icons::icon(u"search"_s), tr("&Filter Sites"), QKeySequence::Find, this, [this] {
        m_filter->setFocus();
        m_filter->selectAll();
    });
    m_owner->addHelpActions(menuBar()->addMenu(tr("&Help")));

    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(u"mainToolBar"_s);
    toolbar->setMovable(false);
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->setIconSize(QSize(18, 18));
    toolbar->addAction(publishFolder);
    toolbar->addSeparator();
    toolbar->addActions({m_actions->openAction, m_actions->copyUrlAction});
    // Only a private site has a share link; the button stays in its place all the same, greyed out for a public
    // site, so that the buttons after it never move when a site turns private.
    auto *shareButton = new QToolButton(toolbar);
    shareButton->setObjectName(u"copyShareLinkToolButton"_s);
    shareButton->setDefaultAction(m_actions->copyShareLinkAction);
    shareButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addWidget(shareButton);
    toolbar->addActions(
        {m_actions->privateAction, m_actions->renameAction, m_actions->submissionsAction, m_actions->deleteAction});
}

void MainWindow::updateView()
{
    const int count = m_model->rowCount();
    if (count == 0) {
        m_stack->setCurrentWidget(m_empty);
    } else if (m_proxy->rowCount() == 0) {
        m_noMatch->setText(tr("No site matches “%1”.").arg(m_filter->text()));
        m_stack->setCurrentWidget(m_noMatch);
    } else {
        m_stack->setCurrentWidget(m_table);
    }
    m_count->setText(tr("%n site(s)", nullptr, count));
    // Always a current site while there are any, so that the site shortcuts work from the start.
    if (m_proxy->rowCount() > 0 && !m_table->selectionModel()->hasSelection())
        selectDeployment(idAtRow(0));
    updateCurrent();
}

void MainWindow::updateCurrent()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    m_actions->setCurrentId(
        rows.isEmpty() ? QString() : rows.constFirst().data(DeploymentTableModel::IdRole).toString());
}

void MainWindow::onPublished(const QString &id)
{
    selectDeployment(id);
    // A long publish may end while the window is in the tray or minimised: say so there.
    const auto deployment = m_model->deployment(id);
    if (deployment && (!isVisible() || isMinimized()))
        m_notifier->notify(tr("Published %1").arg(deployment->slug), m_model->urlOf(*deployment));
}

void MainWindow::selectDeployment(const QString &id)
{
    const QModelIndex index = m_proxy->mapFromSource(m_model->indexOf(id));
    if (!index.isValid())
        return;
    m_table->setCurrentIndex(index);
    m_table->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

QString MainWindow::idAtRow(int proxyRow) const
{
    if (proxyRow < 0)
        return {};
    return m_proxy->index(proxyRow, 0).data(DeploymentTableModel::IdRole).toString();
}

void MainWindow::publishPaths(const QStringList &paths, const QString &targetId)
{
    if (paths.isEmpty())
        return;
    if (paths.size() > 1) {
        m_prompter.warning(this, tr("Publish"), tr("Drop one folder or .html file at a time."));
        return;
    }
    if (targetId.isEmpty())
        m_actions->publish(paths.constFirst());
    else
        m_actions->replaceContent(targetId, paths.constFirst());
}

void MainWindow::showDropHint(int proxyRow, bool active)
{
    if (!active) {
        statusBar()->clearMessage();
        return;
    }
    const QString id = idAtRow(proxyRow);
    const auto deployment = id.isEmpty() ? std::nullopt : m_model->deployment(id);
    statusBar()->showMessage(
        deployment ? tr("Drop to replace the content of %1").arg(deployment->slug) : tr("Drop to publish a new site"));
}

void MainWindow::showContextMenu(const QPoint &position)
{
    const QModelIndex index = m_table->indexAt(position);
    if (!index.isValid())
        return;
    selectDeployment(index.data(DeploymentTableModel::IdRole).toString());
    QMenu menu(this);
    m_actions->addTo(&menu);
    menu.exec(m_table->viewport()->mapToGlobal(position));
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (DeploymentTableView::localPaths(event->mimeData()).isEmpty())
        return;
    event->acceptProposedAction();
    statusBar()->showMessage(tr("Drop to publish a new site"));
    m_empty->setDropTarget(true);
}

void MainWindow::dragLeaveEvent(QDragLeaveEvent *event)
{
    statusBar()->clearMessage();
    m_empty->setDropTarget(false);
    event->accept();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QStringList paths = DeploymentTableView::localPaths(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    statusBar()->clearMessage();
    m_empty->setDropTarget(false);
    publishPaths(paths);
}

void MainWindow::saveState()
{
    m_context.settings.setWindowGeometry(saveGeometry());
    m_context.settings.setTableHeaderState(m_table->horizontalHeader()->saveState());
    m_context.settings.sync();
}

void MainWindow::quit()
{
    if (!m_quitting)
        saveState();
    m_quitting = true;
    // A sheet still reading files or waiting for a choice is cancelled; a commit cannot be taken
    // back halfway, so quitting waits for it and says so.
    PublishDialog *committing = nullptr;
    const auto sheets = findChildren<PublishDialog *>();
    for (PublishDialog *sheet : sheets) {
        if (sheet->stage() == PublishDialog::Stage::Publishing)
            committing = sheet;
        else if (sheet->isVisible())
            sheet->reject();
    }
    if (committing) {
        show();
        raise();
        committing->showFinishing();
        statusBar()->showMessage(tr("Finishing publish…"));
        connect(committing, &PublishDialog::stageChanged, this, &MainWindow::quit, Qt::SingleShotConnection);
        return;
    }
    m_tray->setEnabled(false);
    hide();
    Q_EMIT readyToQuit();
}

FirstKeyDialog *MainWindow::showFirstKey(const QString &key)
{
    return m_owner->showFirstKey(key);
}

void MainWindow::bringToFront()
{
    setWindowState(windowState() & ~Qt::WindowMinimized);
    show();
    raise();
    activateWindow();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveState();
    if (!m_quitting && m_context.settings.keepServingInTray() && m_tray->isVisible()) {
        if (!m_trayHintShown)
            m_tray->notify(tr("Berth is still serving"),
                tr("Your sites stay online. Quit from the tray icon's menu or with File ▸ Quit."));
        m_trayHintShown = true;
        hide();
        event->ignore();
        return;
    }
    if (!m_quitting) {
        // Without the tray, closing the window is quitting: the same wait for a publish in flight.
        event->ignore();
        quit();
        return;
    }
    event->accept();
}

void MainWindow::applySettings(bool planLimitsChanged)
{
    m_tray->setEnabled(m_context.settings.keepServingInTray());
    m_appearance.apply(Appearance::fromName(m_context.settings.appearance()));
    if (planLimitsChanged)
        statusBar()->showMessage(tr("New plan limits saved: they apply now."), kStatusTimeoutMs);
}

AccountsDialog *MainWindow::showAccounts()
{
    return m_owner->showAccounts();
}

} // namespace berth
