#!/usr/bin/env bash
# What the access log costs Berth: one site served by two berthd, one writing its access log (its default) and one
# with --access-log off, measured in turn with wrk (the order alternating, so that the machine's drift weighs on
# both alike): the 2.7 KB page over 64 connections and the 5 MB file over 8, with one serving thread pinned to CPU 0
# and a one-thread wrk on CPU 1, then with a serving thread per core sharing the cores with wrk. Page-view analytics
# are counted by both.
# A benchmark, not a test: run it by hand.
#   tests/bench/access-log.sh     (DURATION=10 seconds per run; TURNS=5 runs of each per case; BUILD_DIR reuses a
#                                  build; BERTH_PORT=18093 and the port after it)
# Goal: with the log, at least 0.95x the requests/s without it.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-"$top/build/bench"}
duration=${DURATION:-10}
turns=${TURNS:-5}
on_port=${BERTH_PORT:-18093}
off_port=$((on_port + 1))
site_host=bench-site.localhost

source "$top/tests/bench/lib.sh"
install_missing wrk curl python3 util-linux

cmake -S "$top" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" --target berthd

start_scratch
make_bench_files "$work/site"
rm "$work/site/50mb.bin"
berthd="$build_dir/app/berthd/berthd"
deploy_json "$work/deploy.json" bench-site "$work/site/index.html" "$work/site/5mb.bin"
cores=$(nproc)

# serve_both THREADS CPUS: both berthd with THREADS serving threads, on CPUS when given; the site is deployed into
# each data folder the first time.
serve_both() {
    local threads=$1 cpus=$2 log
    berthd_prefix=()
    [ -z "$cpus" ] || berthd_prefix=(taskset -c "$cpus")
    for log in on off; do
        berth_port=$on_port
        [ "$log" = on ] || berth_port=$off_port
        local first=false
        [ -d "$work/$log" ] || first=true
        "$first" && key=$("$berthd" key create --data-dir "$work/$log")
        start_berthd "$work/$log" --threads "$threads" --max-connections 4000 --max-connections-per-address 0 \
            --access-log "$([ "$log" = on ] && echo "$work/$log/access.log" || echo off)"
        wait_for_port "$berth_port"
        "$first" && api POST /deploy --data-binary "@$work/deploy.json" >/dev/null
        pids_of[$log]=$berth_pid
    done
}

# rate PORT PATH CONNECTIONS: one wrk run's requests/s, with the case's wrk threads and cores.
rate() {
    ${pin_client[@]+"${pin_client[@]}"} wrk -t"$wrk_threads" -c"$3" -d"${duration}s" -H "Host: $site_host:$1" \
        "http://127.0.0.1:$1$2" | awk '/Requests\/sec/ { print $2 }'
}

declare -A pids_of
printf '%-22s %12s %12s %8s  %s\n' case "log on" "log off" ratio "each turn"
for threads in 1 "$cores"; do
    if [ "$threads" = 1 ] && [ "$cores" -ge 2 ]; then
        serve_both 1 0
        pin_client=(taskset -c 1) wrk_threads=1
    else
        serve_both "$threads" ""
        pin_client=() wrk_threads=2
    fi
    for case in "/index.html 64 small-page" "/5mb.bin 8 5-MB-file"; do
        read -r path connections label <<<"$case"
        ons=() offs=() ratios=""
        for ((turn = 0; turn < turns; turn++)); do
            if ((turn % 2 == 0)); then
                on=$(rate "$on_port" "$path" "$connections")
                off=$(rate "$off_port" "$path" "$connections")
            else
                off=$(rate "$off_port" "$path" "$connections")
                on=$(rate "$on_port" "$path" "$connections")
            fi
            ons+=("$on") offs+=("$off")
            ratios="$ratios${ratios:+,}$(ratio "$on" "$off")"
        done
        on=$(median "${ons[@]}") off=$(median "${offs[@]}")
        printf '%-22s %12s %12s %8s  (%s)\n' "$label N=$threads" "$on" "$off" "$(ratio "$on" "$off")" "$ratios"
    done
    stop_pid "${pids_of[on]}"
    stop_pid "${pids_of[off]}"
done
lines=$(wc -l <"$work/on/access.log")
printf '(wrk, %ss per run, medians of %s runs each in turn; N = 1 pinned to CPU 0 with wrk -t1 on CPU 1, N = %s sharing\n' \
    "$duration" "$turns" "$cores"
printf ' the cores with wrk -t2; %s lines in the access log)\n' "$lines"
