#pragma once

#include <QStringList>

namespace berth::AccountCommands {

// berthd subcommands over users, keys and who may sign in. Each takes its arguments with the program name first
// and returns the exit code.
int usersList(const QStringList &arguments);
int usersPlan(const QStringList &arguments);
int allowList(const QStringList &arguments);
int allowAdd(const QStringList &arguments);
int allowRemove(const QStringList &arguments);
int signups(const QStringList &arguments);
int agents(const QStringList &arguments);
int signInRequests(const QStringList &arguments);
int keysList(const QStringList &arguments);
int keysRevoke(const QStringList &arguments);

} // namespace berth::AccountCommands
