#include "ui/sitelist/deploymentactions.h"

#include "domain/deploy/deploymentservice.h"
#include "instance/engine.h"
#include "ui/notifications/notificationsdialog.h"
#include "ui/publishing/livefolders.h"
#include "ui/publishing/publishdialog.h"
#include "ui/settings/appsettings.h"
#include "ui/sitelist/deploymenttablemodel.h"
#include "ui/sitelist/editdetailsdialog.h"
#include "ui/sitelist/expirydialog.h"
#include "ui/sitelist/historydialog.h"
#include "ui/sitelist/protectiondialog.h"
#include "ui/sitelist/renamedialog.h"
#include "ui/sitelist/sharelinksdialog.h"
#include "ui/sitelist/sitewindows.h"
#include "ui/visitors/trafficdialog.h"
#include "ui/widgets/actionmaker.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/prompter.h"

#include <QAction>
#include <QClipboard>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QGuiApplication>
#include <QMenu>

using namespace Qt::StringLiterals;

namespace berth {

DeploymentActions::DeploymentActions(const DashboardContext &context, DeploymentTableModel &model, QWidget *window)
    : QObject(window)
    , openAction(makeAction(u"openAction"_s, u"open"_s, tr("&Open in Browser"), Qt::CTRL | Qt::Key_Return))
    , copyUrlAction(makeAction(u"copyUrlAction"_s, u"copy"_s, tr("&Copy Address"), Qt::CTRL | Qt::SHIFT | Qt::Key_C))
    , copyShareLinkAction(
          makeAction(u"copyShareLinkAction"_s, u"link"_s, tr("Copy &Share Link"), Qt::CTRL | Qt::SHIFT | Qt::Key_L))
    , newShareLinkAction(
          makeAction(u"newShareLinkAction"_s, u"reset"_s, tr("&New Share Link…"), Qt::CTRL | Qt::ALT | Qt::Key_L))
    , shareLinksAction(
          makeAction(u"shareLinksAction"_s, u"link"_s, tr("Named Share Lin&ks…"), Qt::CTRL | Qt::ALT | Qt::Key_K))
    , privateAction(makeAction(u"privateAction"_s, u"lock"_s, tr("&Private"), Qt::CTRL | Qt::SHIFT | Qt::Key_P))
    , protectionAction(
          makeAction(u"protectionAction"_s, u"key"_s, tr("&Access and Password…"), Qt::CTRL | Qt::ALT | Qt::Key_P))
    , renameAction(makeAction(u"renameAction"_s, u"rename"_s, tr("&Rename…"), Qt::Key_F2))
    , editDetailsAction(makeAction(u"editDetailsAction"_s, u"edit"_s, tr("&Edit Details…"), Qt::CTRL | Qt::Key_I))
    , redeployAction(makeAction(u"redeployAction"_s, u"redeploy"_s, tr("Re&deploy from Folder"), Qt::CTRL | Qt::Key_R))
    , submissionsAction(
          makeAction(u"submissionsAction"_s, u"inbox"_s, tr("Form S&ubmissions…"), Qt::CTRL | Qt::SHIFT | Qt::Key_S))
    , countersAction(makeAction(u"countersAction"_s, u"counter"_s, tr("Coun&ters…"), Qt::CTRL | Qt::SHIFT | Qt::Key_N))
    , trafficAction(makeAction(u"trafficAction"_s, u"eye"_s, tr("Tra&ffic…"), Qt::CTRL | Qt::SHIFT | Qt::Key_T))
    , notificationsAction(
          makeAction(u"notificationsAction"_s, u"mail"_s, tr("Not&ifications…"), Qt::CTRL | Qt::SHIFT | Qt::Key_M))
    , expiryAction(makeAction(u"expiryAction"_s, u"reset"_s, tr("E&xpiry…"), Qt::CTRL | Qt::SHIFT | Qt::Key_X))
    , deleteAction(makeAction(u"deleteAction"_s, u"delete"_s, tr("De&lete…"), QKeySequence::Delete))
    , historyAction(makeAction(u"historyAction"_s, u"previous"_s, tr("&History…"), Qt::CTRL | Qt::Key_H))
    , liveAction(makeAction(u"liveAction"_s, u"folder"_s, tr("&Live Folder"), Qt::CTRL | Qt::SHIFT | Qt::Key_F))
    , m_context(context)
    , m_model(model)
    , m_window(window)
    , m_live(new LiveFolders(context, model, this))
{
    privateAction->setCheckable(true);
    privateAction->setToolTip(tr("Private sites answer only visitors who have the share link"));
    connect(openAction, &QAction::triggered, this, &DeploymentActions::openInBrowser);
    connect(copyUrlAction, &QAction::triggered, this, &DeploymentActions::copyUrl);
    connect(copyShareLinkAction, &QAction::triggered, this, &DeploymentActions::copyShareLink);
    newShareLinkAction->setToolTip(tr("Give this private site a new share link; the current one stops working"));
    connect(newShareLinkAction, &QAction::triggered, this, &DeploymentActions::replaceShareLink);
    shareLinksAction->setToolTip(tr("Links of their own for each person: each can expire, be used up or be revoked"));
    connect(shareLinksAction, &QAction::triggered, this, [this] {
        if (const auto deployment = current())
            openDialog(new ShareLinksDialog(m_context, *deployment, m_window));
    });
    connect(privateAction, &QAction::triggered, this, &DeploymentActions::setPrivate);
    connect(protectionAction, &QAction::triggered, this, [this] {
        if (const auto deployment = current())
            openDialog(new ProtectionDialog(m_context, *deployment, m_window));
    });
    connect(renameAction, &QAction::triggered, this, [this] {
        if (const auto deployment = current())
            openDialog(new RenameDialog(m_context, *deployment, m_window));
    });
    connect(editDetailsAction, &QAction::triggered, this, [this] {
        if (const auto deployment = current())
            openDialog(new EditDetailsDialog(m_context, *deployment, m_window));
    });
    submissionsAction->setToolTip(tr("What visitors sent through this site's forms"));
    submissionsAction->setIconText(tr("Submissions"));
    countersAction->setToolTip(tr("This site's counters"));
    connect(submissionsAction, &QAction::triggered, this,
        [this] { showSubmissions(m_currentId, SubmissionsDialog::Tab::Submissions); });
    connect(countersAction, &QAction::triggered, this,
        [this] { showSubmissions(m_currentId, SubmissionsDialog::Tab::Counters); });
    trafficAction->setToolTip(tr("Views, visitors, top pages, referrers and missing pages of this site"));
    connect(trafficAction, &QAction::triggered, this, [this] { showTraffic(m_currentId); });
    notificationsAction->setToolTip(tr("Where this site's events go: webhooks, and mail for new submissions"));
    connect(notificationsAction, &QAction::triggered, this, [this] { showNotifications(m_currentId); });
    expiryAction->setToolTip(tr("When this site goes offline by itself"));
    connect(expiryAction, &QAction::triggered, this, [this] {
        if (const auto deployment = current())
            openDialog(new ExpiryDialog(m_context, *deployment, m_window));
    });
    connect(redeployAction, &QAction::triggered, this, &DeploymentActions::redeploy);
    liveAction->setCheckable(true);
    connect(liveAction, &QAction::triggered, this, [this](bool live) {
        const auto deployment = current();
        if (deployment && m_live->setLive(deployment->id, live))
            Q_EMIT statusMessage(live
                    ? tr("%1 follows its folder: changes are published as they are saved").arg(deployment->slug)
                    : tr("%1 no longer follows its folder").arg(deployment->slug));
        updateActions();
    });
    connect(historyAction, &QAction::triggered, this, [this] {
        if (const auto deployment = current()) {
            auto *dialog = new HistoryDialog(m_context, *deployment, m_window);
            connect(dialog, &HistoryDialog::rolledBack, this, [this](const QString &slug, int version) {
                Q_EMIT statusMessage(tr("%1 serves version %2 again").arg(slug).arg(version));
            });
            openDialog(dialog);
        }
    });
    connect(deleteAction, &QAction::triggered, this, &DeploymentActions::remove);
    // The shortcuts belong to the window itself: they work wherever the focus is in it, whatever the menu bar does.
    window->addActions(findChildren<QAction *>(QString(), Qt::FindDirectChildrenOnly));
    // A change made elsewhere (the API, another dialog) can change what applies.
    connect(&m_model, &QAbstractItemModel::dataChanged, this, &DeploymentActions::updateActions);
    connect(&m_model, &QAbstractItemModel::rowsRemoved, this, &DeploymentActions::updateActions);
    updateActions();
}

QAction *DeploymentActions::makeAction(
    const QString &objectName, const QString &icon, const QString &text, const QKeySequence &shortcut)
{
    return ActionMaker::make(this, objectName, icon, text, shortcut);
}

void DeploymentActions::addTo(QMenu *menu) const
{
    menu->addActions({openAction, copyUrlAction, copyShareLinkAction, newShareLinkAction, shareLinksAction});
    menu->addSeparator();
    menu->addActions({privateAction, protectionAction});
    menu->addSeparator();
    menu->addActions({renameAction, editDetailsAction, redeployAction, liveAction, historyAction, expiryAction});
    menu->addSeparator();
    menu->addActions({submissionsAction, countersAction, trafficAction, notificationsAction});
    menu->addSeparator();
    menu->addAction(deleteAction);
}

void DeploymentActions::setCurrentId(const QString &id)
{
    m_currentId = id;
    updateActions();
}

std::optional<Deployment> DeploymentActions::current() const
{
    return m_currentId.isEmpty() ? std::nullopt : m_model.deployment(m_currentId);
}

void DeploymentActions::updateActions()
{
    const auto deployment = current();
    const bool has = deployment.has_value();
    for (QAction *action : {openAction, copyUrlAction, shareLinksAction, privateAction, protectionAction, renameAction,
             editDetailsAction, submissionsAction, countersAction, trafficAction, notificationsAction, expiryAction,
             deleteAction, historyAction})
        action->setEnabled(has);
    copyShareLinkAction->setEnabled(has && deployment->isProtected);
    newShareLinkAction->setEnabled(has && deployment->isProtected);
    privateAction->setChecked(has && deployment->isProtected);
    const QString source = has ? m_context.settings.sourcePath(deployment->id) : QString();
    const bool sourceExists = !source.isEmpty() && QFileInfo::exists(source);
    redeployAction->setEnabled(sourceExists);
    liveAction->setEnabled(has && (m_live->isLive(deployment->id) || QFileInfo(source).isDir()));
    liveAction->setChecked(has && m_live->isLive(deployment->id));
    redeployAction->setToolTip(
        sourceExists ? tr("Publish %1 again").arg(source) : tr("Berth does not know a folder this site came from"));
}

void DeploymentActions::openDialog(QDialog *dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::finished, this, &DeploymentActions::updateActions);
    dialog->open();
}

