#pragma once

#include "instance/enginesettings.h"
#include "ui/settings/appsettings.h"

#include <QCoreApplication>
#include <memory>
#include <optional>

namespace berth {

class DataDirLock;
class Engine;
class InstanceChannel;
class Prompter;

// Starts the dashboard's engine: takes the data folder's lock (or asks the Berth that holds it to show
// itself), then opens the data and listens. When that fails it says what failed and offers the ways out that
// apply to it (another port, another data folder, Settings) and tries again, so a bad saved value never locks
// the owner out.
class Startup final
{
    Q_DECLARE_TR_FUNCTIONS(berth::Startup)

public:
    // The serving options given on the command line, applied over the saved settings.
    using Overrides = AppSettings::Overrides;
    enum class Outcome
    {
        Started, // engine() serves; channel() listens for a second instance
        RaisedOther, // a Berth already runs on this data folder and was asked to show itself
        Quit, // the owner gave up
    };
    // The ways out when starting fails; each failure offers those that can mend it, in this order.
    enum Choice
    {
        AnotherPort,
        ChooseDataFolder,
        OpenSettings,
        Retry,
        QuitBerth,
    };

    Startup(AppSettings &settings, Overrides overrides, Prompter &prompter);
    ~Startup();
    Q_DISABLE_COPY_MOVE(Startup)

    Outcome run();

    Engine *engine() const { return m_engine.get(); }
    InstanceChannel *channel() const { return m_channel.get(); }
    // The settings in effect: the saved ones with the command line's over them.
    EngineSettings effectiveSettings() const;
    const Overrides &overrides() const { return m_overrides; }
    // A choice's button.
    static QString label(Choice choice);

private:
    struct Failure
    {
        QString text; // what failed, in a sentence; empty: started
        QList<Choice> wayOut; // what is offered for it
    };
    // *raised when another Berth was asked instead.
    Failure tryStart(bool *raised);
    Failure openEngine(const EngineSettings &settings, const QString &dataDir);
    bool offerWayOut(const Failure &failure);
    void useAnotherPort();
    void chooseDataFolder();
    void openSettings();

    AppSettings &m_settings;
    Overrides m_overrides;
    Prompter &m_prompter;
    // Declared in the order they may live: the engine goes first, the lock last.
    std::unique_ptr<DataDirLock> m_lock;
    std::unique_ptr<InstanceChannel> m_channel;
    std::unique_ptr<Engine> m_engine;
};

} // namespace berth
