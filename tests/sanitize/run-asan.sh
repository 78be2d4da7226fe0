#!/usr/bin/env bash
# The test suite built with AddressSanitizer and UndefinedBehaviorSanitizer (the `asan` preset, into build/asan,
# apart from the release build) and run by CTest. Any report fails: ASan stops at the first error, UBSan is built
# with -fno-sanitize-recover=all, and LeakSanitizer (detect_leaks=1) fails a test whose process leaks at exit.
# Child processes (berthd started by the CLI, browser, OpenAPI and MCP tests) are sanitized too and inherit the
# options. The only suppressions are third-party leaks, each justified in tests/sanitize/lsan.supp.
#
#   tests/sanitize/run-asan.sh [--no-build] [ctest arguments...]   e.g. -R 'tst_(frontdoor|sitehosting)'
#
# A report names the test in CTest's output; run that test binary alone (build/asan/tests/...) with the same
# environment as below to see it again.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir="$top/build/asan"
build=1
if [ "${1:-}" = "--no-build" ]; then
    build=
    shift
fi

export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$top/tests/sanitize/lsan.supp:print_suppressions=0"
export QT_QPA_PLATFORM=offscreen

if [ -n "$build" ]; then
    cmake --preset asan -S "$top" >/dev/null
    cmake --build "$build_dir" --parallel "$(nproc)"
fi
# The sanitizers make the suite about twice as slow: a longer timeout than the release run's 300 s.
cd "$build_dir"
exec ctest --output-on-failure --parallel "$(nproc)" --timeout 900 "$@"
