#pragma once

#include <QStringList>

namespace berth {

// berthd webhooks list|add|remove|ping|deliveries: the caller's webhooks on a running instance (GET|POST /webhooks,
// DELETE /webhooks/:id, POST /webhooks/:id/ping, GET /webhooks/:id/deliveries). Takes the program name, then the
// command line (the subcommand first), and returns the exit status (ClientExitCode).
namespace WebhookCommands {

int webhooks(const QStringList &arguments);

} // namespace WebhookCommands
} // namespace berth
