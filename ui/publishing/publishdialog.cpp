#include "ui/publishing/publishdialog.h"

#include "domain/deploy/deploymentservice.h"
#include "domain/siterules/siteaddresses.h"
#include "instance/engine.h"
#include "ui/publishing/publishissuetext.h"
#include "ui/publishing/slugedit.h"
#include "ui/settings/appsettings.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/qrpanel.h"
#include "ui/widgets/theme.h"

#include <QCheckBox>
#include <QFileInfo>
#include <QLabel>
#include <QLayout>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>

using namespace Qt::StringLiterals;

namespace berth {

PublishDialog::PublishDialog(const DashboardContext &context, const QString &path, QWidget *parent)
    : QDialog(parent, Qt::Sheet)
    , m_context(context)
    , m_path(path)
{
    build();
}

PublishDialog::PublishDialog(
    const DashboardContext &context, const QString &path, const Deployment &target, QWidget *parent)
    : QDialog(parent, Qt::Sheet)
    , m_context(context)
    , m_path(path)
    , m_target(target)
{
    build();
}

PublishDialog::~PublishDialog() = default;

QString PublishDialog::sourceName() const
{
    return QFileInfo(m_path).fileName();
}

void PublishDialog::onPackaged()
{
    const auto &result = m_packager.result();
    if (!result) // cancelled
        return;
    showIssues();
    if (!result->ok()) {
        showMessage(result->error().message, true);
        m_summary->setText(tr("This cannot be published as it is."));
        setStage(Stage::Failed);
        return;
    }
    const FolderContent &site = result->value();
    QString summary = site.singleHtml
        ? tr("A single HTML page, %1")
              .arg(QLocale().formattedDataSize(site.totalBytes, 1, QLocale::DataSizeTraditionalFormat))
        : tr("%n file(s), %1", nullptr, site.fileCount)
              .arg(QLocale().formattedDataSize(site.totalBytes, 1, QLocale::DataSizeTraditionalFormat));
    if (site.skippedHidden > 0)
        summary += u" · "_s + tr("%n hidden item(s) skipped", nullptr, site.skippedHidden);
    if (!site.linksOutside.isEmpty())
        summary += u" · "_s + tr("%n link(s) out of the folder left out", nullptr, int(site.linksOutside.size()));
    m_summary->setText(summary);
    setStage(Stage::Ready);
    if (m_publishRequested)
        deploy();
}

void PublishDialog::requestPublish()
{
    if (m_stage == Stage::Done) {
        accept();
        return;
    }
    if (m_slug && !m_slug->isValid())
        return;
    m_publishRequested = true;
    if (m_stage == Stage::Ready)
        deploy();
    else
        setStage(m_stage); // locks the form until the files are read; then it deploys
}

void PublishDialog::deploy()
{
    DeployRequest request = m_packager.result()->value().content;
    if (!m_target) {
        request.slug = m_slug->slug();
        if (!m_title->text().trimmed().isEmpty())
            request.title = m_title->text().trimmed();
        request.isSpa = m_spa->isChecked();
        // As `berthd deploy --password`: a password makes the site private.
        if (m_private->isChecked() || !m_password->text().isEmpty())
            request.protect = true;
        if (!m_password->text().isEmpty())
            request.password = m_password->text();
    } else if (m_prepareOnly->isChecked()) {
        request.publish = false;
    }
    m_committing = false;
    m_cancelling = false;
    m_deployProgress = DeployProgress::make();
    connect(m_deployProgress.get(), &DeployProgress::progressed, this, &PublishDialog::onDeployProgress);
    setStage(Stage::Publishing);
    // A redeploy of a large site with one changed file sends that file's content only.
    const auto progress = m_deployProgress;
    const std::optional<QString> targetId = m_target ? std::optional<QString>(m_target->id) : std::nullopt;
    m_deploy.start(
        std::move(request),
        [this, progress, targetId](DeployRequest part) {
            DeploymentService &service = m_context.engine.deployments();
            return targetId ? service.update(m_context.owner, *targetId, std::move(part), progress)
                            : service.create(m_context.owner, std::move(part), progress);
        },
        [progress] { return progress->isCancelled(); });
}

void PublishDialog::onDeployProgress(DeployProgress::Step step, qint64 done, qint64 total)
{
    if (m_stage != Stage::Publishing || m_cancelling)
        return;
    constexpr int kSteps = 1000;
    const auto size
        = [](qint64 bytes) { return QLocale().formattedDataSize(bytes, 1, QLocale::DataSizeTraditionalFormat); };
    // The words first, then the bar: whoever watches the bar reads the words that go with it.
    switch (step) {
    case DeployProgress::Step::Checking:
        if (!m_finishing)
            m_summary->setText(tr("Checking…"));
        m_progress->setRange(0, 0);
        return;
    case DeployProgress::Step::Storing:
        if (!m_finishing)
            m_summary->setText(tr("Storing %1 of %2…").arg(size(done), size(total)));
        m_progress->setRange(0, kSteps);
        m_progress->setValue(total > 0 ? int(done * kSteps / total) : kSteps);
        return;
    case DeployProgress::Step::Committing:
        m_committing = true;
        updateButtons();
        if (!m_finishing)
            m_summary->setText(tr("Putting the new version online…"));
        m_progress->setRange(0, 0);
        return;
    }
}

void PublishDialog::onDeployed(const Result<Deployment> &result)
{
    m_publishRequested = false;
    m_deployProgress.reset();
    if (!result && result.error().code == Error::Code::PublishCancelled) {
        setStage(Stage::Ready);
        m_packager.cancel();
        QDialog::reject(); // nothing was stored: the sheet goes as if never published
        return;
    }
    if (!result) {
        if (result.error().code == Error::Code::SlugTaken && m_slug)
            m_slug->showProblem(tr("“%1” was just taken by another site. Choose another slug.").arg(m_slug->slug()));
        else
            showMessage(ErrorText::describe(result.error()), true);
        setStage(Stage::Ready);
        return;
    }
    m_published = result.value();
    m_context.settings.setSourcePath(m_published->id, m_packager.result()->value().sourcePath);
    showResult();
    setStage(Stage::Done);
    Q_EMIT published(m_published->id);
}

void PublishDialog::showResult()
{
    const SiteAddresses &addresses = m_context.engine.addresses();
    const int prepared = m_published->preparedVersion;
    if (prepared > 0)
        m_resultHeading->setText(tr("Version %1 of “%2” is prepared").arg(prepared).arg(m_published->slug));
    else
        m_resultHeading->setText(m_target ? tr("“%1” is updated").arg(m_published->slug) : tr("Your site is live"));
    m_resultNote->setVisible(prepared > 0);
    m_resultNote->setText(tr("Visitors still see the live version. To make this one live, select it in the site's "
                             "History and choose Make This Version Live."));
    m_url->setText(addresses.siteUrl(m_published->slug));
    m_shareRow->setVisible(m_published->isProtected);
    if (m_published->isProtected)
        m_shareUrl->setText(addresses.shareUrl(m_published->slug, m_published->shareToken));
    m_shareUrl->setToolTip(m_shareUrl->text());
    m_shareUrl->setCursorPosition(0);
    m_qrPanel->showSite(m_context.engine, *m_published);
    // The site is live; what the rules files say that Berth does not follow is worth a look all the same.
    m_ruleWarnings->setVisible(!m_published->warnings.isEmpty());
    if (!m_published->warnings.isEmpty())
        m_ruleWarnings->setText(
            tr("Published, with something worth fixing:") + u"\n"_s + m_published->warnings.join(u'\n'));
}

void PublishDialog::fitToResult()
{
    // The form (with its findings) may be much taller than the answer: it leaves the pages, so that only the answer
    // is measured from now on.
    if (m_pages->count() > 1) {
        QWidget *form = m_pages->widget(0);
        m_pages->setCurrentIndex(1);
        m_pages->removeWidget(form);
    }
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest); // the answer's new texts laid out first
    adjustSize();
}

