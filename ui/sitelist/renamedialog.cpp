#include "ui/sitelist/renamedialog.h"

#include "domain/deploy/deploymentservice.h"
#include "domain/siterules/siteaddresses.h"
#include "instance/engine.h"
#include "ui/publishing/slugedit.h"
#include "ui/widgets/errortext.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

RenameDialog::RenameDialog(const DashboardContext &context, const Deployment &deployment, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_deployment(deployment)
    , m_slug(new SlugEdit(context.engine.sites(), context.engine.addresses(), this))
{
    setObjectName(u"renameDialog"_s);
    setWindowTitle(tr("Rename Site"));
    setMinimumWidth(460);

    // The old address in one piece: it is a URL, not words to break at its hyphens.
    const QString oldUrl = context.engine.addresses().siteUrl(deployment.slug).toHtmlEscaped();
    auto *intro = new QLabel(tr("The site moves to its new address at once; %1 stops working.")
                                 .arg(u"<span style=\"white-space: nowrap\">"_s + oldUrl + u"</span>"_s),
        this);
    intro->setTextFormat(Qt::RichText);
    intro->setWordWrap(true);
    m_slug->setOwnSlug(deployment.slug);
    m_slug->setSlug(deployment.slug);
    m_slug->lineEdit()->selectAll();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_renameButton = buttons->addButton(tr("&Rename"), QDialogButtonBox::AcceptRole);
    m_renameButton->setObjectName(u"renameButton"_s);
    m_renameButton->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &RenameDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &RenameDialog::reject);
    const auto update
        = [this] { m_renameButton->setEnabled(m_slug->isValid() && m_slug->slug() != m_deployment.slug); };
    connect(m_slug, &SlugEdit::validityChanged, this, update);
    connect(m_slug->lineEdit(), &QLineEdit::textChanged, this, update);
    update();

    auto *form = new QFormLayout;
    form->addRow(tr("New &slug:"), m_slug);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addStretch();
    layout->addWidget(buttons);
}

void RenameDialog::accept()
{
    if (!m_renameButton->isEnabled())
        return;
    const auto result = m_context.engine.deployments().rename(m_context.owner, m_deployment.id, m_slug->slug());
    if (!result) {
        if (result.error().code == Error::Code::SlugTaken)
            m_slug->showProblem(tr("“%1” is already taken by another site. Choose another slug.").arg(m_slug->slug()));
        else
            m_slug->showProblem(ErrorText::describe(result.error()));
        return;
    }
    QDialog::accept();
}

} // namespace berth
