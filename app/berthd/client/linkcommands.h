#pragma once

#include <QStringList>

namespace berth {

// The client commands for a private site's named share links. Each takes the program name, then the command line,
// and returns the exit status (ClientExitCode).
namespace LinkCommands {

int links(const QStringList &arguments); // GET /deploy/:id/links
int link(const QStringList &arguments); // POST /deploy/:id/links
int unlink(const QStringList &arguments); // DELETE /deploy/:id/links/:link_id

} // namespace LinkCommands
} // namespace berth
