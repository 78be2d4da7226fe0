#!/usr/bin/env bash
# The test suite built with AddressSanitizer and UndefinedBehaviorSanitizer (the `asan` preset, into build/asan,
# apart from the release build) and run by CTest. Any report fails: ASan stops at the first error, UBSan is built
# with -fno-sanitize-recover=all, and LeakSanitizer (detect_leaks=1) fails a test whose process leaks at exit.
# Child processes (berthd started by the CLI, browser, OpenAPI and MCP tests) are sanitized too and inherit the
# options. The only suppressions allowed are third-party leaks, each justified in tests/sanitize/lsan.supp.
#
#   tests/sanitize/run-asan.sh [--no-build] [ctest arguments...]   the whole suite, or e.g. -R 'tst_frontdoor'
#   tests/sanitize/run-asan.sh --ci [--no-build]                   the part CI runs: the front door, site serving,
#                                                                  the API, the domain's parsers (see ci_targets)
#
# A report names the test in CTest's output; run that test binary alone (build/asan/tests/...) with the environment
# below to see it again, e.g.
#   ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=16 QT_QPA_PLATFORM=offscreen build/asan/tests/engine/http/tst_frontdoor
# BERTH_ASAN_BUILD_DIR names another build folder than build/asan (shared with run-fuzz.sh the same way).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BERTH_ASAN_BUILD_DIR:-$top/build/asan}
# CI's part: the front door, site serving and the built-in endpoints, the API suites, and the domain's parsers of
# untrusted input (the engine-level suites on one thread and, where CTest has them, on four).
ci_targets=(tst_requestframer tst_headervalues tst_frontdoor tst_connections tst_responses tst_pipelining
            tst_servingthreads tst_ratelimiter tst_sitehosting tst_privatesites tst_builtinendpoints tst_byterange
            tst_siterules tst_deploymentsapi tst_deploymentcontent tst_versions tst_submissions tst_counters tst_authkeys
            tst_authotp tst_mcp tst_deployrequest tst_liftedcontent tst_htmlscanner tst_pagemetadata tst_filepath
            tst_submissionscsv tst_siterulesparsing tst_gatefairness tst_siblingsites tst_sitepaths tst_apiorigins
            tst_mcpsessions tst_encodings tst_accesslog tst_metrics tst_versionaddresses tst_webhooks tst_analytics)
ci_regex="^($(IFS='|'; echo "${ci_targets[*]}")|tst_sitehosting@4threads|tst_privatesites@4threads)\$"
build=1 ci=
while [ $# -gt 0 ]; do
    case "$1" in
        --no-build) build=; shift ;;
        --ci) ci=1; shift ;;
        *) break ;;
    esac
done

# quarantine_size_mb: ASan keeps freed memory unusable for a while to catch use after free; its default 256 MB
# of freed buffers stays resident and breaks the suites that bound memory growth (tst_responses'
# slowReaderCostsNoMemory allows 24 MB). 16 MB still catches a use soon after the free.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:quarantine_size_mb=16:check_initialization_order=1:strict_init_order=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$top/tests/sanitize/lsan.supp:print_suppressions=0"
export QT_QPA_PLATFORM=offscreen

if [ -n "$build" ]; then
    cmake --preset asan -S "$top" -B "$build_dir" >/dev/null
    if [ -n "$ci" ]; then
        cmake --build "$build_dir" --parallel "$(nproc)" --target "${ci_targets[@]}"
    else
        cmake --build "$build_dir" --parallel "$(nproc)"
    fi
fi
[ -n "$ci" ] && set -- -R "$ci_regex"
# The sanitizers make the tests two to four times slower: a longer timeout than the release run's 300 s.
cd "$build_dir"
exec ctest --output-on-failure --parallel "$(nproc)" --timeout 900 "$@"
