#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (the `fuzz` preset, into build/fuzz) and fuzzes the request framer for a
# bounded time, starting from the committed seed corpus. Exits non-zero on a crash; the crashing input is kept in
# build/fuzz/artifacts/.
#   tests/fuzz/run-fuzz.sh [seconds]        (default 60)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
seconds=${1:-60}
build_dir="$top/build/fuzz"

(cd "$top" && cmake --preset fuzz >/dev/null)
cmake --build "$build_dir" --target fuzz_requestframer

# libFuzzer adds what it finds to its first corpus directory: work on a copy, keep the repository clean.
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
cp "$top"/tests/fuzz/corpus/* "$corpus"/
mkdir -p "$build_dir/artifacts"

"$build_dir/tests/fuzz/fuzz_requestframer" \
    -max_total_time="$seconds" -max_len=20000 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$build_dir/artifacts/" "$corpus"
