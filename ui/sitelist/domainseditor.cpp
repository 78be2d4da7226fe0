#include "ui/sitelist/domainseditor.h"

#include "domain/acme/acmemanager.h"
#include "domain/deploy/customdomainservice.h"
#include "domain/deploy/deploymentlimits.h"
#include "instance/engine.h"
#include "ui/widgets/certificatecolumns.h"
#include "ui/widgets/errortext.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/theme.h"
#include "ui/widgets/treelist.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kRowsShown = 4; // the list's height: a few names, more scroll
} // namespace

DomainsEditor::DomainsEditor(const DashboardContext &context, const Deployment &deployment, QWidget *parent)
    : QGroupBox(tr("Custom domains"), parent)
    , m_context(context)
    , m_deploymentId(deployment.id)
    , m_saved(context.engine.customDomains().namesOf(deployment.id))
    , m_names(m_saved)
    , m_message(new QLabel(this))
{
    setObjectName(u"domainsGroupBox"_s);
    AcmeManager *acme = context.engine.acme();
    QStringList headers {tr("Domain")};
    if (acme)
        headers += CertificateColumns::headers();
    // The last error elides when the names are long; the domain itself is shown whole.
    m_list = TreeList::make(this, u"domainsTreeWidget"_s, tr("Custom domains"), headers, acme ? 3 : 0);
    const int rowHeight = m_list->fontMetrics().lineSpacing() + 6;
    m_list->setFixedHeight(m_list->header()->sizeHint().height() + kRowsShown * rowHeight + 2 * m_list->frameWidth());
    m_message->setObjectName(u"domainMessageLabel"_s);
    m_message->setWordWrap(true);
    m_message->hide();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list);
    if (mayAdd()) {
        m_name = new QLineEdit(this);
        m_name->setObjectName(u"domainLineEdit"_s);
        m_name->setAccessibleName(tr("New domain"));
        m_name->setPlaceholderText(tr("A name whose DNS points here, e.g. docs.example.org"));
        m_name->installEventFilter(this); // Enter adds the name rather than saving the dialog
        m_add = new QPushButton(Icons::icon(u"add"_s), tr("&Add"), this);
        m_add->setObjectName(u"addDomainButton"_s);
        m_add->setAutoDefault(false);
        m_remove = new QPushButton(Icons::icon(u"delete"_s), tr("Re&move"), this);
        m_remove->setObjectName(u"removeDomainButton"_s);
        m_remove->setAutoDefault(false);
        connect(m_add, &QPushButton::clicked, this, &DomainsEditor::add);
        connect(m_remove, &QPushButton::clicked, this, &DomainsEditor::removeCurrent);
        connect(m_name, &QLineEdit::textChanged, this, &DomainsEditor::updateControls);
        connect(m_list, &QTreeWidget::currentItemChanged, this, &DomainsEditor::updateControls);
        auto *row = new QHBoxLayout;
        row->addWidget(m_name, 1);
        row->addWidget(m_add);
        row->addWidget(m_remove);
        layout->addLayout(row);
    } else {
        // Said instead of offering a field whose every name would be refused.
        auto *policy = new QLabel(tr("Only the instance's owner gives sites custom domains here. The owner can let "
                                     "everyone add them with “berthd domains policy everyone”."),
            this);
        policy->setObjectName(u"domainPolicyLabel"_s);
        policy->setWordWrap(true);
        layout->addWidget(policy);
    }
    layout->addWidget(m_message);
    if (acme) {
        connect(acme, &AcmeManager::statusChanged, this, [this](const QString &name) {
            if (m_names.contains(name))
                showNames();
        });
    }
    showNames();
}

bool DomainsEditor::mayAdd() const
{
    return m_context.owner.isOwner || m_context.engine.customDomains().policy().who() == DomainPolicy::Who::Everyone;
}

QString DomainsEditor::describe(const Error &error, const QString &name)
{
    switch (error.kind) {
    case Error::Kind::Conflict: // the only conflict of a list of names: another site holds one
        return name.isEmpty() ? tr("A domain is already in use by another site.")
                              : tr("“%1”: domain already in use by another site.").arg(name);
    case Error::Kind::Forbidden:
        return tr("Only the instance's owner may give sites custom domains.");
    default:
        return ErrorText::describe(error); // the engine's text names the rule a name breaks
    }
}

bool DomainsEditor::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_name && event->type() == QEvent::KeyPress && !m_name->text().trimmed().isEmpty()) {
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key == Qt::Key_Return || key == Qt::Key_Enter) {
            add();
            return true;
        }
    }
    return QGroupBox::eventFilter(watched, event);
}

void DomainsEditor::add()
{
    const QString typed = m_name->text().trimmed();
    if (typed.isEmpty() || m_names.size() >= kMaxDomainsPerSite)
        return;
    // The engine's own check of the whole list, as the save will make it: a refused name changes nothing.
    const Result<QStringList> checked
        = m_context.engine.customDomains().check(m_context.owner, m_deploymentId, m_names + QStringList {typed});
    if (!checked) {
        Theme::showMessage(m_message, describe(checked.error(), typed), Theme::Tone::Error);
        m_name->setFocus();
        return;
    }
    QString added;
    for (const QString &name : checked.value()) {
        if (!m_names.contains(name))
            added = name;
    }
    if (added.isEmpty()) {
        Theme::showMessage(m_message, tr("“%1” is already one of this site's domains.").arg(typed), Theme::Tone::Error);
        return;
    }
    m_names = checked.value();
    m_name->clear();
    Theme::showMessage(m_message, tr("“%1” is added when you save.").arg(added), Theme::Tone::Normal);
    showNames(); // which says so instead when the list is full now
    for (int i = 0; i < m_list->topLevelItemCount(); ++i) {
        if (m_list->topLevelItem(i)->text(0) == added)
            m_list->setCurrentItem(m_list->topLevelItem(i));
    }
}

void DomainsEditor::removeCurrent()
{
    const QString name = TreeList::currentId(m_list);
    if (name.isEmpty())
        return;
    m_names.removeAll(name);
    Theme::showMessage(m_message, tr("“%1” is removed when you save.").arg(name), Theme::Tone::Normal);
    showNames();
}

void DomainsEditor::showNames()
{
    AcmeManager *acme = m_context.engine.acme();
    TreeList::sync(
        m_list, m_names, [](const QString &name) { return name; },
        [acme](QTreeWidgetItem *item, const QString &name) {
            item->setText(0, name);
            if (acme)
                CertificateColumns::show(item, 1, acme->status(name));
        });
    updateControls();
}

void DomainsEditor::updateControls()
{
    if (!m_name)
        return;
    const bool full = m_names.size() >= kMaxDomainsPerSite;
    m_name->setEnabled(!full);
    m_add->setEnabled(!full && !m_name->text().trimmed().isEmpty());
    m_remove->setEnabled(m_list->currentItem() != nullptr);
    if (full)
        Theme::showMessage(m_message,
            tr("A site can have at most %1 domains: remove one to add another.").arg(kMaxDomainsPerSite),
            Theme::Tone::Normal);
}

} // namespace berth
