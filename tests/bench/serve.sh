#!/usr/bin/env bash
# A deployed Berth site against nginx serving the same files, with the same number of serving threads as nginx has
# workers: N = 1 and N = every core. Measured with wrk in one run: requests/s, p99 and Berth's ratio to nginx for
# a 2.7 KB page, a 5 MB file and a 1,000-connection run; then Berth's small-page p99 while a 50 MB deploy runs and
# while a stream of updates runs against a store of 10,000 blobs, against its idle p99; and berthd's RSS idle and
# after load. With 4 or more cores the servers and wrk are pinned to disjoint cores (taskset).
# A benchmark, not a test: run it by hand.
#   tests/bench/serve.sh        (DURATION=10 seconds per run; TURNS=3 runs against each server per case, taken in
#                                turn, see compare_in_turn; BLOBS=10000; ROUNDS=7 pairs of idle and busy windows
#                                for each p99 beside work, see p99_in_turn; BUILD_DIR reuses a build;
#                                ACCESS_LOG=on: berthd's access log, as berthd writes it by default, against nginx
#                                with its combined log buffered; ACCESS_LOG=off: neither writes one; BUSY=off
#                                skips the p99 beside work)
# Goals: small page and 5 MB file at least 1.0x and 0.9x nginx for both N; p99 under a deploy and under
# updates at most 1.5x the idle p99; idle RSS at most 40 MB.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-"$top/build/bench"} # an existing build directory may be reused
duration=${DURATION:-10}
blob_count=${BLOBS:-10000}
rounds=${ROUNDS:-7}
turns=${TURNS:-3}
berth_port=${BERTH_PORT:-18090}
nginx_port=${NGINX_PORT:-18091}
slug=bench-site
access_log=${ACCESS_LOG:-on}
nginx_access_log=$access_log
busy=${BUSY:-on}
berthd_log_options=()
[ "$access_log" = on ] || berthd_log_options=(--access-log off)

source "$top/tests/bench/lib.sh"
install_missing nginx-light wrk curl python3 util-linux

cmake -S "$top" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" --target berthd

start_scratch

cores=$(nproc)
# pin_for THREADS: where the servers and wrk run in the case with THREADS serving threads. With 4 or more cores, on
# disjoint halves; with fewer, one thread's case pins both servers to CPU 0 and a one-thread wrk to CPU 1 (what one
# core does), and the all-cores case lets everything share the cores (a floor: wrk takes its share of them).
pin_for() {
    local threads=$1 half=$((cores / 2))
    if [ "$cores" -ge 4 ]; then
        server_cpus="0-$((half - 1))" client_cpus="$half-$((cores - 1))" wrk_threads=2
    elif [ "$threads" = 1 ] && [ "$cores" -ge 2 ]; then
        server_cpus=0 client_cpus=1 wrk_threads=1
    else
        server_cpus="" client_cpus="" wrk_threads=2
    fi
    berthd_prefix=() nginx_prefix=() pin_client=()
    if [ -n "$server_cpus" ]; then
        berthd_prefix=(taskset -c "$server_cpus")
        nginx_prefix=(taskset -c "$server_cpus")
        pin_client=(taskset -c "$client_cpus")
    fi
}
server_cores=$cores
[ "$cores" -lt 4 ] || server_cores=$((cores / 2))
pin_for "$server_cores"

make_bench_files "$work/site"
rm "$work/site/50mb.bin"
berthd="$build_dir/app/berthd/berthd"
key=$("$berthd" key create --data-dir "$work/berth")
site_host="$slug.localhost:$berth_port"

serve_berthd() { # serve_berthd THREADS
    # --api-rate: the deploys and updates run back to back, past the API's default limit
    start_berthd "$work/berth" --threads "$1" --max-connections 4000 --max-connections-per-address 0 --api-rate 1000000 \
        ${berthd_log_options[@]+"${berthd_log_options[@]}"}
    wait_for_port "$berth_port"
}

wrk_pinned() { # like wrk_run, pinned to the client cores
    local port=$1 host=$2 path=$3 connections=$4 seconds=$5
    ${pin_client[@]+"${pin_client[@]}"} wrk -t"$wrk_threads" -c"$connections" -d"${seconds}s" --latency -H "Host: $host" \
        "http://127.0.0.1:$port$path" |
        awk '/Requests\/sec/ { rps = $2 } /^ *99%/ { p99 = $2 } END { printf "%s %s", rps, p99 }'
}

print_row() { printf '%-22s %-8s %12s %10s %10s\n' "$@"; }

# compare_in_turn PATH CONNECTIONS: TURNS wrk runs against each server, alternating which goes first (B N, N B, ...),
# so that the machine's drift from one run to the next (nginx alone moved by 30 % between runs of this script on
# one machine) weighs on both alike. Prints "BERTH_RPS BERTH_P99_MS NGINX_RPS NGINX_P99_MS RATIOS": medians, and
# each turn's Berth / nginx.
compare_in_turn() {
    local path=$1 connections=$2 turn first second b_rps b_p99 n_rps n_p99 ratios=""
    local berth_rates=() berth_p99s=() nginx_rates=() nginx_p99s=()
    local -A result
    for ((turn = 0; turn < turns; turn++)); do
        first=berth second=nginx
        ((turn % 2 == 0)) || { first=nginx second=berth; }
        result[$first]=$(wrk_on "$first" "$path" "$connections")
        result[$second]=$(wrk_on "$second" "$path" "$connections")
        read -r b_rps b_p99 <<<"${result[berth]}"
        read -r n_rps n_p99 <<<"${result[nginx]}"
        berth_rates+=("$b_rps")
        berth_p99s+=("$(to_ms "$b_p99")")
        nginx_rates+=("$n_rps")
        nginx_p99s+=("$(to_ms "$n_p99")")
        ratios="$ratios${ratios:+,}$(ratio "$b_rps" "$n_rps")"
    done
    echo "$(median "${berth_rates[@]}") $(median "${berth_p99s[@]}") $(median "${nginx_rates[@]}")" \
        "$(median "${nginx_p99s[@]}") $ratios"
}

