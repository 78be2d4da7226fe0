#include "ui/mainwindow/startup.h"

#include "instance/datadirlock.h"
#include "instance/engine.h"
#include "storage/databaseurl.h"
#include "ui/mainwindow/instancechannel.h"
#include "ui/settings/appsettings.h"
#include "ui/settings/settingsdialog.h"
#include "ui/widgets/prompter.h"

#include <QDir>

using namespace Qt::StringLiterals;

namespace berth {

namespace {
constexpr int kMaxPort = 65535;

QString listenText(const QHostAddress &address, quint16 port)
{
    const QString host
        = address.protocol() == QAbstractSocket::IPv6Protocol ? u"[%1]"_s.arg(address.toString()) : address.toString();
    return u"%1:%2"_s.arg(host).arg(port);
}
} // namespace

Startup::Startup(AppSettings &settings, Overrides overrides, Prompter &prompter)
    : m_settings(settings)
    , m_overrides(std::move(overrides))
    , m_prompter(prompter)
{
}

Startup::~Startup()
{
    m_engine.reset(); // before the channel and the lock that keep others away from its data
    m_channel.reset();
    m_lock.reset();
}

EngineSettings Startup::effectiveSettings() const
{
    EngineSettings settings = m_settings.engineSettings();
    if (m_overrides.listen)
        AppSettings::parseListen(*m_overrides.listen, &settings.listenAddress, &settings.listenPort);
    if (m_overrides.dataDir)
        settings.dataDir = *m_overrides.dataDir;
    if (m_overrides.siteDomain)
        settings.siteDomain = *m_overrides.siteDomain;
    if (m_overrides.baseUrl)
        settings.baseUrl = *m_overrides.baseUrl;
    if (m_overrides.database)
        settings.databaseUrl = *m_overrides.database;
    return settings;
}

QString Startup::label(Choice choice)
{
    switch (choice) {
    case AnotherPort:
        return tr("Use Another &Port…");
    case ChooseDataFolder:
        return tr("Choose &Data Folder…");
    case OpenSettings:
        return tr("&Settings…");
    case Retry:
        return tr("&Try Again");
    case QuitBerth:
        break;
    }
    return tr("&Quit");
}

Startup::Outcome Startup::run()
{
    for (;;) {
        bool raised = false;
        const Failure failure = tryStart(&raised);
        if (raised)
            return Outcome::RaisedOther;
        if (failure.text.isEmpty())
            return Outcome::Started;
        if (!offerWayOut(failure))
            return Outcome::Quit;
    }
}

Startup::Failure Startup::tryStart(bool *raised)
{
    m_engine.reset();
    m_channel.reset();
    const EngineSettings settings = effectiveSettings();
    m_lock = std::make_unique<DataDirLock>(settings.dataDir);
    const QString dataDir = QDir::toNativeSeparators(m_lock->dataDir());
    if (!m_lock->tryLock()) {
        if (m_lock->holderPid() > 0 && InstanceChannel(m_lock->dataDir()).askToRaise()) {
            *raised = true;
            return {};
        }
        // Held by another program: only another folder helps (or stopping that program and trying again).
        if (m_lock->holderPid() > 0)
            return {tr("The data folder %1 is in use by %2 (process %3). One data folder serves from one program "
                       "at a time: stop the other one, or choose another data folder.")
                        .arg(dataDir, m_lock->holderName(), QString::number(m_lock->holderPid())),
                {ChooseDataFolder, Retry, QuitBerth}};
        return {tr("Berth cannot use the data folder %1: %2").arg(dataDir, m_lock->error()),
            {ChooseDataFolder, OpenSettings, Retry, QuitBerth}};
    }
    Failure failure = openEngine(settings, dataDir);
    if (!failure.text.isEmpty())
        return failure;
    m_channel = std::make_unique<InstanceChannel>(m_lock->dataDir());
    if (!m_channel->listen())
        qWarning("berth: a second Berth on this data folder cannot reach this one");
    return {};
}

Startup::Failure Startup::openEngine(const EngineSettings &settings, const QString &dataDir)
{
    // As berthd checks --database: the URL may hold a password, so only what is wrong with it is said, and the
    // database is named without it. It comes from the command line or the environment: nothing here mends it.
    const Result<DatabaseUrl> database = settings.databaseUrl.isEmpty() ? Result<DatabaseUrl>(DatabaseUrl())
                                                                        : DatabaseUrl::parse(settings.databaseUrl);
    if (!database)
        return {
            tr("Berth cannot use the database given by --database or BERTH_DATABASE: %1").arg(database.error().message),
            {Retry, QuitBerth}};
    m_engine = std::make_unique<Engine>(settings);
    if (const Result<void> opened = m_engine->open(); !opened) {
        m_engine.reset();
        if (!settings.databaseUrl.isEmpty())
            return {tr("Berth cannot use the database %1: %2").arg(database.value().redacted(), opened.error().message),
                {Retry, QuitBerth}};
        return {tr("Berth cannot use the data folder %1: %2").arg(dataDir, opened.error().message),
            {ChooseDataFolder, OpenSettings, Retry, QuitBerth}};
    }
    if (const Result<void> started = m_engine->start(); !started) {
        m_engine.reset();
        return {tr("Berth cannot listen on %1: %2")
                    .arg(listenText(settings.listenAddress, settings.listenPort), started.error().message),
            {AnotherPort, OpenSettings, Retry, QuitBerth}};
    }
    return {};
}

bool Startup::offerWayOut(const Failure &failure)
{
    m_lock.reset(); // Settings may choose another folder; the next attempt locks again
    QStringList buttons;
    for (const Choice choice : failure.wayOut)
        buttons.append(label(choice));
    const int index = m_prompter.choose(nullptr, QMessageBox::Critical, tr("Berth Cannot Start"), failure.text, buttons,
        int(failure.wayOut.indexOf(Retry)));
    switch (failure.wayOut.value(index, QuitBerth)) {
    case AnotherPort:
        useAnotherPort();
        return true;
    case ChooseDataFolder:
        chooseDataFolder();
        return true;
    case OpenSettings:
        openSettings();
        return true;
    case Retry:
        return true;
    case QuitBerth:
        break;
    }
    return false;
}

void Startup::useAnotherPort()
{
    const EngineSettings settings = effectiveSettings();
    const auto port = m_prompter.number(nullptr, tr("Use Another Port"),
        tr("Port for Berth to listen on (0 picks a free one):"), settings.listenPort, 0, kMaxPort);
    if (!port)
        return;
    // The value that failed is changed where it came from: this run's option, or the saved setting.
    const QString listen = listenText(settings.listenAddress, quint16(*port));
    if (m_overrides.listen)
        m_overrides.listen = listen;
    else
        m_settings.setListen(listen);
    m_settings.sync();
}

void Startup::chooseDataFolder()
{
    const QString dir = m_prompter.existingDirectory(nullptr, tr("Choose Data Folder"), effectiveSettings().dataDir);
    if (dir.isEmpty())
        return;
    if (m_overrides.dataDir)
        m_overrides.dataDir = dir;
    else
        m_settings.setDataDir(dir);
    m_settings.sync();
}

void Startup::openSettings()
{
    // The data cannot be opened here, so the dialog shows only where Berth serves and keeps its data.
    Engine closed(effectiveSettings());
    DashboardContext context {closed, User(), m_settings, m_prompter};
    SettingsDialog dialog(context, nullptr, SettingsDialog::Scope::ServerOnly);
    if (m_prompter.exec(&dialog) != QDialog::Accepted)
        return;
    // What was just saved is the owner's choice for this run too.
    m_overrides.listen.reset();
    m_overrides.dataDir.reset();
}

} // namespace berth
