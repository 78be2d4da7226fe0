#include "ui/settings/acmesettingspage.h"

#include "domain/acme/acmemanager.h"
#include "instance/engine.h"
#include "ui/settings/appsettings.h"
#include "ui/settings/filerow.h"
#include "ui/widgets/certificatecolumns.h"
#include "ui/widgets/treelist.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QUrl>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
// Let's Encrypt's directories (docs/acme.md names them too). Staging issues untrusted certificates without the
// production server's rate limits: for trying a set-up out.
const QString kLetsEncrypt = u"https://acme-v02.api.letsencrypt.org/directory"_s;
const QString kLetsEncryptStaging = u"https://acme-staging-v02.api.letsencrypt.org/directory"_s;
const QString kAnotherServer = u"custom"_s; // the combo's data for a URL typed in
} // namespace

AcmeSettingsPage::AcmeSettingsPage(const DashboardContext &context, QWidget *parent)
    : QWidget(parent)
    , m_context(context)
    , m_authority(new QComboBox(this))
    , m_directory(new QLineEdit(this))
    , m_email(new QLineEdit(context.settings.acmeEmail(), this))
    , m_caFile(new QLineEdit(context.settings.acmeCaFile(), this))
    , m_allNames(new QCheckBox(tr("Also the API's &host and every site's own name"), this))
{
    setObjectName(u"acmeSettingsPage"_s);
    auto *intro = new QLabel(tr("Berth can obtain and renew the certificate of every custom domain itself, from an "
                                "ACME certificate authority such as Let's Encrypt. Each name's DNS must point at this "
                                "computer and the authority must reach Berth's plain-HTTP port as port 80; the "
                                "certificates are served on the HTTPS port. Applies the next time Berth starts."),
        this);
    intro->setObjectName(u"acmeIntroLabel"_s);
    intro->setWordWrap(true);

    m_authority->setObjectName(u"acmeAuthorityComboBox"_s);
    m_authority->setAccessibleName(tr("Certificate authority"));
    m_authority->addItem(tr("None: no certificates by ACME"), QString());
    m_authority->addItem(tr("Let's Encrypt"), kLetsEncrypt);
    m_authority->addItem(tr("Let's Encrypt staging, for trying out"), kLetsEncryptStaging);
    m_authority->addItem(tr("Another ACME server"), kAnotherServer);
    const QString saved = context.settings.acmeDirectory();
    const int known = m_authority->findData(saved);
    m_authority->setCurrentIndex(saved.isEmpty() ? 0 : known > 0 ? known : m_authority->findData(kAnotherServer));
    m_directory->setObjectName(u"acmeDirectoryLineEdit"_s);
    m_directory->setAccessibleName(tr("ACME directory URL"));
    m_directory->setPlaceholderText(u"https://ca.example.lan/acme/directory"_s);
    m_directory->setText(saved);
    m_email->setObjectName(u"acmeEmailLineEdit"_s);
    m_email->setAccessibleName(tr("Contact e-mail"));
    m_email->setPlaceholderText(tr("The authority writes here about certificates about to expire"));
    m_caFile->setObjectName(u"acmeCaLineEdit"_s);
    m_caFile->setAccessibleName(tr("Private CA file"));
    m_caFile->setPlaceholderText(tr("None: the system's CAs"));
    m_caFile->setToolTip(tr("A PEM CA to trust for the ACME server's own HTTPS, for a private ACME server on the LAN "
                            "such as step-ca"));
    m_allNames->setObjectName(u"acmeAllNamesCheckBox"_s);
    m_allNames->setChecked(context.settings.acmeAllNames());
    m_allNames->setToolTip(tr("Custom domains always get certificates; this adds the API's address and "
                              "<slug>.<site domain> of every site, when the site domain is a name without a port"));
    connect(m_authority, &QComboBox::currentIndexChanged, this, &AcmeSettingsPage::authorityChosen);

    auto *form = new QFormLayout;
    form->addRow(tr("Certificate a&uthority:"), m_authority);
    form->addRow(tr("Director&y URL:"), m_directory);
    form->addRow(tr("Contact e-&mail:"), m_email);
    form->addRow(FileRow::label(tr("&Private CA file:"), m_caFile, this),
        FileRow::pem(this, context.prompter, m_caFile, u"acmeCaBrowseButton"_s, tr("Private CA (PEM)")));
    form->addRow(m_allNames);

    auto *names = new QGroupBox(tr("Names and their certificates"), this);
    names->setObjectName(u"acmeNamesGroupBox"_s);
    auto *namesLayout = new QVBoxLayout(names);
    if (AcmeManager *acme = context.engine.acme()) {
        QStringList headers {tr("Name")};
        headers += CertificateColumns::headers();
        m_names = TreeList::make(names, u"acmeNamesTreeWidget"_s, tr("Names and their certificates"), headers, 3);
        namesLayout->addWidget(m_names);
        connect(acme, &AcmeManager::statusChanged, this, &AcmeSettingsPage::showNames);
        connect(&m_refresh, &QTimer::timeout, this, &AcmeSettingsPage::showNames);
        m_refresh.start(kRefreshMs);
        showNames();
    } else {
        auto *off = new QLabel(tr("Berth obtains no certificates in this run. Once it starts with an authority chosen "
                                  "above, each name it handles is listed here with its certificate."),
            names);
        off->setObjectName(u"acmeOffLabel"_s);
        off->setWordWrap(true);
        namesLayout->addWidget(off);
    }

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(names, 1);
    authorityChosen();
}

