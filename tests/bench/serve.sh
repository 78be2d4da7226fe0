#!/usr/bin/env bash
# A deployed Berth site against nginx serving the same files: requests/s and p99 latency for a small
# page and a 5 MB file, and Berth's ratio to nginx, measured with wrk in one run. This is berthd end
# to end (Host dispatch, site table, hot cache, streamer), not just the HTTP core (see serve-files.sh).
# A benchmark, not a test: run it by hand.
#   tests/bench/serve.sh        (DURATION=10 seconds per run, NGINX_WORKERS=1 by default)
# Goals: Berth at or above nginx on the small page, and at least 0.8 of nginx on the 5 MB file.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-"$top/build/bench"} # an existing build directory may be reused
duration=${DURATION:-10}
nginx_workers=${NGINX_WORKERS:-1}
berth_port=${BERTH_PORT:-18090}
nginx_port=${NGINX_PORT:-18091}
slug=bench-site

source "$top/tests/bench/lib.sh"
install_missing nginx-light wrk curl

cmake -S "$top" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" --target berthd

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

make_bench_files "$work/site"
rm "$work/site/50mb.bin"
start_nginx "$work/site" "$nginx_port" "$nginx_workers"

berthd="$build_dir/app/berthd/berthd"
key=$("$berthd" key create --data-dir "$work/berth")
"$berthd" serve --listen "127.0.0.1:$berth_port" --data-dir "$work/berth" >/dev/null &
pids+=($!)
wait_for_port "$nginx_port"
wait_for_port "$berth_port"

# The same two files, deployed as one site.
{
    printf '{"slug": "%s", "files": [' "$slug"
    printf '{"path": "index.html", "encoding": "base64", "content": "%s"},' "$(base64 -w0 "$work/site/index.html")"
    printf '{"path": "5mb.bin", "encoding": "base64", "content": "%s"}]}' "$(base64 -w0 "$work/site/5mb.bin")"
} > "$work/deploy.json"
curl -sf "http://127.0.0.1:$berth_port/deploy" -H "Host: localhost:$berth_port" -H "Authorization: Bearer $key" \
    -H 'Content-Type: application/json' --data-binary "@$work/deploy.json" >/dev/null

site_host="$slug.localhost:$berth_port"
check_200 "$berth_port" "$site_host" /index.html "$(stat -c %s "$work/site/index.html")"
check_200 "$nginx_port" bench /index.html "$(stat -c %s "$work/site/index.html")"
check_200 "$berth_port" "$site_host" /5mb.bin 5000000
check_200 "$nginx_port" bench /5mb.bin 5000000

printf '\n%-12s %-8s %14s %12s %14s\n' "file" "server" "requests/s" "p99" "berth/nginx"
for case in "/index.html 64 small-page" "/5mb.bin 8 5-MB-file"; do
    read -r path connections label <<<"$case"
    read -r berth_rps _ berth_p99 <<<"$(wrk_run "$berth_port" "$site_host" "$path" "$connections" "$duration")"
    read -r nginx_rps _ nginx_p99 <<<"$(wrk_run "$nginx_port" bench "$path" "$connections" "$duration")"
    ratio=$(awk -v a="$berth_rps" -v b="$nginx_rps" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
    printf '%-12s %-8s %14s %12s %14s\n' "$label" berth "$berth_rps" "$berth_p99" "$ratio"
    printf '%-12s %-8s %14s %12s %14s\n' "$label" nginx "$nginx_rps" "$nginx_p99" ""
done
printf '\n(wrk -t2, %ss per run, nginx %s worker(s), berthd one thread, all on %s cores of this machine)\n' \
    "$duration" "$nginx_workers" "$(nproc)"
