#pragma once

#include <QStringList>

namespace berth {

// berthd domains SLUG|ID [add|remove NAME]: a site's custom domains on a running instance, listed with their
// certificates' states (GET /deploy/:id), or one added or removed (PUT /deploy/:id with the whole new list). Takes
// the program name, then the command line, and returns the exit status (ClientExitCode).
namespace DomainCommands {

int domains(const QStringList &arguments);

} // namespace DomainCommands
} // namespace berth
