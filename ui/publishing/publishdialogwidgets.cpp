// PublishDialog's widgets: the form (folder, slug, details, access) and the result page, built once.
#include "domain/deploy/slugrules.h"
#include "domain/siterules/siteaddresses.h"
#include "instance/engine.h"
#include "ui/publishing/publishdialog.h"
#include "ui/publishing/slugedit.h"
#include "ui/widgets/iconlabel.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/qrpanel.h"

#include <QCheckBox>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
// A URL inside a sentence: never broken at its hyphens.
QString unbroken(const QString &url)
{
    return u"<span style=\"white-space: nowrap\">"_s + url.toHtmlEscaped() + u"</span>"_s;
}

constexpr int kHeaderIconSize = 40;

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
    m_publishButton = m_buttons->addButton(publishText(), QDialogButtonBox::AcceptRole);
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
        m_prepareOnly = new QCheckBox(tr("Prepare &without publishing: keep the live site as it is"), page);
        m_prepareOnly->setObjectName(u"prepareOnlyCheckBox"_s);
        m_prepareOnly->setToolTip(tr("The files become a new version in the site's History, where you make it live"));
        connect(m_prepareOnly, &QCheckBox::toggled, this, [this] { m_publishButton->setText(publishText()); });
        layout->addWidget(m_prepareOnly);
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
        m_password->setPlaceholderText(tr("Optional: visitors may type it instead of using the share link"));
        m_passwordHint = new QLabel(tr("A password makes the site private: visitors come in with its share link or "
                                       "with the password."),
            page);
        m_passwordHint->setObjectName(u"passwordHintLabel"_s);
        m_passwordHint->setWordWrap(true);
        m_passwordHint->hide();
        connect(m_password, &QLineEdit::textChanged, this, &PublishDialog::updateAccess);

        auto *form = new QFormLayout;
        form->addRow(tr("&Slug:"), m_slug);
        form->addRow(tr("&Title:"), m_title);
        form->addRow(QString(), m_spa);
        form->addRow(QString(), m_private);
        form->addRow(tr("Pass&word:"), m_password);
        form->addRow(QString(), m_passwordHint);
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
    m_resultNote = new QLabel(page);
    m_resultNote->setObjectName(u"resultNoteLabel"_s);
    m_resultNote->setWordWrap(true);
    m_resultNote->hide();
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

    m_shareRow = buildShareRow(page);
    auto *header = new QGridLayout;
    header->addWidget(new IconLabel(Icons::icon(u"check"_s), kHeaderIconSize, page), 0, 0, 2, 1, Qt::AlignTop);
    header->addWidget(m_resultHeading, 0, 1);
    header->addWidget(m_url, 1, 1);
    header->setColumnStretch(1, 1);
    auto *actions = new QHBoxLayout;
    actions->addWidget(copy);
    actions->addWidget(open);
    actions->addStretch();
    m_ruleWarnings = new QLabel(page);
    m_ruleWarnings->setObjectName(u"ruleWarningsLabel"_s);
    m_ruleWarnings->setWordWrap(true);
    m_ruleWarnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_ruleWarnings->hide();
    auto *answer = new QVBoxLayout;
    answer->addLayout(header);
    answer->addWidget(m_resultNote);
    answer->addLayout(actions);
    answer->addStretch();
    // Beside the answer, the address (a private site's share link) for a phone to scan; the share link below both,
    // with the whole width.
    m_qrPanel = new QrPanel(page);
    auto *top = new QHBoxLayout;
    top->addLayout(answer, 1);
    top->addWidget(m_qrPanel, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_shareRow);
    layout->addWidget(m_ruleWarnings);
    layout->addStretch();
    return page;
}

QWidget *PublishDialog::buildShareRow(QWidget *page)
{
    auto *row = new QWidget(page);
    m_shareUrl = new QLineEdit(row);
    m_shareUrl->setObjectName(u"shareUrlLineEdit"_s);
    m_shareUrl->setAccessibleName(tr("Share link"));
    m_shareUrl->setReadOnly(true);
    auto *copyShare = new QPushButton(Icons::icon(u"link"_s), tr("Copy &Share Link"), row);
    copyShare->setObjectName(u"copyShareLinkButton"_s);
    connect(
        copyShare, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(m_shareUrl->text()); });
    auto *shareLayout = new QVBoxLayout(row);
    shareLayout->setContentsMargins(0, 0, 0, 0);
    shareLayout->addWidget(new QLabel(tr("The site is private. Visitors need this share link:"), row));
    auto *shareUrlRow = new QHBoxLayout;
    shareUrlRow->addWidget(m_shareUrl, 1);
    shareUrlRow->addWidget(copyShare);
    shareLayout->addLayout(shareUrlRow);
    return row;
}

} // namespace berth
