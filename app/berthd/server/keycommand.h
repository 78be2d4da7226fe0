#pragma once

#include <QStringList>

namespace berth {

// `berthd key create`: an API key for the owner or a user, printed alone on standard output.
int createKey(const QStringList &arguments);

} // namespace berth