void PublishDialog::showIssues()
{
    // The checks decide nothing: the owner reads them and publishes anyway, or cancels and fixes the folder.
    const QList<PublishIssue> &issues = m_packager.issues();
    m_issues->clear();
    for (const PublishIssue &issue : issues) {
        auto *item = new QListWidgetItem(PublishIssueText::describe(issue), m_issues);
        item->setToolTip(PublishIssueText::kindName(issue.kind));
        item->setData(Qt::UserRole, int(issue.kind));
    }
    m_issuesHeading->setVisible(!issues.isEmpty());
    m_issues->setVisible(!issues.isEmpty());
    m_publishButton->setText(publishText());
}

QString PublishDialog::publishText() const
{
    const bool anyway = !m_packager.issues().isEmpty();
    if (!m_target)
        return anyway ? tr("Publish &Anyway") : tr("&Publish");
    if (m_prepareOnly && m_prepareOnly->isChecked())
        return anyway ? tr("Prepare &Anyway") : tr("&Prepare");
    return anyway ? tr("Replace &Anyway") : tr("&Replace");
}

void PublishDialog::showMessage(const QString &text, bool error)
{
    Theme::showMessage(m_message, text, error ? Theme::Tone::Error : Theme::Tone::Normal);
}

void PublishDialog::setStage(Stage stage)
{
    m_stage = stage;
    const bool busy = stage == Stage::Reading || stage == Stage::Publishing;
    m_progress->setVisible(busy);
    if (stage == Stage::Publishing) {
        m_progress->setRange(0, 0); // until the engine reports its first step
        m_summary->setText(m_target ? tr("Replacing the content…") : tr("Publishing…"));
    }
    const bool editable = isEditable();
    for (QWidget *field :
        {static_cast<QWidget *>(m_slug), static_cast<QWidget *>(m_title), static_cast<QWidget *>(m_spa),
            static_cast<QWidget *>(m_password), static_cast<QWidget *>(m_prepareOnly)}) {
        if (field)
            field->setEnabled(editable);
    }
    if (m_private)
        updateAccess();
    if (stage == Stage::Done)
        fitToResult();
    updateButtons();
    Q_EMIT stageChanged(stage);
}

