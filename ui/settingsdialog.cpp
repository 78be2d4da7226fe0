#include "settingsdialog.h"

#include "appsettings.h"
#include "domain/limits.h"
#include "engine.h"
#include "prompter.h"
#include "theme.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSystemTrayIcon>
#include <QTableWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace berth {

SettingsDialog::SettingsDialog(const DashboardContext &context, QWidget *parent)
    : QDialog(parent)
    , m_context(context)
    , m_listen(new QLineEdit(context.settings.listen(), this))
    , m_siteDomain(new QLineEdit(context.settings.siteDomain(), this))
    , m_dataDir(new QLineEdit(context.settings.dataDir(), this))
    , m_tray(new QCheckBox(tr("&Keep serving from the system tray when the window is closed"), this))
    , m_message(new QLabel(this))
{
    setObjectName(u"settingsDialog"_s);
    setWindowTitle(tr("Settings"));
    setMinimumWidth(560);

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
    auto *server = new QGroupBox(tr("Server"), this);
    auto *form = new QFormLayout(server);
    form->addRow(tr("&Listen on:"), m_listen);
    form->addRow(tr("Site &domain:"), m_siteDomain);
    auto *dataLabel = new QLabel(tr("Data &folder:"), server); // a layout cannot be a buddy: name the field
    dataLabel->setBuddy(m_dataDir);
    form->addRow(dataLabel, dataRow);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Save)->setObjectName(u"saveButton"_s);
    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(server);
    layout->addWidget(m_tray);
    layout->addWidget(planLimits());
    layout->addWidget(m_message);
    layout->addWidget(buttons);
}

QWidget *SettingsDialog::planLimits()
{
    auto *box = new QGroupBox(tr("Plan limits"), this);
    auto *table = new QTableWidget(int(PlanTable::plans().size()), 4, box);
    table->setObjectName(u"planLimitsTableWidget"_s);
    table->setAccessibleName(tr("Plan limits"));
    table->setHorizontalHeaderLabels(
        {tr("Deployments"), tr("Submissions a day"), tr("Submissions kept"), tr("Counters a site")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    const QStringList names {tr("Agent"), tr("Free"), tr("Pro")};
    int row = 0;
    for (const QString &plan : PlanTable::plans()) {
        const PlanLimits limits = m_context.engine.plans().limits(plan);
        table->setVerticalHeaderItem(row, new QTableWidgetItem(names.value(row, plan)));
        const int values[]
            = {limits.deployments, limits.submissionsPerDay, limits.submissionsStored, limits.countersPerDeployment};
        for (int column = 0; column < 4; ++column) {
            auto *item = new QTableWidgetItem(QLocale().toString(values[column]));
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table->setItem(row, column, item);
        }
        ++row;
    }
    table->setFixedHeight(
        table->horizontalHeader()->sizeHint().height() + table->verticalHeader()->length() + 2 * table->frameWidth());
    const auto size
        = [](qint64 bytes) { return QLocale().formattedDataSize(bytes, 0, QLocale::DataSizeTraditionalFormat); };
    auto *note = new QLabel(tr("The instance owner is on Pro. Sizes: a single HTML page up to %1, each file up to %2, "
                               "a whole site up to %3.")
                                .arg(size(kMaxHtmlBytes), size(kMaxFileBytes), size(kMaxTotalBytes)),
        box);
    note->setWordWrap(true);
    auto *layout = new QVBoxLayout(box);
    layout->addWidget(table);
    layout->addWidget(note);
    return box;
}

void SettingsDialog::accept()
{
    QHostAddress address;
    quint16 port = 0;
    if (!AppSettings::parseListen(m_listen->text(), &address, &port)) {
        m_message->setText(tr("“%1” is not an address and port such as 127.0.0.1:8080.").arg(m_listen->text()));
        Theme::setTone(m_message, Theme::Tone::Error);
        m_listen->setFocus();
        return;
    }
    m_context.settings.setListen(m_listen->text());
    m_context.settings.setSiteDomain(m_siteDomain->text());
    m_context.settings.setDataDir(m_dataDir->text());
    if (m_tray->isEnabled())
        m_context.settings.setKeepServingInTray(m_tray->isChecked());
    m_context.settings.sync();
    QDialog::accept();
}

} // namespace berth
