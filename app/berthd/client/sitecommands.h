#pragma once

#include <QStringList>

namespace berth {

// The client commands that change how a site is served: its kept versions and a rollback to one, its slug, its
// privacy. Each takes the program name, then the command line, and returns the exit status (ClientExitCode).
namespace SiteCommands {

int versions(const QStringList &arguments); // GET /deploy/:id/versions
int rollback(const QStringList &arguments); // POST /deploy/:id/rollback
int rename(const QStringList &arguments); // PATCH /deploy/:id/slug
int protect(const QStringList &arguments); // PUT /deploy/:id with protect true (password, remove_password)
int unprotect(const QStringList &arguments); // PUT /deploy/:id with protect false

} // namespace SiteCommands
} // namespace berth
