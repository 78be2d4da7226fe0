#pragma once

#include "core/error.h"

namespace berth {

// What a client is told about a failed storage call. The storage's own Error when the client can act on it (a taken
// slug, a missing row, a limit, a full disk); for an Internal one, whose message is SQLite's words, `message`
// instead: the details go to the log, never into an answer (web/apierror.cpp sends an Error's message as is).
Error storageFailure(const Error &error, const QString &message);

} // namespace berth
