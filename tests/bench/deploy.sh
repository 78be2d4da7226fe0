#!/usr/bin/env bash
# Publishing a 50 MB site of 1,000 incompressible 50 KB files plus index.html, against the floor of the same work
# on this machine (sha256sum of every file, cp -r, sync), in one run: POST /deploy with the files as base64 JSON,
# POST /deploy with the folder as a tar archive,
# `berthd deploy DIR` (a first publish), and `berthd deploy DIR --update SLUG` with nothing changed and with one
# file changed. Every publish gets content the server has never held (new random bytes each turn), except the
# redeploys, which are about what the server holds already.
# A benchmark, not a test: run it by hand.
#   tests/bench/deploy.sh     (TURNS=5 turns, medians; BUILD_DIR reuses a build; BERTHD names a built berthd)
# Goals: an unchanged redeploy in <= 0.25 s wall, one changed file in <= 0.3 s, a first publish in <= 1.5x the floor,
# the archive in <= 1.5x the floor.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-"$top/build/bench"}
turns=${TURNS:-5}
berth_port=${BERTH_PORT:-18097}

source "$top/tests/bench/lib.sh"
install_missing curl python3 coreutils time tar

start_deploy_bench

# The CLI as a user runs it, with a cache folder of its own (the digests of a folder's unchanged files); its CPU
# time (user and system, ms) goes to $work/cpu, since on a busy machine the wall time also measures the others.
cli() {
    XDG_CACHE_HOME="$work/cache" BERTH_API_KEY="$key" /usr/bin/time -f '%U %S' -o "$work/time" \
        "$berthd" deploy "$@" --url "http://localhost:$berth_port" --yes >/dev/null
    awk '{ printf "%d", ($1 + $2) * 1000 }' "$work/time" >"$work/cpu"
}

floors=() jsons=() archives=() firsts=() unchanged=() changed=() first_cpus=() unchanged_cpus=() changed_cpus=()
for ((turn = 1; turn <= turns; turn++)); do
    make_deploy_folder "$work/json-site"
    make_deploy_folder "$work/tar-site"
    make_deploy_folder "$work/site"
    floors+=("$(floor_ms "$work/site")")

    folder_deploy_json "$work/deploy.json" "json-$turn" "$work/json-site"
    start=$(now_ns)
    api POST /deploy --data-binary "@$work/deploy.json" >/dev/null
    jsons+=("$(ms_since "$start")")

    tar -C "$work/tar-site" -cf "$work/deploy.tar" .
    start=$(now_ns)
    curl -sf "http://127.0.0.1:$berth_port/deploy?slug=tar-$turn" -H "Host: localhost:$berth_port" \
        -H "Authorization: Bearer $key" -H 'Content-Type: application/x-tar' --data-binary "@$work/deploy.tar" >/dev/null
    archives+=("$(ms_since "$start")")

    start=$(now_ns)
    cli "$work/site" --slug "cli-$turn"
    firsts+=("$(ms_since "$start")")
    first_cpus+=("$(cat "$work/cpu")")

    start=$(now_ns)
    cli "$work/site" --update "cli-$turn"
    unchanged+=("$(ms_since "$start")")
    unchanged_cpus+=("$(cat "$work/cpu")")

    head -c 51200 /dev/urandom >"$work/site/files/07/f0700.bin"
    start=$(now_ns)
    cli "$work/site" --update "cli-$turn"
    changed+=("$(ms_since "$start")")
    changed_cpus+=("$(cat "$work/cpu")")

    rm -rf "$work/json-site" "$work/tar-site" "$work/site" "$work/deploy.json" "$work/deploy.tar"
    printf 'turn %s: floor %s ms, JSON %s ms, archive %s ms, CLI first %s ms, unchanged %s ms, one change %s ms (load %s)\n' \
        "$turn" "${floors[-1]}" "${jsons[-1]}" "${archives[-1]}" "${firsts[-1]}" "${unchanged[-1]}" "${changed[-1]}" \
        "$(cut -d' ' -f1 /proc/loadavg)"
done

floor=$(median "${floors[@]}")
row() { # row LABEL WALL_MS [CLI_CPU_MS]
    printf '%-40s %9s ms %8sx the floor' "$1" "$2" "$(ratio "$2" "$floor")"
    [ -z "${3:-}" ] || printf ', berthd deploy CPU %s ms' "$3"
    echo
}
echo
printf 'medians of %s turns, 1,000 files of 50 KB plus index.html (50 MB):\n' "$turns"
printf '%-40s %9s ms\n' "floor: sha256sum, cp -r, sync" "$floor"
row "POST /deploy, base64 JSON (curl)" "$(median "${jsons[@]}")"
row "POST /deploy, tar archive (curl)" "$(median "${archives[@]}")"
row "berthd deploy DIR (first publish)" "$(median "${firsts[@]}")" "$(median "${first_cpus[@]}")"
row "berthd deploy --update, nothing changed" "$(median "${unchanged[@]}")" "$(median "${unchanged_cpus[@]}")"
row "berthd deploy --update, one file changed" "$(median "${changed[@]}")" "$(median "${changed_cpus[@]}")"
