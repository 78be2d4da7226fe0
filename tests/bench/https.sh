#!/usr/bin/env bash
# HTTPS on Berth's HTTP core (berth_benchserver --tls): a 2.7 KB page over 64 keep-alive connections (wrk), and
# the same page with a new connection, so a whole TLS handshake (the hello read for its name, the certificate
# picked, the key exchange), per request (openssl s_time, one connection after the other: wrk counts no requests
# when TLS connections close). With BASE_BUILD_DIR, the same against that build's berth_benchserver, the two taken
# in turn: to compare the HTTPS path before and after a change. Besides requests/s, the server's CPU time per
# request (from /proc), which a busy machine moves much less than the rates. A benchmark, not a test: run it by hand.
#   tests/bench/https.sh                                 (DURATION=10 seconds per run, TURNS=3 runs per server)
#   BASE_BUILD_DIR=/tmp/base/build tests/bench/https.sh  (that build's tests/bench/berth_benchserver must exist)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-"$top/build/bench"} # an existing build directory may be reused
base_build_dir=${BASE_BUILD_DIR:-}
duration=${DURATION:-10}
turns=${TURNS:-3}
port=${BERTH_PORT:-18084} # plain; HTTPS on port + 1; the base build on port + 2 and port + 3

source "$top/tests/bench/lib.sh"
install_missing wrk openssl

cmake -S "$top" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" --target berth_benchserver

start_scratch
make_bench_files "$work/site"
rm -f "$work/site/5mb.bin" "$work/site/50mb.bin"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=localhost \
    -addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null

declare -A https_port=() server_pid=()
serve() { # serve NAME BUILD_DIR PLAIN_PORT
    "$2/tests/bench/berth_benchserver" "$work/site" "$3" --tls "$work/cert.pem" "$work/key.pem" $(($3 + 1)) \
        >/dev/null &
    pids+=($!)
    server_pid[$1]=$!
    https_port[$1]=$(($3 + 1))
    wait_for_port $(($3 + 1))
}
serve this "$build_dir" "$port"
servers=(this)
if [ -n "$base_build_dir" ]; then
    serve base "$base_build_dir" $((port + 2))
    servers=(this base)
fi
ticks_per_second=$(getconf CLK_TCK)
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; } # user and system time of a process

keep_alive() { # keep_alive SERVER: "REQUESTS SECONDS"
    wrk -t2 -c64 -d"${duration}s" "https://127.0.0.1:${https_port[$1]}/index.html" |
        awk '/requests in/ { sub(/s,$/, "", $4); print $1, $4 }'
}

handshakes() { # handshakes SERVER: "REQUESTS SECONDS", each on a new connection (a handshake, one HTTP/1.0 request)
    openssl s_time -connect "127.0.0.1:${https_port[$1]}" -new -time "$duration" -www /index.html 2>/dev/null |
        awk '/connections in .* real seconds/ { print $1, $4 }'
}

# measure SERVER CASE: "REQUESTS_PER_SECOND CPU_MICROSECONDS_PER_REQUEST" of one run
measure() {
    local before requests seconds
    before=$(cpu_ticks "${server_pid[$1]}")
    read -r requests seconds <<<"$($2 "$1")"
    awk -v n="$requests" -v s="$seconds" -v t="$(($(cpu_ticks "${server_pid[$1]}") - before))" -v hz="$ticks_per_second" \
        'BEGIN { printf "%.0f %.0f", n / s, (n > 0 ? t * 1000000 / hz / n : 0) }'
}

printf '\n%-28s %-5s %11s %11s   %s\n' "case" "build" "requests/s" "CPU us/req" "(medians of $turns; each run's rate/CPU)"
for case in "keep-alive, 64 connections|keep_alive" "a handshake per request|handshakes"; do
    IFS='|' read -r label run <<<"$case"
    declare -A rates=() cpus=() each=()
    for ((turn = 0; turn < turns; turn++)); do
        order=("${servers[@]}")
        ((turn % 2 == 0)) || mapfile -t order < <(printf '%s\n' "${servers[@]}" | tac)
        for server in "${order[@]}"; do
            read -r rate cpu <<<"$(measure "$server" "$run")"
            rates[$server]="${rates[$server]:-} $rate"
            cpus[$server]="${cpus[$server]:-} $cpu"
            each[$server]="${each[$server]:-} $rate/$cpu"
        done
    done
    for server in "${servers[@]}"; do
        # shellcheck disable=SC2086 # the runs are words
        printf '%-28s %-5s %11.0f %11.0f  %s\n' "$label" "$server" "$(median ${rates[$server]})" \
            "$(median ${cpus[$server]})" "${each[$server]}"
    done
    unset rates cpus each
done
printf '\n(%ss per run, one serving thread, EC P-256 certificate, all on %s cores of this machine)\n' \
    "$duration" "$(nproc)"
