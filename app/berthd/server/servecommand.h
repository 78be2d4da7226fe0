#pragma once

#include "app/berthd/commands.h"

namespace berth {

// `berthd serve`: runs the engine in this process until a stop signal, printing where it serves.
int serve(const QStringList &arguments, const EngineHook &beforeServing);

} // namespace berth
