#!/usr/bin/env bash
# Berth's HTTP core against nginx, serving the same files on loopback: requests/s and throughput for a small page,
# a 5 MB and a 50 MB file, measured with wrk. A benchmark, not a test: run it by hand.
#   tests/bench/serve-files.sh            (DURATION=10 seconds per run, NGINX_WORKERS=1 by default)
# Berth's HttpService runs on one thread, so nginx gets one worker too unless NGINX_WORKERS says otherwise.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-"$top/build/bench"} # an existing build directory may be reused
duration=${DURATION:-10}
nginx_workers=${NGINX_WORKERS:-1}
berth_port=${BERTH_PORT:-18080}
nginx_port=${NGINX_PORT:-18081}

source "$top/tests/bench/lib.sh"
install_missing nginx-light wrk

cmake -S "$top" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" --target berth_benchserver

start_scratch

# The files: a 2.7 KB page (served from memory by Berth), 5 MB and 50 MB files (streamed from disk by Berth).
make_bench_files "$work/site"
start_nginx "$work/site" "$nginx_port" "$nginx_workers"
"$build_dir/tests/bench/berth_benchserver" "$work/site" "$berth_port" >/dev/null &
pids+=($!)

wait_for_port "$nginx_port"
wait_for_port "$berth_port"

# Both must answer 200 with the file's length before anything is measured.
for port in "$berth_port" "$nginx_port"; do
    check_200 "$port" bench /index.html "$(stat -c %s "$work/site/index.html")"
    check_200 "$port" bench /5mb.bin 5000000
    check_200 "$port" bench /50mb.bin 50000000
done

printf '\n%-16s %-12s %14s %14s\n' "file" "server" "requests/s" "transfer/s"
for case in "/index.html 64 small page" "/5mb.bin 8 5 MB" "/50mb.bin 4 50 MB"; do
    read -r path connections label <<<"$case"
    for server in berth nginx; do
        port=$berth_port
        [ "$server" = nginx ] && port=$nginx_port
        read -r rps tput _ <<<"$(wrk_run "$port" bench "$path" "$connections" "$duration")"
        printf '%-16s %-12s %14s %14s\n' "$label" "$server" "$rps" "$tput"
    done
done
printf '\n(wrk -t2, %ss per run, nginx %s worker(s), Berth one thread, all on %s cores of this machine)\n' \
    "$duration" "$nginx_workers" "$(nproc)"