bool AcmeSettingsPage::isOff() const
{
    return m_authority->currentData().toString().isEmpty();
}

QString AcmeSettingsPage::directory() const
{
    const QString chosen = m_authority->currentData().toString();
    return chosen == kAnotherServer ? m_directory->text().trimmed() : chosen;
}

void AcmeSettingsPage::authorityChosen()
{
    const bool another = m_authority->currentData().toString() == kAnotherServer;
    if (!another)
        m_directory->setText(m_authority->currentData().toString());
    m_directory->setReadOnly(!another);
    for (QWidget *field : {static_cast<QWidget *>(m_directory), static_cast<QWidget *>(m_email),
             static_cast<QWidget *>(m_caFile), static_cast<QWidget *>(m_allNames)})
        field->setEnabled(!isOff());
}

QString AcmeSettingsPage::problem(QWidget **field) const
{
    if (isOff())
        return QString();
    const QUrl url(directory());
    if (!url.isValid() || (url.scheme() != u"https"_s && url.scheme() != u"http"_s) || url.host().isEmpty()) {
        *field = m_directory;
        return tr("“%1” is not an ACME directory URL such as %2.").arg(directory(), kLetsEncrypt);
    }
    if (!m_email->text().contains(u'@')) {
        *field = m_email;
        return tr("Certificates by ACME need a contact e-mail address.");
    }
    const QFileInfo ca(m_caFile->text().trimmed());
    if (!m_caFile->text().trimmed().isEmpty() && (!ca.isFile() || !ca.isReadable())) {
        *field = m_caFile;
        return tr("“%1” is not a file Berth can read.").arg(m_caFile->text().trimmed());
    }
    return QString();
}

void AcmeSettingsPage::save(AppSettings &settings) const
{
    settings.setAcmeDirectory(isOff() ? QString() : directory());
    settings.setAcmeEmail(m_email->text());
    settings.setAcmeCaFile(m_caFile->text());
    settings.setAcmeAllNames(m_allNames->isChecked());
}

void AcmeSettingsPage::showNames()
{
    const AcmeManager *acme = m_context.engine.acme();
    if (!m_names || !acme)
        return;
    TreeList::sync(
        m_names, acme->names(), [](const QString &name) { return name; },
        [acme](QTreeWidgetItem *item, const QString &name) {
            item->setText(0, name);
            CertificateColumns::show(item, 1, acme->status(name));
        });
}

} // namespace berth
