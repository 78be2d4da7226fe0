#include "ui/settings/settingsdialog.h"

#include "domain/deploy/deploymentlimits.h"
#include "domain/deploy/versionhistory.h"
#include "domain/plans/plansettings.h"
#include "domain/plans/plantable.h"
#include "instance/engine.h"
#include "lan/lanservice.h"
#include "ui/accounts/plantext.h"
#include "ui/settings/acmesettingspage.h"
#include "ui/settings/appsettings.h"
#include "ui/settings/filerow.h"
#include "ui/widgets/appearance.h"
#include "ui/widgets/icons.h"
#include "ui/widgets/prompter.h"
#include "ui/widgets/theme.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>
#include <limits>

using namespace Qt::StringLiterals;

namespace berth {

SettingsDialog::SettingsDialog(const DashboardContext &context, QWidget *parent, Scope scope)
    : QDialog(parent)
    , m_context(context)
    , m_scope(scope)
    , m_listen(new QLineEdit(context.settings.listen(), this))
    , m_siteDomain(new QLineEdit(context.settings.siteDomain(), this))
    , m_dataDir(new QLineEdit(context.settings.dataDir(), this))
    , m_threads(new QSpinBox(this))
    , m_lanSharing(new QCheckBox(tr("Share on the local &network"), this))
    , m_tlsCert(new QLineEdit(context.settings.tlsCertFile(), this))
    , m_tlsKey(new QLineEdit(context.settings.tlsKeyFile(), this))
    , m_httpsPort(new QSpinBox(this))
    , m_accessLog(new QCheckBox(tr("&Write an access log"), this))
    , m_accessLogFile(new QLineEdit(context.settings.accessLogFile(), this))
    , m_tray(new QCheckBox(tr("&Keep serving from the system tray when the window is closed"), this))
    , m_acme(new AcmeSettingsPage(context, this))
    , m_tabs(new QTabWidget(this))
    , m_message(new QLabel(this))
{
    setObjectName(u"settingsDialog"_s);
    setWindowTitle(tr("Settings"));

    m_listen->setObjectName(u"listenLineEdit"_s);
    m_listen->setAccessibleName(tr("Listen address and port"));
    m_listen->setPlaceholderText(u"127.0.0.1:8080"_s);
    m_siteDomain->setObjectName(u"siteDomainLineEdit"_s);
    m_siteDomain->setAccessibleName(tr("Site domain"));
    m_siteDomain->setPlaceholderText(tr("localhost:PORT"));
    m_dataDir->setObjectName(u"dataDirLineEdit"_s);
    m_dataDir->setAccessibleName(tr("Data folder"));
    m_dataDir->setPlaceholderText(context.engine.dataDir());
    auto *browse = new QPushButton(tr("&Browse…"), this);
    browse->setObjectName(u"browseButton"_s);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = m_context.prompter.existingDirectory(this, tr("Data Folder"), m_dataDir->text());
        if (!dir.isEmpty())
            m_dataDir->setText(dir);
    });
    m_threads->setObjectName(u"servingThreadsSpinBox"_s);
    m_threads->setAccessibleName(tr("Serving threads"));
    m_threads->setRange(0, AppSettings::kMaxServingThreads);
    m_threads->setSpecialValueText(tr("One per core (%1)").arg(QThread::idealThreadCount()));
    m_threads->setValue(context.settings.servingThreads());
    m_threads->setToolTip(tr("Threads that answer visitors and the API; more serve more visitors at once"));
    m_lanSharing->setObjectName(u"lanSharingSettingsCheckBox"_s);
    m_lanSharing->setChecked(context.settings.lanSharing());
    m_lanSharing->setToolTip(tr("Also listen on this computer's LAN addresses, announce every site as <slug>.local "
                                "and give each site a port of its own. Applies at once."));
    m_tlsCert->setObjectName(u"tlsCertLineEdit"_s);
    m_tlsCert->setAccessibleName(tr("HTTPS certificate file"));
    m_tlsCert->setPlaceholderText(tr("None: plain HTTP only"));
    m_tlsCert->setToolTip(tr("PEM file with the server certificate first, then any intermediate certificates"));
    m_tlsKey->setObjectName(u"tlsKeyLineEdit"_s);
    m_tlsKey->setAccessibleName(tr("HTTPS private key file"));
    m_tlsKey->setPlaceholderText(tr("None: plain HTTP only"));
    m_tlsKey->setToolTip(tr("PEM file with the certificate's private key, not protected by a passphrase"));
    m_httpsPort->setObjectName(u"httpsPortSpinBox"_s);
    m_httpsPort->setAccessibleName(tr("HTTPS port"));
    m_httpsPort->setRange(0, 65535);
    m_httpsPort->setSpecialValueText(tr("Any free port"));
    m_httpsPort->setValue(context.settings.httpsPort());
    m_accessLog->setObjectName(u"accessLogCheckBox"_s);
    m_accessLog->setChecked(context.settings.accessLogEnabled());
    m_accessLog->setToolTip(tr("One line per request in Apache's vhost_combined format, which log analysers such "
                               "as GoAccess read; a new file each day, 14 days kept"));
    m_accessLogFile->setObjectName(u"accessLogFileLineEdit"_s);
    m_accessLogFile->setAccessibleName(tr("Access log file"));
    m_accessLogFile->setPlaceholderText(tr("logs/access.log in the data folder"));
    m_accessLogFile->setEnabled(m_accessLog->isChecked());
    connect(m_accessLog, &QCheckBox::toggled, m_accessLogFile, &QWidget::setEnabled);
    m_tray->setObjectName(u"trayCheckBox"_s);
    m_tray->setChecked(context.settings.keepServingInTray());
    m_tray->setEnabled(QSystemTrayIcon::isSystemTrayAvailable());
    m_message->setObjectName(u"messageLabel"_s);
    m_message->setWordWrap(true);
    m_message->setText(tr("Server settings apply the next time Berth starts. The command-line options --listen, "
                          "--site-domain and --data-dir override them for one run."));

    auto *dataRow = new QHBoxLayout;
    dataRow->addWidget(m_dataDir, 1);
    dataRow->addWidget(browse);
    auto *server = new QWidget(this);
    server->setObjectName(u"serverSettingsPage"_s);
    auto *form = new QFormLayout(server);
    form->addRow(tr("&Listen on:"), m_listen);
    form->addRow(tr("Site &domain:"), m_siteDomain);
    form->addRow(FileRow::label(tr("Data &folder:"), m_dataDir, server), dataRow);
    form->addRow(tr("Serving &threads:"), m_threads);
    form->addRow(m_lanSharing);
    form->addRow(FileRow::label(tr("HTTPS ce&rtificate:"), m_tlsCert, server),
        FileRow::pem(this, context.prompter, m_tlsCert, u"tlsCertBrowseButton"_s, tr("HTTPS Certificate (PEM)")));
    form->addRow(FileRow::label(tr("HTTPS private &key:"), m_tlsKey, server),
        FileRow::pem(this, context.prompter, m_tlsKey, u"tlsKeyBrowseButton"_s, tr("HTTPS Private Key (PEM)")));
    form->addRow(tr("HTTPS p&ort:"), m_httpsPort);
    form->addRow(m_accessLog);
    form->addRow(tr("Access log fil&e:"), m_accessLogFile);

    // What the command line set wins for this run: say so, or the fields would seem to be in effect.
    const AppSettings::Overrides &overrides = context.settings.overrides();
    QStringList given;
    const auto note = [&given](const char *option, const std::optional<QString> &value) {
        if (value)
            given.append(u"--%1 %2"_s.arg(QLatin1String(option), *value));
    };
    note("listen", overrides.listen);
    note("site-domain", overrides.siteDomain);
    note("data-dir", overrides.dataDir);
    note("base-url", overrides.baseUrl);
    auto *overridden = new QLabel(server);
    overridden->setObjectName(u"overridesLabel"_s);
    overridden->setWordWrap(true);
    overridden->setTextInteractionFlags(Qt::TextSelectableByMouse);
    overridden->setText(tr("In effect for this run, from the command line: %1. The values here apply when Berth "
                           "starts without these options.")
                            .arg(given.join(u", "_s)));
    overridden->setVisible(!given.isEmpty());
    form->addRow(overridden);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Save)->setObjectName(u"saveButton"_s);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);

    // Tabs: on one page with certificates by ACME, the settings would be taller than a laptop's screen.
    auto *general = new QWidget(this);
    general->setObjectName(u"generalSettingsPage"_s);
    auto *layout = new QVBoxLayout(general);
    layout->addWidget(m_tray);
    if (m_scope == Scope::All) {
        m_appearance = new QComboBox(this);
        m_appearance->setObjectName(u"appearanceComboBox"_s);
        m_appearance->setAccessibleName(tr("Appearance"));
        for (const auto mode : {Appearance::Mode::System, Appearance::Mode::Light, Appearance::Mode::Dark})
            m_appearance->addItem(Appearance::label(mode), Appearance::name(mode));
        m_appearance->setCurrentIndex(
            std::max(0, m_appearance->findData(Appearance::name(Appearance::fromName(context.settings.appearance())))));
        auto *look = new QFormLayout;
        look->addRow(tr("&Appearance:"), m_appearance);
        m_versionsKept = new QSpinBox(this);
        m_versionsKept->setObjectName(u"versionsKeptSpinBox"_s);
        m_versionsKept->setRange(1, 1000);
        m_versionsKept->setValue(context.engine.history().versionsKept());
        m_versionsKept->setToolTip(tr("Older versions go, with the files only they used, at a site's next publish"));
        look->addRow(tr("&Versions kept per site:"), m_versionsKept);
        layout->addLayout(look);
        layout->addWidget(planLimits());
    }
    layout->addStretch(1);
    m_tabs->setObjectName(u"settingsTabWidget"_s);
    // No minimum of the dialog's own: it would replace its layout's, every tab's content, which a screen's 2/3 may
    // then cut (the German plan limits at twice the scale).
    m_tabs->addTab(server, tr("&Server"));
    m_tabs->addTab(general, tr("&General"));
    m_tabs->addTab(m_acme, tr("&Certificates"));
    auto *outer = new QVBoxLayout(this);
    outer->addWidget(m_tabs);
    outer->addWidget(m_message);
    outer->addWidget(buttons);
}

