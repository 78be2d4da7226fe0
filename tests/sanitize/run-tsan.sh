#!/usr/bin/env bash
# The concurrency tests under ThreadSanitizer (the `tsan` preset, into build/tsan): serving threads, the whole
# engine on four serving threads (counters, rate limits, the site table swapped by deploys while other threads
# serve), the rate limiter and the worker pools (blob store, garbage collection, deploy decoding). Any data race
# or lock-order inversion in Berth's code fails.
#
#   tests/sanitize/run-tsan.sh [--no-build] [ctest regex]
#
# Limits: Qt is not built with TSan. QMutex and QReadWriteLock take their contended paths inside libQt6Core
# (futexes that TSan does not see), and queued signals and QThreadPool hand work over through Qt's own locks, so
# TSan cannot know that these order memory accesses. The suppressions in tests/sanitize/tsan.supp cover exactly
# those hand-overs, with the reason for each; a race between two stacks of Berth's own code is never suppressed.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir="$top/build/tsan"
build=1
if [ "${1:-}" = "--no-build" ]; then
    build=
    shift
fi
targets=(tst_servingthreads tst_concurrentserving tst_ratelimiter tst_blobstore tst_garbagecollection
         tst_deployrequest tst_sitehosting tst_privatesites tst_deploymentlifecycle)
# The engine-level suites run on four serving threads (their @4threads variants); the others as they are.
regex=${1:-'^(tst_servingthreads|tst_concurrentserving|tst_ratelimiter|tst_blobstore|tst_garbagecollection|tst_deployrequest|tst_sitehosting@4threads|tst_privatesites@4threads|tst_deploymentlifecycle@4threads)$'}

export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=4:suppressions=$top/tests/sanitize/tsan.supp"
export QT_QPA_PLATFORM=offscreen

if [ -n "$build" ]; then
    cmake --preset tsan -S "$top" >/dev/null
    cmake --build "$build_dir" --parallel "$(nproc)" --target "${targets[@]}"
fi
cd "$build_dir"
exec ctest --output-on-failure --parallel "$(nproc)" --timeout 900 -R "$regex"
