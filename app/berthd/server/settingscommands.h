#pragma once

#include <QStringList>

namespace berth::SettingsCommands {

// berthd subcommands over the owner's instance settings: SMTP for sign-in codes and the plan table. Each takes its
// arguments with the program name first and returns the exit code.
int smtpShow(const QStringList &arguments);
int smtpSet(const QStringList &arguments);
int smtpClear(const QStringList &arguments);
int smtpTest(const QStringList &arguments);
int plansShow(const QStringList &arguments);
int plansSet(const QStringList &arguments);
int plansReset(const QStringList &arguments);

} // namespace berth::SettingsCommands