std::optional<Deployment> DeploymentActions::publishedFrom(const QString &path) const
{
    std::optional<Deployment> latest;
    const QStringList ids = m_context.settings.deploymentsFrom(path);
    for (const QString &id : ids) {
        const auto deployment = m_model.deployment(id);
        if (deployment && (!latest || deployment->updatedAt > latest->updatedAt))
            latest = deployment;
    }
    return latest;
}

void DeploymentActions::publish(const QString &path)
{
    // The folder of a site already published is most likely that site, edited: updating it comes first.
    if (const auto existing = publishedFrom(path)) {
        const int choice = m_context.prompter.choose(m_window, QMessageBox::Question, tr("Publish"),
            tr("“%1” is where %2 was published from. Update that site with these files, or publish them as a new "
               "site?")
                .arg(QFileInfo(path).fileName(), existing->slug),
            {tr("&Update %1").arg(existing->slug), tr("Publish as a &New Site"), tr("Cancel")}, 0);
        if (choice == 0)
            replaceContent(existing->id, path);
        if (choice != 1)
            return;
    }
    auto *dialog = new PublishDialog(m_context, path, m_window);
    connect(dialog, &PublishDialog::published, this, &DeploymentActions::published);
    openDialog(dialog);
}

void DeploymentActions::replaceContent(const QString &deploymentId, const QString &path)
{
    const auto deployment = m_model.deployment(deploymentId);
    if (!deployment)
        return;
    auto *dialog = new PublishDialog(m_context, path, *deployment, m_window);
    connect(dialog, &PublishDialog::published, this, &DeploymentActions::published);
    openDialog(dialog);
}

