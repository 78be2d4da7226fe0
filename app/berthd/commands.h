#pragma once

#include <QStringList>
#include <functional>

namespace berth {

// Exit codes: 0 success, 1 runtime failure, 2 bad usage.
enum ExitCode
{
    ExitOk = 0,
    ExitFailure = 1,
    ExitUsage = 2
};

class Engine;

// Called with the engine `serve` made, before it starts (the crash-safety test's build of berthd installs its
// fault points there; berthd itself passes none).
using EngineHook = std::function<void(Engine &)>;

// Dispatches `berthd [serve] ...` and `berthd key create ...`; returns the process exit code.
int runCommand(const QStringList &arguments, const EngineHook &beforeServing = {});

} // namespace berth
