#pragma once

#include <QStringList>

namespace berth {

// Exit codes: 0 success, 1 runtime failure, 2 bad usage.
enum ExitCode { ExitOk = 0, ExitFailure = 1, ExitUsage = 2 };

// Dispatches `berthd [serve] ...` and `berthd key create ...`; returns the process exit code.
int runCommand(const QStringList &arguments);

} // namespace berth
