#include "publishdialog.h"

#include "appsettings.h"
#include "domain/deploymentservice.h"
#include "domain/siteaddresses.h"
#include "domain/slugrules.h"
#include "engine.h"
#include "errortext.h"
#include "iconlabel.h"
#include "icons.h"
#include "prompter.h"
#include "publishissuetext.h"
#include "slugedit.h"
#include "theme.h"

#include <QCheckBox>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kHeaderIconSize = 40;

// A URL inside a sentence: never broken at its hyphens.
QString unbroken(const QString &url)
{
    return u"<span style=\"white-space: nowrap\">"_s + url.toHtmlEscaped() + u"</span>"_s;
}

QLabel *headingLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    QFont font = label->font();
    font.setPointSizeF(font.pointSizeF() * 1.25);
    font.setBold(true);
    label->setFont(font);
    label->setWordWrap(true);
    return label;
}
} // namespace

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

void PublishDialog::build()
{
    setObjectName(u"publishDialog"_s);
    setWindowTitle(m_target ? tr("Replace Site Content") : tr("Publish Site"));
    setMinimumWidth(520);

    m_pages = new QStackedWidget(this);
    m_pages->addWidget(buildForm());
    m_pages->addWidget(buildResult());

    m_buttons = new QDialogButtonBox(this);
    m_cancelButton = m_buttons->addButton(QDialogButtonBox::Cancel);
    m_cancelButton->setObjectName(u"cancelButton"_s);
    m_publishButton = m_buttons->addButton(m_target ? tr("&Replace") : tr("&Publish"), QDialogButtonBox::AcceptRole);
    m_publishButton->setObjectName(u"publishButton"_s);
    m_publishButton->setIcon(Icons::icon(u"publish"_s));
    m_publishButton->setDefault(true);
    connect(m_publishButton, &QPushButton::clicked, this, &PublishDialog::requestPublish);
    connect(m_cancelButton, &QPushButton::clicked, this, &PublishDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_pages);
    layout->addWidget(m_buttons);

    connect(&m_packager, &FolderPackager::progressChanged, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
        m_summary->setText(tr("Reading files… %1 of %2").arg(done).arg(total));
    });
    connect(&m_packager, &FolderPackager::finished, this, &PublishDialog::onPackaged);
    m_deploy.setObjectName(u"incrementalDeploy"_s);
    m_deploy.setParent(this); // found by tests with findChild; a member, so destroyed before the sheet
    connect(&m_deploy, &IncrementalDeploy::finished, this, &PublishDialog::onDeployed);

    m_packager.start(m_path);
    setStage(Stage::Reading);
}