SubmissionsDialog *DeploymentActions::showSubmissions(const QString &deploymentId, SubmissionsDialog::Tab tab)
{
    const auto deployment = m_model.deployment(deploymentId);
    if (!deployment)
        return nullptr;
    auto *dialog = SiteWindows::raiseOrOpen<SubmissionsDialog>(
        m_window, deploymentId, [&] { return new SubmissionsDialog(m_context, *deployment, m_window); });
    dialog->showTab(tab);
    return dialog;
}

TrafficDialog *DeploymentActions::showTraffic(const QString &deploymentId)
{
    const auto deployment = m_model.deployment(deploymentId);
    if (!deployment)
        return nullptr;
    return SiteWindows::raiseOrOpen<TrafficDialog>(
        m_window, deploymentId, [&] { return new TrafficDialog(m_context, *deployment, m_window); });
}

NotificationsDialog *DeploymentActions::showNotifications(const QString &deploymentId)
{
    const auto deployment = m_model.deployment(deploymentId);
    if (!deployment)
        return nullptr;
    return SiteWindows::raiseOrOpen<NotificationsDialog>(
        m_window, deploymentId, [&] { return new NotificationsDialog(m_context, *deployment, m_window); });
}

void DeploymentActions::choosePublishFolder()
{
    const QString dir = m_context.prompter.existingDirectory(m_window, tr("Publish Folder"));
    if (!dir.isEmpty())
        publish(dir);
}