wrk_on() { # wrk_on berth|nginx PATH CONNECTIONS: one pinned wrk run against that server
    case $1 in
    berth) wrk_pinned "$berth_port" "$site_host" "$2" "$3" "$duration" ;;
    nginx) wrk_pinned "$nginx_port" bench "$2" "$3" "$duration" ;;
    esac
}

deploy_json "$work/deploy.json" "$slug" "$work/site/index.html" "$work/site/5mb.bin"
serve_berthd 1
api POST /deploy --data-binary "@$work/deploy.json" >/dev/null
idle_rss=$(rss_mb "$berth_pid")
stop_pid "$berth_pid"

echo
print_row "case" "server" "requests/s" "p99" "ratio"
for threads in 1 "$server_cores"; do
    pin_for "$threads"
    serve_berthd "$threads"
    nginx_pid_before=${#pids[@]}
    start_nginx "$work/site" "$nginx_port" "$threads"
    wait_for_port "$nginx_port"
    check_200 "$berth_port" "$site_host" /index.html "$(stat -c %s "$work/site/index.html")"
    check_200 "$nginx_port" bench /5mb.bin 5000000
    for case in "/index.html 64 small-page" "/5mb.bin 8 5-MB-file" "/index.html 1000 1000-connections"; do
        read -r path connections label <<<"$case"
        read -r berth_rps berth_p99 nginx_rps nginx_p99 turn_ratios <<<"$(compare_in_turn "$path" "$connections")"
        print_row "$label N=$threads" berth "$berth_rps" "${berth_p99}ms" "$(ratio "$berth_rps" "$nginx_rps")"
        print_row "$label N=$threads" nginx "$nginx_rps" "${nginx_p99}ms" "($turn_ratios)"
    done
    loaded_rss=$(rss_mb "$berth_pid")
    stop_pid "${pids[$nginx_pid_before]}"
    [ "$threads" = "$server_cores" ] || stop_pid "$berth_pid"
done

if [ "$busy" = on ]; then
    # Serving while the engine works: the small page's p99 idle and during 50 MB deploys, then idle and during updates on
    # a big store, each from pairs of windows taken in turn.
    small_page_p99() { wrk_pinned "$berth_port" "$site_host" /index.html 64 "$duration" | awk '{ print $2 }'; }
    big_deploy_json "$work/big.json"
    read -r idle_p99 deploy_p99 deploys deploys_refused deploy_pairs \
        <<<"$(p99_in_turn "$rounds" small_page_p99 deploy "$work/big.json")"

    # A store of BLOBS blobs (one deployment with that many small files), then a stream of small updates elsewhere.
    many_blobs_json "$work/many.json" "$blob_count"
    api POST /deploy --data-binary "@$work/many.json" >/dev/null
    updated=$(api POST /deploy -d '{"slug": "often-updated", "html": "<p>0</p>"}' |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
    read -r store_idle_p99 update_p99 updates updates_refused update_pairs \
        <<<"$(p99_in_turn "$rounds" small_page_p99 update "$updated")"
    stop_pid "$berth_pid"

    echo
    printf 'small page p99, medians of %s windows each: during 50 MB deploys %s ms against %s ms idle, %sx (%s deploys, %s refused)\n' \
        "$rounds" "$deploy_p99" "$idle_p99" "$(ratio "$deploy_p99" "$idle_p99")" "$deploys" "$deploys_refused"
    printf '  during updates on a %s-blob store %s ms against %s ms idle, %sx (%s updates, %s refused)\n' \
        "$blob_count" "$update_p99" "$store_idle_p99" "$(ratio "$update_p99" "$store_idle_p99")" "$updates" "$updates_refused"
    printf '  each pair, idle/busy: deploys%s; updates%s\n' "$deploy_pairs" "$update_pairs"
else
    stop_pid "$berth_pid"
    echo
fi
printf 'berthd RSS: idle %s MB (one site), after load %s MB\n' "$idle_rss" "$loaded_rss"
printf '(%ss per run, medians of %s runs per server in turn, each turn'"'"'s ratio in parentheses; %s cores;\n' \
    "$duration" "$turns" "$cores"
pin_for 1
printf ' N = 1: servers on CPU %s, wrk -t%s on CPU %s; ' "${server_cpus:-any}" "$wrk_threads" "${client_cpus:-any}"
pin_for "$server_cores"
printf 'N = %s: servers on CPU %s, wrk -t%s on CPU %s;\n' "$server_cores" "${server_cpus:-any}" "$wrk_threads" \
    "${client_cpus:-any}"
printf ' N = berthd --threads = nginx workers; access logs %s)\n' "$access_log"
