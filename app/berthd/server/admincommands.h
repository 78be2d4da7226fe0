#pragma once

#include <QStringList>
#include <optional>

namespace berth {

// The owner's administration subcommands (users, allow, signups, agents, signin-requests, keys, smtp, plans).
// arguments: the program name, then the command line. nullopt when the first word names none of them.
std::optional<int> runAdminCommand(const QStringList &arguments);

// Their lines for `berthd --help`.
QString adminCommandsOverview();

} // namespace berth