QString SettingsDialog::tlsProblem() const
{
    const QString cert = m_tlsCert->text().trimmed();
    const QString key = m_tlsKey->text().trimmed();
    if (cert.isEmpty() && key.isEmpty())
        return QString();
    if (cert.isEmpty() || key.isEmpty())
        return tr("HTTPS needs both a certificate file and a private key file; leave both empty for plain HTTP.");
    for (const QString &file : {cert, key}) {
        const QFileInfo info(file);
        if (!info.isFile() || !info.isReadable())
            return tr("“%1” is not a file Berth can read.").arg(file);
    }
    return QString();
}

namespace {
constexpr int kLimitFields = 4;

int field(const PlanLimits &limits, int index)
{
    const int values[kLimitFields]
        = {limits.deployments, limits.submissionsPerDay, limits.submissionsStored, limits.countersPerDeployment};
    return values[index];
}
} // namespace

QWidget *SettingsDialog::planLimits()
{
    auto *box = new QGroupBox(tr("Plan limits"), this);
    box->setObjectName(u"planLimitsGroupBox"_s);
    auto *table = new QTableWidget(int(PlanTable::plans().size()), kLimitFields, box);
    table->setObjectName(u"planLimitsTableWidget"_s);
    table->setAccessibleName(tr("Plan limits"));
    const QStringList fields {
        tr("Deployments"), tr("Submissions a day"), tr("Submissions kept"), tr("Counters a site")};
    const QStringList fieldNames {u"Deployments"_s, u"SubmissionsPerDay"_s, u"SubmissionsStored"_s, u"Counters"_s};
    table->setHorizontalHeaderLabels(fields);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->setFocusPolicy(Qt::NoFocus); // the spin boxes take focus, one after another
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    int row = 0;
    for (const QString &plan : PlanTable::plans()) {
        const QString planName = PlanText::name(plan);
        table->setVerticalHeaderItem(row, new QTableWidgetItem(planName));
        for (int column = 0; column < kLimitFields; ++column) {
            auto *spin = new QSpinBox(table);
            spin->setObjectName(plan + fieldNames.at(column) + u"SpinBox"_s);
            spin->setAccessibleName(tr("%1: %2").arg(planName, fields.at(column)));
            spin->setRange(0, std::numeric_limits<int>::max());
            spin->setGroupSeparatorShown(true);
            spin->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            spin->setFrame(false);
            spin->setButtonSymbols(QAbstractSpinBox::NoButtons);
            table->setCellWidget(row, column, spin);
            m_limits.append(spin);
        }
        ++row;
    }
    for (int i = 1; i < m_limits.size(); ++i)
        setTabOrder(m_limits.at(i - 1), m_limits.at(i));
    showLimits(m_context.engine.plans());
    table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The columns share the width evenly: each as wide as the longest heading needs (German's are long).
    int widestHeading = 0;
    for (int column = 0; column < kLimitFields; ++column)
        widestHeading = qMax(widestHeading, table->horizontalHeader()->sectionSizeHint(column));
    table->setMinimumWidth(
        kLimitFields * widestHeading + table->verticalHeader()->sizeHint().width() + 2 * table->frameWidth());
    table->setFixedHeight(
        table->horizontalHeader()->sizeHint().height() + table->verticalHeader()->length() + 2 * table->frameWidth());
    auto *defaults = new QPushButton(Icons::icon(u"reset"_s), tr("Restore &Defaults"), box);
    defaults->setObjectName(u"defaultLimitsButton"_s);
    defaults->setToolTip(tr("Puts back the limits Berth ships with; they apply when you save"));
    connect(defaults, &QPushButton::clicked, this, [this] { showLimits(PlanTable()); });
    const auto size
        = [](qint64 bytes) { return QLocale().formattedDataSize(bytes, 0, QLocale::DataSizeTraditionalFormat); };
    auto *note
        = new QLabel(tr("Type over a number to change it. New limits apply as soon as you save, to everyone on "
                        "the plan; sites and submissions already above a lowered limit stay. The instance owner "
                        "is on Pro. Sizes: a single HTML page up to %1, each file up to %2, a whole site up to %3.")
                         .arg(size(kMaxHtmlBytes), size(kMaxFileBytes), size(kMaxTotalBytes)),
            box);
    note->setObjectName(u"planLimitsNoteLabel"_s);
    note->setWordWrap(true);
    auto *noteRow = new QHBoxLayout;
    noteRow->addWidget(note, 1);
    noteRow->addWidget(defaults, 0, Qt::AlignTop);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(table);
    layout->addLayout(noteRow);
    return box;
}

void SettingsDialog::showLimits(const PlanTable &table)
{
    const QStringList plans = PlanTable::plans();
    for (int plan = 0; plan < plans.size(); ++plan) {
        const PlanLimits limits = table.limits(plans.at(plan));
        for (int column = 0; column < kLimitFields; ++column)
            m_limits.at(plan * kLimitFields + column)->setValue(field(limits, column));
    }
}

PlanLimits SettingsDialog::editedLimits(int plan) const
{
    const auto value = [&](int column) { return m_limits.at(plan * kLimitFields + column)->value(); };
    return PlanLimits {value(0), value(1), value(2), value(3)};
}

void SettingsDialog::refuse(QWidget *field, const QString &why)
{
    m_message->setText(why);
    Theme::setTone(m_message, Theme::Tone::Error);
    for (int tab = 0; tab < m_tabs->count(); ++tab) {
        if (m_tabs->widget(tab)->isAncestorOf(field))
            m_tabs->setCurrentIndex(tab);
    }
    field->setFocus();
}

void SettingsDialog::accept()
{
    QHostAddress address;
    quint16 port = 0;
    if (!AppSettings::parseListen(m_listen->text(), &address, &port))
        return refuse(m_listen, tr("“%1” is not an address and port such as 127.0.0.1:8080.").arg(m_listen->text()));
    if (const QString problem = tlsProblem(); !problem.isEmpty())
        return refuse(m_tlsCert->text().trimmed().isEmpty() ? m_tlsCert : m_tlsKey, problem);
    QWidget *acmeField = nullptr;
    if (const QString problem = m_acme->problem(&acmeField); !problem.isEmpty())
        return refuse(acmeField, problem);
    // Plan limits first: they are the part that can still be refused.
    const QStringList plans = PlanTable::plans();
    m_planLimitsChanged = false;
    for (int plan = 0; m_scope == Scope::All && plan < plans.size(); ++plan) {
        const PlanLimits limits = editedLimits(plan);
        if (limits == m_context.engine.plans().limits(plans.at(plan)))
            continue;
        const auto result = m_context.engine.planSettings().setLimits(plans.at(plan), limits);
        if (!result) {
            m_message->setText(tr("The limits of %1 could not be saved: %2")
                                   .arg(PlanText::name(plans.at(plan)), result.error().message));
            Theme::setTone(m_message, Theme::Tone::Error);
            return;
        }
        m_planLimitsChanged = true;
    }
    if (m_versionsKept && m_versionsKept->value() != m_context.engine.history().versionsKept()
        && !m_context.engine.setVersionsKept(m_versionsKept->value())) {
        m_message->setText(tr("The number of versions kept could not be saved."));
        Theme::setTone(m_message, Theme::Tone::Error);
        return;
    }
    m_context.settings.setListen(m_listen->text());
    m_context.settings.setSiteDomain(m_siteDomain->text());
    m_context.settings.setDataDir(m_dataDir->text());
    m_context.settings.setServingThreads(m_threads->value());
    m_context.settings.setLanSharing(m_lanSharing->isChecked());
    m_context.settings.setTlsCertFile(m_tlsCert->text());
    m_context.settings.setTlsKeyFile(m_tlsKey->text());
    m_context.settings.setHttpsPort(quint16(m_httpsPort->value()));
    m_context.settings.setAccessLogEnabled(m_accessLog->isChecked());
    m_context.settings.setAccessLogFile(m_accessLogFile->text());
    m_acme->save(m_context.settings);
    m_context.engine.lan().setEnabled(m_lanSharing->isChecked()); // at once, unlike the fields above
    if (m_tray->isEnabled())
        m_context.settings.setKeepServingInTray(m_tray->isChecked());
    if (m_appearance)
        m_context.settings.setAppearance(m_appearance->currentData().toString());
    m_context.settings.sync();
    QDialog::accept();
}

} // namespace berth
