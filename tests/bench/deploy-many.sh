#!/usr/bin/env bash
# Deploys of many new files through POST /deploy (base64 JSON, curl), against the floor of the same work on this
# machine (sha256sum of every file, cp -r, sync), in one run: 10,000 files of about 140 bytes (a static site
# generator's output) and 1,000 incompressible files of 50 KB (50 MB). Every deploy gets content the server has
# never held, so every blob is new.
# A benchmark, not a test: run it by hand.
#   tests/bench/deploy-many.sh     (TURNS=3 turns, medians; BUILD_DIR reuses a build; BERTHD names a built berthd;
#                                   SMALL=10000 small files)
# Goals: each deploy in <= 1.5x its floor.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-"$top/build/bench"}
turns=${TURNS:-3}
small_count=${SMALL:-10000}
berth_port=${BERTH_PORT:-18098}

source "$top/tests/bench/lib.sh"
install_missing curl python3 coreutils

start_deploy_bench

deploy_ms() { # deploy_ms JSON: one POST /deploy, which must succeed
    local start
    sync # the files just generated are not this deploy's to flush
    start=$(now_ns)
    api POST /deploy --data-binary "@$1" >/dev/null
    ms_since "$start"
}

small_floors=() smalls=() big_floors=() bigs=()
for ((turn = 1; turn <= turns; turn++)); do
    make_small_files_folder "$work/small" "$small_count"
    folder_deploy_json "$work/small.json" "small-$turn" "$work/small"
    small_floors+=("$(floor_ms "$work/small")")
    smalls+=("$(deploy_ms "$work/small.json")")

    make_deploy_folder "$work/big"
    folder_deploy_json "$work/big.json" "big-$turn" "$work/big"
    big_floors+=("$(floor_ms "$work/big")")
    bigs+=("$(deploy_ms "$work/big.json")")

    rm -rf "$work/small" "$work/big" "$work/small.json" "$work/big.json"
    printf 'turn %s: %s small files: floor %s ms, deploy %s ms; 50 MB: floor %s ms, deploy %s ms\n' "$turn" \
        "$small_count" "${small_floors[-1]}" "${smalls[-1]}" "${big_floors[-1]}" "${bigs[-1]}"
done

echo
printf 'medians of %s turns, POST /deploy with base64 JSON (curl):\n' "$turns"
report() { # report LABEL FLOOR_MS DEPLOY_MS
    local label=$1 floor deploy
    floor=$2 deploy=$3
    printf '%-36s floor %7s ms, deploy %7s ms: %sx the floor\n' "$label" "$floor" "$deploy" "$(ratio "$deploy" "$floor")"
}
report "$small_count files of about 140 bytes" "$(median "${small_floors[@]}")" "$(median "${smalls[@]}")"
report "1,000 files of 50 KB (50 MB)" "$(median "${big_floors[@]}")" "$(median "${bigs[@]}")"
