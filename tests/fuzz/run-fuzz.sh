#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (the `asan` preset, into build/asan, where tests/sanitize/run-asan.sh builds
# the test suites with the same sanitizers: the engine is compiled once for both) and runs each one from its committed
# seed corpus (tests/fuzz/corpus/<target>/) and dictionary (tests/fuzz/dict/<target>.dict, when there is one).
# Fails on any crash, sanitizer report (ASan, UBSan, leaks), broken property or per-input timeout; the input that
# did it is kept under build/fuzz-artifacts/ and the command to reproduce it is printed.
#
#   tests/fuzz/run-fuzz.sh [--seconds N] [--no-build] [target...]      bounded run (CI): N seconds a target (default 8)
#   tests/fuzz/run-fuzz.sh --long HOURS [--corpus-dir DIR] [target...]  long run: HOURS (decimals allowed) a target,
#       one after another, adding what it finds to DIR/<target>/ (default ~/.cache/berth-fuzz), outside the repo
#   --corpus-dir DIR also keeps what a bounded run finds; without it a bounded run leaves nothing behind.
#
# Targets are named without their fuzz_ prefix (e.g. `pagemetadata`); with none given, all of them run.
# BERTH_ASAN_BUILD_DIR names another build folder than build/asan (shared with run-asan.sh the same way).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BERTH_ASAN_BUILD_DIR:-$top/build/asan}
artifacts="$top/build/fuzz-artifacts"
all_targets=(requestframer formbody submissionbody deployrequest base64 filepath sitepath pagemetadata byterange
             acceptencoding accesscookie cookieheader hostheader hostslug redirectrules headerrules mcpmessage
             clienthello tarstream)

seconds=8 long_hours= build=1 corpus_root= targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --long) long_hours=$2; shift 2 ;;
        --corpus-dir) corpus_root=$2; shift 2 ;;
        --no-build) build=; shift ;;
        [0-9]*) seconds=$1; shift ;; # the old interface: run-fuzz.sh SECONDS
        -*) echo "run-fuzz.sh: unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
if [ -n "$long_hours" ]; then
    seconds=$(awk -v h="$long_hours" 'BEGIN { printf "%d", h * 3600 }')
    corpus_root=${corpus_root:-${XDG_CACHE_HOME:-$HOME/.cache}/berth-fuzz}
fi
# libFuzzer reads -max_total_time=0 as "forever".
if ! [ "$seconds" -gt 0 ] 2>/dev/null; then
    echo "run-fuzz.sh: the time per target must be at least one second" >&2
    exit 2
fi

# Per-target limits. The page metadata scanner gets a 1 s timeout on inputs up to 64 KiB: a linear scan takes
# milliseconds there even under the sanitizers, so anything slower is super-linear behaviour, counted as a finding.
options_for() {
    case "$1" in
        pagemetadata) echo "-timeout=1 -max_len=65536" ;;
        redirectrules | headerrules) echo "-timeout=1 -max_len=65536" ;; # linear parsers and matchers, like above
        deployrequest | mcpmessage) echo "-timeout=5 -max_len=65536" ;;
        submissionbody) echo "-timeout=5 -max_len=10300" ;; # /_submit takes 10 KiB, plus the Content-Type line
        requestframer) echo "-timeout=5 -max_len=20000" ;;
        formbody) echo "-timeout=5 -max_len=16384" ;;
        *) echo "-timeout=5 -max_len=4096" ;;
    esac
}

if [ -n "$build" ]; then
    (cd "$top" && cmake --preset asan -B "$build_dir" >/dev/null)
    cmake --build "$build_dir" --target "${targets[@]/#/fuzz_}"
fi
mkdir -p "$artifacts"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

failed=()
for target in "${targets[@]}"; do
    binary="$build_dir/tests/fuzz/fuzz_$target"
    seeds="$top/tests/fuzz/corpus/$target"
    dict="$top/tests/fuzz/dict/$target.dict"
    # libFuzzer writes new inputs into its first corpus directory only: a scratch one in CI, the persistent one on
    # a long run; the committed seeds are only read.
    if [ -n "$corpus_root" ]; then
        corpus="$corpus_root/$target"
    else
        corpus="$scratch/$target"
    fi
    mkdir -p "$corpus"
    log="$scratch/$target.log"
    args=(-max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/$target-")
    [ -f "$dict" ] && args+=(-dict="$dict")
    # shellcheck disable=SC2207
    args+=($(options_for "$target"))

    echo "fuzz: fuzz_$target for ${seconds}s"
    if "$binary" "${args[@]}" "$corpus" "$seeds" >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
        coverage=$(grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9]*' "$log" | tail -n 1 | awk '{print $2 " edges, " $4 " features, " $6 " corpus inputs"}')
        echo "fuzz: fuzz_$target: ${runs:-?} runs, ${coverage:-coverage unknown}, no finding"
    else
        tail -n 60 "$log"
        cp "$log" "$artifacts/$target.log"
        input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -n 1)
        echo "fuzz: fuzz_$target FAILED (log: $artifacts/$target.log); the input is kept in ${input:-$artifacts}"
        [ -n "$input" ] && echo "fuzz: reproduce with: $binary $(options_for "$target") $input"
        failed+=("$target")
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in: ${failed[*]}"
    exit 1
fi
echo "fuzz: ${#targets[@]} targets, no finding"
