#!/usr/bin/env bash
# Berth's HTTP core against nginx, serving the same files on loopback: requests/s and throughput for a small page,
# a 5 MB and a 50 MB file, measured with wrk. A benchmark, not a test: run it by hand.
#   tests/bench/serve-files.sh            (DURATION=10 seconds per run, NGINX_WORKERS=1 by default)
# Berth's HttpService runs on one thread, so nginx gets one worker too unless NGINX_WORKERS says otherwise.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir="$top/build/bench"
duration=${DURATION:-10}
nginx_workers=${NGINX_WORKERS:-1}
berth_port=${BERTH_PORT:-18080}
nginx_port=${NGINX_PORT:-18081}

install_missing() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}
install_missing nginx-light wrk

cmake -S "$top" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" --target berth_benchserver

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# The files: a 2.7 KB page (served from memory by Berth), 5 MB and 50 MB files (streamed from disk by Berth).
mkdir -p "$work/site" "$work/nginx/logs"
{
    printf '<!doctype html><html><head><meta charset="utf-8"><title>Berth</title></head><body>\n'
    for i in $(seq 1 40); do printf '<p>Paragraph %02d of a small static page, about sixty bytes.</p>\n' "$i"; done
    printf '</body></html>\n'
} > "$work/site/index.html"
head -c 5000000 /dev/urandom > "$work/site/5mb.bin"
head -c 50000000 /dev/urandom > "$work/site/50mb.bin"
chmod -R a+rX "$work" # nginx's workers run as nobody

cat > "$work/nginx/nginx.conf" <<EOF
worker_processes $nginx_workers;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    types { text/html html; application/octet-stream bin; }
    client_body_temp_path $work/nginx/body;
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/site;
        index index.html;
    }
}
EOF

nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' &
pids+=($!)
"$build_dir/tests/bench/berth_benchserver" "$work/site" "$berth_port" >/dev/null &
pids+=($!)

wait_for() {
    for _ in $(seq 1 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "server on port $1 did not start" >&2
    return 1
}
wait_for "$nginx_port"
wait_for "$berth_port"

# Both must answer 200 with the file's length before anything is measured.
check() {
    local port=$1 path=$2 expected=$3 head
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    printf 'HEAD %s HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n' "$path" >&3
    head=$(tr -d '\r' <&3)
    exec 3<&-
    if ! grep -q '^HTTP/1.1 200' <<<"$head" || ! grep -qi "^content-length: $expected\$" <<<"$head"; then
        echo "port $port $path: not a 200 of $expected bytes:" >&2
        echo "$head" >&2
        exit 1
    fi
}
for port in "$berth_port" "$nginx_port"; do
    check "$port" /index.html "$(stat -c %s "$work/site/index.html")"
    check "$port" /5mb.bin 5000000
    check "$port" /50mb.bin 50000000
done

# Prints "requests/s throughput" for one wrk run.
measure() {
    local port=$1 path=$2 connections=$3
    wrk -t2 -c"$connections" -d"${duration}s" "http://127.0.0.1:$port$path" |
        awk '/Requests\/sec/ { rps = $2 } /Transfer\/sec/ { tput = $2 } END { printf "%s %s", rps, tput }'
}

printf '\n%-16s %-12s %14s %14s\n' "file" "server" "requests/s" "transfer/s"
for case in "/index.html 64 small page" "/5mb.bin 8 5 MB" "/50mb.bin 4 50 MB"; do
    read -r path connections label <<<"$case"
    for server in berth nginx; do
        port=$berth_port
        [ "$server" = nginx ] && port=$nginx_port
        read -r rps tput <<<"$(measure "$port" "$path" "$connections")"
        printf '%-16s %-12s %14s %14s\n' "$label" "$server" "$rps" "$tput"
    done
done
printf '\n(wrk -t2, %ss per run, nginx %s worker(s), Berth one thread, all on %s cores of this machine)\n' \
    "$duration" "$nginx_workers" "$(nproc)"
