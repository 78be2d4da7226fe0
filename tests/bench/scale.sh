#!/usr/bin/env bash
# Berth with many deployments, against its scale goals: GET /deploys for a user with 1,000 deployments (goal < 50 ms),
# berthd's startup with 10,000 deployments (goal < 300 ms, from exec until the API answers) and its idle RSS
# then (goal <= 40 MB). The deployments are made through the API, as a user would (a few minutes).
# A benchmark, not a test: run it by hand.
#   tests/bench/scale.sh      (DEPLOYS=10000, LISTED=1000, PARALLEL=4; BUILD_DIR reuses a build; DATA_DIR keeps the
#                              deployments in that folder and reuses them on the next run, e.g. to compare two builds)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-"$top/build/bench"}
total=${DEPLOYS:-10000}
listed=${LISTED:-1000}
parallel=${PARALLEL:-4}
berth_port=${BERTH_PORT:-18092}

source "$top/tests/bench/lib.sh"
install_missing curl python3

if [ -z "${BERTHD:-}" ]; then
    cmake -S "$top" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$build_dir" --target berthd
fi
berthd=${BERTHD:-"$build_dir/app/berthd/berthd"}

start_scratch

data=${DATA_DIR:-"$work/berth"}
reuse=false
if [ -f "$data/bench-keys" ]; then
    reuse=true
    { read -r lister; read -r others; } < "$data/bench-keys"
else
    "$berthd" plans set pro --deployments $((total + 10)) --data-dir "$data" >/dev/null 2>&1
    lister=$("$berthd" key create --user lister@bench.test --plan pro --data-dir "$data")
    others=$("$berthd" key create --user others@bench.test --plan pro --data-dir "$data")
fi

serve_berthd() { start_berthd "$data" --threads 1 --api-rate 1000000; }
now_ms() { date +%s%3N; }

# deploy_many KEY FIRST LAST: one small page each, PARALLEL at a time.
deploy_many() {
    local key=$1 first=$2 last=$3
    seq "$first" "$last" | xargs -P "$parallel" -I{} curl -sf -o /dev/null -X POST "http://127.0.0.1:$berth_port/deploy" \
        -H "Host: localhost:$berth_port" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
        -d '{"html": "<!doctype html><title>Site {}</title><p>Page {}</p>"}'
}

list_deploys() { key=$lister api GET /deploys; }

serve_berthd
wait_for_port "$berth_port"
t0=$(now_ms)
if ! $reuse; then
    deploy_many "$lister" 1 "$listed"
    deploy_many "$others" $((listed + 1)) "$total"
    printf '%s\n%s\n' "$lister" "$others" > "$data/bench-keys"
fi
t1=$(now_ms)
count=$(list_deploys | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["deployments"]))')
[ "$count" = "$listed" ] || { echo "GET /deploys listed $count deployments, not $listed" >&2; exit 1; }
# curl's own timing: from connect to the last byte, without the process start.
list_ms=$(for _ in $(seq 1 21); do
    curl -sf -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$berth_port/deploys" -H "Host: localhost:$berth_port" \
        -H "Authorization: Bearer $lister"
done | sort -n | awk '{ a[NR] = $1 * 1000 } END { printf "%.1f (max %.1f)", a[int((NR + 1) / 2)], a[NR] }')
stop_pid "$berth_pid"

# Startup: from exec until GET / answers (the API is up and the site table is loaded), STARTUP_RUNS times. Wall
# time moves with whatever else the machine runs; the CPU time berthd used until then (all its threads, from
# /proc/PID/stat) does much less, so both are printed.
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($14 + $15) * 1000 / hz }' "/proc/$1/stat"; }
runs=${STARTUP_RUNS:-5}
startup_runs=()
startup_cpu=()
for _ in $(seq 1 "$runs"); do
    t_start=$(now_ms)
    serve_berthd
    until curl -sf -o /dev/null "http://127.0.0.1:$berth_port/" -H "Host: localhost:$berth_port"; do sleep 0.005; done
    startup_runs+=($(($(now_ms) - t_start)))
    startup_cpu+=("$(cpu_ms "$berth_pid")")
    sleep 2 # idle: the startup's allocations settle
    idle_rss=$(rss_mb "$berth_pid")
    stop_pid "$berth_pid"
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
startup_ms=$(median "${startup_runs[@]}")
startup_min=$(printf '%s\n' "${startup_runs[@]}" | sort -n | head -n 1)

echo
$reuse || printf 'made %s deployments through the API in %.1f s (%s in parallel)\n' "$total" \
    "$(awk -v ms=$((t1 - t0)) 'BEGIN { print ms / 1000 }')" "$parallel"
printf 'GET /deploys, %s deployments: median %s ms over 21 requests (goal < 50 ms)\n' "$listed" "$list_ms"
printf 'startup with %s deployments: median %s ms of %s, fastest %s ms (%s; goal < 300 ms)\n' "$total" \
    "$startup_ms" "$runs" "$startup_min" "${startup_runs[*]}"
printf 'startup CPU time (berthd, all threads, until GET / answers): median %s ms (%s)\n' \
    "$(median "${startup_cpu[@]}")" "${startup_cpu[*]}"
printf 'berthd idle RSS with %s deployments: %s MB (goal <= 40 MB)\n' "$total" "$idle_rss"