bool PublishDialog::isEditable() const
{
    return (m_stage == Stage::Reading || m_stage == Stage::Ready) && !m_publishRequested;
}

void PublishDialog::updateAccess()
{
    // As `berthd deploy --password`: a password makes the site private, so Private stays ticked while there is one
    // (unticking it would drop what was typed) and a line under the field says why.
    const bool hasPassword = !m_password->text().isEmpty();
    if (hasPassword)
        m_private->setChecked(true);
    m_private->setEnabled(isEditable() && !hasPassword);
    m_private->setToolTip(hasPassword ? m_passwordHint->text() : QString());
    m_passwordHint->setVisible(hasPassword);
}

void PublishDialog::showFinishing()
{
    if (m_stage == Stage::Publishing) {
        m_finishing = true;
        m_summary->setText(tr("Finishing publish…"));
    }
}

void PublishDialog::updateButtons()
{
    switch (m_stage) {
    case Stage::Done:
        m_cancelButton->hide();
        m_publishButton->setText(tr("&Done"));
        m_publishButton->setIcon(QIcon());
        m_publishButton->setEnabled(true);
        m_publishButton->setFocus();
        return;
    case Stage::Failed:
        m_publishButton->setEnabled(false);
        m_cancelButton->setText(tr("Close"));
        return;
    case Stage::Publishing:
        // Storing the files can be cancelled; the engine's commit is short and cannot be taken back halfway.
        m_publishButton->setEnabled(false);
        m_cancelButton->setEnabled(!m_committing && !m_cancelling && !m_finishing);
        return;
    case Stage::Reading:
    case Stage::Ready:
        m_publishButton->setEnabled(!m_publishRequested && (!m_slug || m_slug->isValid()));
        m_cancelButton->setEnabled(true);
        return;
    }
}

void PublishDialog::reject()
{
    if (m_stage == Stage::Publishing) {
        // The sheet stays until the engine answers "cancelled" (then it closes) or, too late, with the result.
        if (!m_cancelling && !m_finishing && m_deployProgress && m_deployProgress->cancel()) {
            m_cancelling = true;
            m_summary->setText(tr("Cancelling…"));
            updateButtons();
        }
        return;
    }
    if (m_stage == Stage::Done) {
        accept();
        return;
    }
    m_packager.cancel();
    QDialog::reject();
}

} // namespace berth
