#pragma once

#include <QStringList>

namespace berth {

// The client commands that read what a site's visitors left through its built-in endpoints: form submissions
// (/_submit) and counters (/_counter). Each takes the program name, then the command line, and returns the exit
// status (ClientExitCode).
namespace SubmissionCommands {

int submissions(const QStringList &arguments); // GET|DELETE /deploy/:id/submissions
int counters(const QStringList &arguments); // GET|DELETE /deploy/:id/counters

} // namespace SubmissionCommands
} // namespace berth
