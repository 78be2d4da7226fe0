#pragma once

namespace berth {

// Every connection is a file descriptor: lifts the soft open-file limit to the hard one, so that the
// front door's connection cap, not the process limit, is what bounds a busy server. For the front
// ends to call once at start; returns the soft limit now in force (0 when it cannot be read).
long raiseOpenFileLimit();

} // namespace berth