void DeploymentActions::choosePublishFile()
{
    const QString file = m_context.prompter.openFileName(
        m_window, tr("Publish HTML File"), QString(), tr("HTML pages (*.html *.htm)"));
    if (!file.isEmpty())
        publish(file);
}

void DeploymentActions::openInBrowser()
{
    // The owner of a private site goes in as a visitor with the link would, not to the password page.
    if (const auto deployment = current())
        m_context.prompter.openUrl(
            QUrl(deployment->isProtected ? m_model.shareUrlOf(*deployment) : m_model.urlOf(*deployment)));
}

void DeploymentActions::copyUrl()
{
    if (const auto deployment = current()) {
        QGuiApplication::clipboard()->setText(m_model.urlOf(*deployment));
        Q_EMIT statusMessage(tr("Copied %1").arg(m_model.urlOf(*deployment)));
    }
}

void DeploymentActions::copyShareLink()
{
    const auto deployment = current();
    if (!deployment || !deployment->isProtected)
        return;
    QGuiApplication::clipboard()->setText(m_model.shareUrlOf(*deployment));
    Q_EMIT statusMessage(tr("Copied the share link of %1").arg(deployment->slug));
}

void DeploymentActions::replaceShareLink()
{
    const auto deployment = current();
    if (!deployment || !deployment->isProtected)
        return;
    const auto answer = m_context.prompter.question(m_window, tr("New Share Link"),
        tr("Give “%1” a new share link? The current link stops working at once, also for people who already "
           "opened the site with it; they need the new one.")
            .arg(deployment->slug),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel, tr("&New Link"));
    if (answer != QMessageBox::Yes)
        return;
    DeployRequest request;
    request.rotateShareLink = true;
    auto *watcher = new QFutureWatcher<Result<Deployment>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        const Result<Deployment> result = watcher->future().result();
        watcher->deleteLater();
        updateActions();
        if (!result) {
            m_context.prompter.warning(m_window, tr("Share Link"), ErrorText::describe(result.error()));
            return;
        }
        QGuiApplication::clipboard()->setText(m_model.shareUrlOf(result.value()));
        Q_EMIT statusMessage(
            tr("%1 has a new share link (copied); the old one no longer works.").arg(result.value().slug));
    });
    watcher->setFuture(m_context.engine.deployments().update(m_context.owner, deployment->id, std::move(request)));
}

void DeploymentActions::setPrivate(bool makePrivate)
{
    const auto deployment = current();
    if (!deployment || deployment->isProtected == makePrivate) {
        updateActions();
        return;
    }
    if (!makePrivate) {
        const auto answer = m_context.prompter.question(m_window, tr("Make Public"),
            tr("Make “%1” public? Anyone with its address can visit it. Its share link and password are removed: "
               "making it private again later makes a new link, and the one given out now stops working.")
                .arg(deployment->slug),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Yes, tr("Make &Public"));
        if (answer != QMessageBox::Yes) {
            updateActions();
            return;
        }
    }
    DeployRequest request;
    request.protect = makePrivate;
    auto *watcher = new QFutureWatcher<Result<Deployment>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, makePrivate] {
        const Result<Deployment> result = watcher->future().result();
        watcher->deleteLater();
        updateActions();
        if (!result) {
            m_context.prompter.warning(m_window, tr("Access"), ErrorText::describe(result.error()));
            return;
        }
        Q_EMIT statusMessage(makePrivate
                ? tr("%1 is private: copy its share link to let people in.").arg(result.value().slug)
                : tr("%1 is public.").arg(result.value().slug));
    });
    watcher->setFuture(m_context.engine.deployments().update(m_context.owner, deployment->id, std::move(request)));
}

void DeploymentActions::redeploy()
{
    const auto deployment = current();
    if (!deployment)
        return;
    const QString source = m_context.settings.sourcePath(deployment->id);
    if (!source.isEmpty() && QFileInfo::exists(source))
        replaceContent(deployment->id, source);
}

void DeploymentActions::remove()
{
    const auto deployment = current();
    if (!deployment)
        return;
    const auto answer = m_context.prompter.question(m_window, tr("Delete Site"),
        tr("Delete “%1”? The site goes offline at once and its address is free for anyone. This cannot be undone.")
            .arg(deployment->slug),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel, tr("&Delete"));
    if (answer != QMessageBox::Yes)
        return;
    const auto result = m_context.engine.deployments().remove(m_context.owner, deployment->id);
    if (!result) {
        m_context.prompter.warning(m_window, tr("Delete Site"), ErrorText::describe(result.error()));
        return;
    }
    m_live->setLive(deployment->id, false);
    m_context.settings.removeSourcePath(deployment->id);
    Q_EMIT statusMessage(tr("Deleted %1").arg(deployment->slug));
}

} // namespace berth
