#pragma once

#include <QStringList>

namespace berth {

// berthd webhooks targets [public|lan|any]: shows or sets where the instance's webhooks may deliver (the owner's
// decision; a running server applies it from its next request). Takes the program name, then the command line.
int webhookTargets(const QStringList &arguments);

} // namespace berth
