#!/usr/bin/env bash
# The concurrency tests under ThreadSanitizer (the `tsan` preset, into build/tsan): serving threads, the whole
# engine on four serving threads (counters, rate limits, the site table swapped by deploys while other threads
# serve), the rate limiter and the worker pools (blob store, garbage collection, deploy decoding). Any data race
# or lock-order inversion in Berth's code fails.
#
#   tests/sanitize/run-tsan.sh [--no-build] [--short] [ctest regex]
#
# --short: only the three concurrent serving suites (tst_servingthreads, tst_concurrentserving, tst_ratelimiter),
# which need a much smaller build. The build runs under nice on at most two jobs (JOBS=N to change), through
# ccache when it is installed.
#
# Limits: Qt is not built with TSan. QMutex and QReadWriteLock take their contended paths inside libQt6Core
# (futexes that TSan does not see), and queued signals and QThreadPool hand work over through Qt's own locks, so
# TSan cannot know that these order memory accesses. The suppressions in tests/sanitize/tsan.supp cover exactly
# those hand-overs, with the reason for each; a race between two stacks of Berth's own code is never suppressed.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir="$top/build/tsan"
build=1
short=
while [ $# -gt 0 ]; do
    case "$1" in
    --no-build) build= ;;
    --short) short=1 ;;
    *) break ;;
    esac
    shift
done
if [ -n "$short" ]; then
    targets=(tst_servingthreads tst_concurrentserving tst_ratelimiter)
    default_regex='^(tst_servingthreads|tst_concurrentserving|tst_ratelimiter)$'
else
    targets=(tst_servingthreads tst_concurrentserving tst_ratelimiter tst_blobstore tst_garbagecollection
             tst_deployrequest tst_sitehosting tst_privatesites tst_deploymentlifecycle)
    # The engine-level suites run on four serving threads (their @4threads variants); the others as they are.
    default_regex='^(tst_servingthreads|tst_concurrentserving|tst_ratelimiter|tst_blobstore|tst_garbagecollection|tst_deployrequest|tst_sitehosting@4threads|tst_privatesites@4threads|tst_deploymentlifecycle@4threads)$'
fi
regex=${1:-$default_regex}
jobs=${JOBS:-2}

# ignore_noninstrumented_modules: malloc, realloc and free called from inside libQt6Core (implicitly shared arrays
# handed between threads through Qt's own queues) are not checked; Berth's own accesses all are.
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=4:ignore_noninstrumented_modules=1:suppressions=$top/tests/sanitize/tsan.supp"
export QT_QPA_PLATFORM=offscreen

if [ -n "$build" ]; then
    if command -v ccache >/dev/null && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
        export CMAKE_CXX_COMPILER_LAUNCHER=ccache
    fi
    cmake --preset tsan -S "$top" >/dev/null
    nice cmake --build "$build_dir" --parallel "$jobs" --target "${targets[@]}"
fi
cd "$build_dir"
exec ctest --output-on-failure --parallel "$jobs" --timeout 900 -R "$regex"
