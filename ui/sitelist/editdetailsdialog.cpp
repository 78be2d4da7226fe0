#include "ui/sitelist/editdetailsdialog.h"

#include "domain/deploy/deploymentservice.h"
#include "instance/engine.h"
#include "ui/sitelist/domainseditor.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/qrpanel.h"
#include "ui/widgets/theme.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

EditDetailsDialog::EditDetailsDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_deployment(deployment)
    , m_title(new QLineEdit(deployment.title, this))
    , m_description(new QPlainTextEdit(deployment.description, this))
    , m_favicon(new QLineEdit(deployment.favicon, this))
    , m_spa(new QCheckBox(tr("&Single-page app (unknown paths serve index.html)"), this))
    , m_domains(new DomainsEditor(context, deployment, this))
    , m_message(new QLabel(this))
{
    setObjectName(u"editDetailsDialog"_s);
    setWindowTitle(tr("Edit Details of %1").arg(deployment.slug));
    setMinimumWidth(640); // the form, and the QR code beside it

    m_title->setObjectName(u"titleLineEdit"_s);
    m_title->setAccessibleName(tr("Title"));
    m_title->setMaxLength(kMaxTitleLength);
    m_description->setObjectName(u"descriptionTextEdit"_s);
    m_description->setAccessibleName(tr("Description"));
    m_description->setTabChangesFocus(true);
    m_description->setFixedHeight(m_description->fontMetrics().lineSpacing() * 5);
    m_favicon->setObjectName(u"faviconLineEdit"_s);
    m_favicon->setAccessibleName(tr("Favicon emoji"));
    m_favicon->setMaxLength(kMaxFaviconLength);
    m_favicon->setPlaceholderText(tr("An emoji, e.g. ⚓"));
    m_spa->setObjectName(u"spaCheckBox"_s);
    m_spa->setChecked(deployment.isSpa);
    // A single HTML page has one path: there is nothing else for index.html to answer.
    const bool folder = deployment.storageType == u"files";
    m_spa->setEnabled(folder);
    auto *spaHint = new QLabel(tr("Only for a site published from a folder: this site is a single HTML page."), this);
    spaHint->setObjectName(u"spaHintLabel"_s);
    spaHint->setWordWrap(true);
    spaHint->setForegroundRole(QPalette::PlaceholderText);
    spaHint->setVisible(!folder);
    if (!folder)
        m_spa->setToolTip(spaHint->text());
    m_message->setObjectName(u"messageLabel"_s);
    m_message->setWordWrap(true);
    m_message->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_saveButton = buttons->addButton(QDialogButtonBox::Save);
    m_saveButton->setObjectName(u"saveButton"_s);
    connect(buttons, &QDialogButtonBox::accepted, this, &EditDetailsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &EditDetailsDialog::reject);
    connect(&m_watcher, &QFutureWatcherBase::finished, this, [this] { onSaved(m_watcher.future().result()); });

    auto *form = new QFormLayout;
    form->addRow(tr("&Title:"), m_title);
    form->addRow(tr("&Description:"), m_description);
    form->addRow(tr("&Favicon:"), m_favicon);
    form->addRow(QString(), m_spa);
    form->addRow(QString(), spaHint);
    // The site's address as a QR code beside the form: a phone on the same network opens it by scanning.
    auto *qrPanel = new QrPanel(this);
    qrPanel->showSite(context.engine, deployment);
    auto *top = new QHBoxLayout;
    top->addLayout(form, 1);
    top->addWidget(qrPanel, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_domains);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
}

void EditDetailsDialog::accept()
{
    const QString description = m_description->toPlainText().trimmed();
    if (description.size() > kMaxDescriptionLength) {
        Theme::showMessage(m_message,
            tr("The description can be at most %1 characters; it has %2.")
                .arg(kMaxDescriptionLength)
                .arg(description.size()),
            Theme::Tone::Error);
        return;
    }
    // Only what the user changed: an unchanged title sent back would become the owner's own and stop following
    // the document's <title>.
    DeployRequest request;
    const QString title = m_title->text().trimmed();
    if (title != m_deployment.title)
        request.title = title; // empty hands the title back to the document
    if (description != m_deployment.description)
        request.description = description.isEmpty() ? QString() : description; // empty means unset, as in the API
    const QString favicon = m_favicon->text().trimmed();
    if (favicon != m_deployment.favicon)
        request.favicon = favicon;
    if (m_spa->isEnabled() && m_spa->isChecked() != m_deployment.isSpa)
        request.isSpa = m_spa->isChecked();
    if (m_domains->changed())
        request.domains = m_domains->names(); // the whole list, as the API's PUT takes it
    if (!request.title && !request.description && !request.favicon && !request.isSpa && !request.domains) {
        QDialog::accept(); // nothing changed: nothing to send
        return;
    }
    m_savingDomains = request.domains.has_value();
    m_saveButton->setEnabled(false);
    m_watcher.setFuture(m_context.engine.deployments().update(m_context.owner, m_deployment.id, std::move(request)));
}

void EditDetailsDialog::onSaved(const Result<Deployment> &result)
{
    m_saveButton->setEnabled(true);
    if (!result) {
        // The names were checked as they were added; another site may have taken one since.
        const QString text
            = m_savingDomains ? DomainsEditor::describe(result.error()) : ErrorText::describe(result.error());
        Theme::showMessage(m_message, text, Theme::Tone::Error);
        return;
    }
    QDialog::accept();
}

} // namespace berth
