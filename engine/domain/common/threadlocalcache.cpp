#include "domain/common/threadlocalcache.h"

#include <atomic>

namespace berth::ThreadLocalCaches {

quint64 newOwnerId()
{
    static std::atomic<quint64> next {1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

} // namespace berth::ThreadLocalCaches
