#include "domain/common/workerpriority.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace berth {

void lowerThisThreadsPriority()
{
#if defined(__linux__)
    // Under NPTL each thread has a nice of its own: setpriority on the thread's id changes this thread only. Raising
    // the nice needs no privilege; it stays with the pool's thread, so it is done once.
    thread_local bool lowered = false;
    if (lowered)
        return;
    lowered = true;
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kBackgroundNice);
#endif
}

} // namespace berth