QWidget *PublishDialog::buildForm()
{
    auto *page = new QWidget(this);
    const bool file = QFileInfo(m_path).isFile();
    auto *heading = headingLabel(page);
    heading->setText(m_target ? tr("Replace “%1” with “%2”?").arg(m_target->slug, sourceName())
                              : tr("Publish “%1”").arg(sourceName()));
    m_summary = new QLabel(tr("Reading files…"), page);
    m_summary->setObjectName(u"summaryLabel"_s);
    m_summary->setWordWrap(true);

    auto *header = new QGridLayout;
    header->addWidget(
        new IconLabel(Icons::icon(file ? u"file"_s : u"folder"_s), kHeaderIconSize, page), 0, 0, 2, 1, Qt::AlignTop);
    header->addWidget(heading, 0, 1);
    header->addWidget(m_summary, 1, 1);
    header->setColumnStretch(1, 1);

    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);

    if (m_target) {
        auto *explanation = new QLabel(tr("Everything now in %1 is replaced by these files. The address stays the "
                                          "same; visitors see the new version at once.")
                                           .arg(unbroken(m_context.engine.addresses().siteUrl(m_target->slug))),
            page);
        explanation->setTextFormat(Qt::RichText);
        explanation->setWordWrap(true);
        layout->addWidget(explanation);
    } else {
        m_slug = new SlugEdit(m_context.engine.sites(), m_context.engine.addresses(), page);
        m_slug->setSlug(SlugRules::fromName(sourceName()));
        connect(m_slug, &SlugEdit::validityChanged, this, &PublishDialog::updateButtons);
        m_title = new QLineEdit(page);
        m_title->setObjectName(u"titleLineEdit"_s);
        m_title->setAccessibleName(tr("Title"));
        m_title->setMaxLength(kMaxTitleLength);
        m_title->setPlaceholderText(tr("Taken from the page's <title> when empty"));
        m_spa = new QCheckBox(tr("&Single-page app (unknown paths serve index.html)"), page);
        m_spa->setObjectName(u"spaCheckBox"_s);
        m_spa->setVisible(!file);
        m_private = new QCheckBox(tr("P&rivate: only people with the share link can visit"), page);
        m_private->setObjectName(u"privateCheckBox"_s);
        m_password = new QLineEdit(page);
        m_password->setObjectName(u"passwordLineEdit"_s);
        m_password->setAccessibleName(tr("Password"));
        m_password->setEchoMode(QLineEdit::Password);
        m_password->setMaxLength(kMaxPasswordLength);
        m_password->setPlaceholderText(tr("Optional: visitors also need this password"));
        m_password->setEnabled(false);
        connect(m_private, &QCheckBox::toggled, m_password, &QWidget::setEnabled);

        auto *form = new QFormLayout;
        form->addRow(tr("&Slug:"), m_slug);
        form->addRow(tr("&Title:"), m_title);
        form->addRow(QString(), m_spa);
        form->addRow(QString(), m_private);
        form->addRow(tr("Pass&word:"), m_password);
        layout->addLayout(form);
        setFocusProxy(m_slug);
    }

    m_message = new QLabel(page);
    m_message->setObjectName(u"messageLabel"_s);
    m_message->setAccessibleName(tr("Message"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();
    m_issuesHeading = new QLabel(tr("Before you publish, have a look at these:"), page);
    m_issuesHeading->setObjectName(u"issuesHeadingLabel"_s);
    m_issuesHeading->setWordWrap(true);
    m_issuesHeading->hide();
    m_issues = new QListWidget(page);
    m_issues->setObjectName(u"issuesListWidget"_s);
    m_issues->setAccessibleName(tr("Pre-publish checks"));
    m_issues->setWordWrap(true);
    m_issues->setSelectionMode(QAbstractItemView::NoSelection);
    m_issues->hide();
    layout->addWidget(m_issuesHeading);
    layout->addWidget(m_issues);
    m_progress = new QProgressBar(page);
    m_progress->setObjectName(u"progressBar"_s);
    m_progress->setAccessibleName(tr("Progress"));
    m_progress->setTextVisible(false);
    layout->addWidget(m_message);
    layout->addWidget(m_progress);
    layout->addStretch();
    return page;
}

QWidget *PublishDialog::buildResult()
{
    auto *page = new QWidget(this);
    m_resultHeading = headingLabel(page);
    m_resultHeading->setObjectName(u"resultHeadingLabel"_s);
    m_url = new QLabel(page);
    m_url->setObjectName(u"urlLabel"_s);
    m_url->setAccessibleName(tr("Address"));
    m_url->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    auto *copy = new QPushButton(Icons::icon(u"copy"_s), tr("&Copy Address"), page);
    copy->setObjectName(u"copyUrlButton"_s);
    auto *open = new QPushButton(Icons::icon(u"open"_s), tr("&Open in Browser"), page);
    open->setObjectName(u"openUrlButton"_s);
    connect(copy, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_url->text()); });
    connect(open, &QPushButton::clicked, this, [this] { m_context.prompter.openUrl(QUrl(m_url->text())); });

    m_shareRow = new QWidget(page);
    m_shareUrl = new QLineEdit(m_shareRow);
    m_shareUrl->setObjectName(u"shareUrlLineEdit"_s);
    m_shareUrl->setAccessibleName(tr("Share link"));
    m_shareUrl->setReadOnly(true);
    auto *copyShare = new QPushButton(Icons::icon(u"link"_s), tr("Copy &Share Link"), m_shareRow);
    copyShare->setObjectName(u"copyShareLinkButton"_s);
    connect(
        copyShare, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_shareUrl->text()); });
    auto *shareLayout = new QVBoxLayout(m_shareRow);
    shareLayout->setContentsMargins(0, 0, 0, 0);
    shareLayout->addWidget(new QLabel(tr("The site is private. Visitors need this share link:"), m_shareRow));
    auto *shareUrlRow = new QHBoxLayout;
    shareUrlRow->addWidget(m_shareUrl, 1);
    shareUrlRow->addWidget(copyShare);
    shareLayout->addLayout(shareUrlRow);

    auto *header = new QGridLayout;
    header->addWidget(new IconLabel(Icons::icon(u"check"_s), kHeaderIconSize, page), 0, 0, 2, 1, Qt::AlignTop);
    header->addWidget(m_resultHeading, 0, 1);
    header->addWidget(m_url, 1, 1);
    header->setColumnStretch(1, 1);
    auto *actions = new QHBoxLayout;
    actions->addWidget(copy);
    actions->addWidget(open);
    actions->addStretch();
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(header);
    layout->addLayout(actions);
    layout->addWidget(m_shareRow);
    m_ruleWarnings = new QLabel(page);
    m_ruleWarnings->setObjectName(u"ruleWarningsLabel"_s);
    m_ruleWarnings->setWordWrap(true);
    m_ruleWarnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_ruleWarnings->hide();
    layout->addWidget(m_ruleWarnings);
    layout->addStretch();
    return page;
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
    const PackagedSite &site = result->value();
    QString summary = site.singleHtml
        ? tr("A single HTML page, %1")
              .arg(QLocale().formattedDataSize(site.totalBytes, 1, QLocale::DataSizeTraditionalFormat))
        : tr("%n file(s), %1", nullptr, site.fileCount)
              .arg(QLocale().formattedDataSize(site.totalBytes, 1, QLocale::DataSizeTraditionalFormat));
    if (site.skippedHidden > 0)
        summary += u" · "_s + tr("%n hidden item(s) skipped", nullptr, site.skippedHidden);
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
        if (m_private->isChecked()) {
            request.protect = true;
            if (!m_password->text().isEmpty())
                request.password = m_password->text();
        }
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
    const SiteAddresses &addresses = m_context.engine.addresses();
    m_context.settings.setSourcePath(m_published->id, m_packager.result()->value().sourcePath);
    m_resultHeading->setText(m_target ? tr("“%1” is updated").arg(m_published->slug) : tr("Your site is live"));
    m_url->setText(addresses.siteUrl(m_published->slug));
    m_shareRow->setVisible(m_published->isProtected);
    if (m_published->isProtected)
        m_shareUrl->setText(addresses.shareUrl(m_published->slug, m_published->shareToken));
    m_shareUrl->setCursorPosition(0);
    // The site is live; what the rules files say that Berth does not follow is worth a look all the same.
    m_ruleWarnings->setVisible(!m_published->warnings.isEmpty());
    if (!m_published->warnings.isEmpty())
        m_ruleWarnings->setText(
            tr("Some lines of _redirects or _headers were skipped:") + u"\n"_s + m_published->warnings.join(u'\n'));
    setStage(Stage::Done);
    Q_EMIT published(m_published->id);
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
    if (!issues.isEmpty())
        m_publishButton->setText(m_target ? tr("Replace &Anyway") : tr("Publish &Anyway"));
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
    const bool editable = (stage == Stage::Reading || stage == Stage::Ready) && !m_publishRequested;
    for (QWidget *field : {static_cast<QWidget *>(m_slug), static_cast<QWidget *>(m_title),
             static_cast<QWidget *>(m_spa), static_cast<QWidget *>(m_private)}) {
        if (field)
            field->setEnabled(editable);
    }
    if (m_password)
        m_password->setEnabled(editable && m_private->isChecked());
    if (stage == Stage::Done)
        m_pages->setCurrentIndex(1);
    updateButtons();
    Q_EMIT stageChanged(stage);
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
