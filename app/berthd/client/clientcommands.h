#pragma once

#include <QStringList>
#include <optional>

namespace berth {

// The commands that talk to a running instance over its HTTP API: deploy, list, status, teardown, open, qr, the
// site commands (versions, rollback, rename, protect, unprotect), submissions, counters (and mcp).
// arguments: the program name, then the command line. nullopt when the first word names none of them.
std::optional<int> runClientCommand(const QStringList &arguments);

// Their lines for `berthd --help`.
QString clientCommandsOverview();

} // namespace berth
