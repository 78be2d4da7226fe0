# shellcheck shell=bash disable=SC2154 # berthd, berth_port, key and berthd_prefix are the sourcing script's
# Shared by the benchmark scripts: packages, a scratch directory with cleanup, berthd and nginx on loopback, the
# management API, waiting for ports, and wrk runs. Source it, then call start_scratch before anything is started.

# start_scratch: `work` is a new scratch directory; every process id added to `pids` is stopped, and the directory
# removed, when the script exits.
start_scratch() {
    work=$(mktemp -d)
    pids=()
    trap stop_scratch EXIT
}

stop_scratch() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}

stop_pid() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }

rss_mb() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }

# start_berthd DATA_DIR [serve options...]: `$berthd serve` on 127.0.0.1:$berth_port, run through the optional
# `berthd_prefix` command (e.g. taskset; start_nginx has `nginx_prefix`); sets `berth_pid` and adds it to `pids`.
# Does not wait for the port.
start_berthd() {
    local data=$1
    shift
    ${berthd_prefix[@]+"${berthd_prefix[@]}"} "$berthd" serve --listen "127.0.0.1:$berth_port" --data-dir "$data" \
        "$@" >/dev/null 2>&1 &
    berth_pid=$!
    pids+=("$berth_pid")
}

api() { # api METHOD PATH [curl args...]: the management API of the berthd on $berth_port, with the API key $key
    local method=$1 path=$2
    shift 2
    curl -sf -X "$method" "http://127.0.0.1:$berth_port$path" -H "Host: localhost:$berth_port" \
        -H "Authorization: Bearer $key" -H 'Content-Type: application/json' "$@"
}

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

# A small page (about 2.7 KB) and incompressible 5 MB and 50 MB files, the same for every server.
make_bench_files() {
    local dir=$1
    mkdir -p "$dir"
    {
        printf '<!doctype html><html><head><meta charset="utf-8"><title>Berth</title></head><body>\n'
        for i in $(seq 1 40); do printf '<p>Paragraph %02d of a small static page, about sixty bytes.</p>\n' "$i"; done
        printf '</body></html>\n'
    } > "$dir/index.html"
    head -c 5000000 /dev/urandom > "$dir/5mb.bin"
    head -c 50000000 /dev/urandom > "$dir/50mb.bin"
    chmod -R a+rX "$dir" && chmod a+x "$(dirname "$dir")" # nginx's workers run as nobody
}

# start_nginx ROOT PORT WORKERS: serves ROOT with sendfile; appends its pid to `pids`. No access log, unless
# `nginx_access_log` is `on`: then the combined format into $work/nginx/logs/access.log, buffered (64 KB, flushed
# every second), as a busy site would set it.
start_nginx() {
    local root=$1 port=$2 workers=$3
    mkdir -p "$work/nginx/logs"
    cat > "$work/nginx/nginx.conf" <<CONF
worker_processes $workers;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
    $( [ "${nginx_access_log:-off}" = on ] && echo "access_log $work/nginx/logs/access.log combined buffer=64k flush=1s;" \
        || echo "access_log off;")
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    types { text/html html; application/octet-stream bin; }
    client_body_temp_path $work/nginx/body;
    server {
        listen 127.0.0.1:$port;
        root $root;
        index index.html;
    }
}
CONF
    ${nginx_prefix[@]+"${nginx_prefix[@]}"} nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' &
    pids+=($!)
}

# deploy_json OUT SLUG FILE...: a deploy body with the given files (paths are their base names); an empty SLUG
# leaves it out, and each deploy of the body gets a generated one.
deploy_json() {
    local out=$1 name=$2
    shift 2
    python3 - "$out" "$name" "$@" <<'PY'
import base64, json, os, sys
out, slug, paths = sys.argv[1], sys.argv[2], sys.argv[3:]
files = [{"path": os.path.basename(p), "encoding": "base64",
          "content": base64.b64encode(open(p, "rb").read()).decode()} for p in paths]
json.dump({"slug": slug, "files": files} if slug else {"files": files}, open(out, "w"))
PY
}

# big_deploy_json OUT: a 50 MB deploy (about 67 MB of base64 JSON) that the limits accept: five incompressible files
# of 10,000,000 bytes (the per-file limit is 10 MiB, the total 50 MiB).
big_deploy_json() {
    local parts=()
    for i in 1 2 3 4 5; do
        head -c 10000000 /dev/urandom > "$work/big-$i.bin"
        parts+=("$work/big-$i.bin")
    done
    # No slug: a deploy cut off at the end of a measurement still finishes, and must not take the next one's slug.
    deploy_json "$1" "" "${parts[@]}"
    rm "${parts[@]}"
}

# many_blobs_json OUT COUNT: one deployment of COUNT small text files, each a blob of its own.
many_blobs_json() {
    python3 - "$1" "$2" <<'PY'
import json, sys
out, count = sys.argv[1], int(sys.argv[2])
files = [{"path": "f%05d.txt" % i, "content": "blob %d" % i} for i in range(count)]
json.dump({"slug": "many-blobs", "files": files}, open(out, "w"))
PY
}

# make_deploy_folder DIR: a 50 MB site of new random content: index.html and 1,000 incompressible files of 50 KB
# (51,200 bytes) in ten folders, files/00/f0000.bin to files/09/f0999.bin.
make_deploy_folder() {
    python3 - "$1" <<'PY'
import os, sys
root = sys.argv[1]
os.makedirs(root, exist_ok=True)
with open(os.path.join(root, "index.html"), "w") as page:
    page.write("<!doctype html><title>Deploy benchmark</title><p>1,000 files</p>\n")
for i in range(1000):
    folder = os.path.join(root, "files", "%02d" % (i // 100))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "f%04d.bin" % i), "wb") as out:
        out.write(os.urandom(51200))
PY
}

now_ns() { date +%s%N; }
ms_since() { echo $((($(now_ns) - $1) / 1000000)); } # ms_since START_NS

# start_deploy_bench: builds berthd (RelWithDebInfo, unless $BERTHD names one), starts it on $berth_port in a scratch
# folder with no API rate limit, and sets $berthd and $key (the owner's key).
start_deploy_bench() {
    if [ -z "${BERTHD:-}" ]; then
        cmake -S "$top" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
        cmake --build "$build_dir" --target berthd
    fi
    berthd=${BERTHD:-"$build_dir/app/berthd/berthd"}
    start_scratch
    key=$("$berthd" key create --data-dir "$work/berth")
    start_berthd "$work/berth" --api-rate 1000000
    wait_for_port "$berth_port"
}

# floor_ms DIR: the floor of storing a deploy of DIR on this machine: sha256sum of every file, cp -r, sync (uses $work).
floor_ms() {
    local start
    start=$(now_ns)
    find "$1" -type f -print0 | xargs -0 sha256sum >/dev/null
    cp -r "$1" "$work/copy"
    sync
    ms_since "$start"
    rm -rf "$work/copy"
}

# make_small_files_folder DIR COUNT: a static generator's output: COUNT new HTML files of about 140 bytes (a random
# token in each) in folders of 100, pages/000/p00000.html and on.
make_small_files_folder() {
    python3 - "$1" "$2" <<'PY'
import os, secrets, sys
root, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    folder = os.path.join(root, "pages", "%03d" % (i // 100))
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "p%05d.html" % i), "w") as page:
        page.write("<!doctype html><title>Page %05d</title><p>A small generated page, %s.</p>\n"
                   % (i, secrets.token_hex(24)))
PY
}

# folder_deploy_json OUT SLUG DIR: a deploy body with every file under DIR (paths relative to it), base64.
folder_deploy_json() {
    python3 - "$@" <<'PY'
import base64, json, os, sys
out, slug, root = sys.argv[1:4]
files = []
for folder, _, names in os.walk(root):
    for name in sorted(names):
        path = os.path.join(folder, name)
        files.append({"path": os.path.relpath(path, root), "encoding": "base64",
                      "content": base64.b64encode(open(path, "rb").read()).decode()})
json.dump({"slug": slug, "files": files}, open(out, "w"))
PY
}

wait_for_port() {
    for _ in $(seq 1 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "server on port $1 did not start" >&2
    return 1
}

# check_200 PORT HOST PATH LENGTH: the server must answer HEAD with 200 and that length.
check_200() {
    local port=$1 host=$2 path=$3 expected=$4 head
    exec 3<>"/dev/tcp/127.0.0.1/$port"
    printf 'HEAD %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n' "$path" "$host" >&3
    head=$(tr -d '\r' <&3)
    exec 3<&-
    if ! grep -q '^HTTP/1.1 200' <<<"$head" || ! grep -qi "^content-length: $expected\$" <<<"$head"; then
        echo "port $port $path: not a 200 of $expected bytes:" >&2
        echo "$head" >&2
        exit 1
    fi
}

# wrk_run PORT HOST PATH CONNECTIONS DURATION: prints "requests/s transfer/s p99".
wrk_run() {
    local port=$1 host=$2 path=$3 connections=$4 duration=$5
    wrk -t2 -c"$connections" -d"${duration}s" --latency -H "Host: $host" "http://127.0.0.1:$port$path" |
        awk '/Requests\/sec/ { rps = $2 } /Transfer\/sec/ { tput = $2 } /^ *99%/ { p99 = $2 }
             END { printf "%s %s %s", rps, tput, p99 }'
}

# to_ms WRK_TIME: wrk's 850.00us, 3.74ms or 1.02s as milliseconds.
to_ms() {
    awk -v t="$1" 'BEGIN { v = t + 0; if (t ~ /us$/) v /= 1000; else if (t ~ /[0-9]s$/) v *= 1000; printf "%.2f", v }'
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# p99_in_turn ROUNDS MEASURE MODE TARGET: ROUNDS pairs of windows, a small page's p99 idle and then while apiloop.py
# works (MODE and TARGET as it takes them), taken in turn; MEASURE is a command that prints one wrk p99. From one
# window to the next the p99 of the same load moves by 10 to 20 % (the idle one as much as the other), so one pair
# gives a ratio anywhere from 1.2x to 2x; medians of pairs taken in turn see the same drift on both sides.
# Prints "IDLE BUSY ROUNDS_DONE REFUSED PAIRS": the medians in ms, apiloop.py's rounds and refusals summed, and every
# pair as idle/busy. Seven pairs, the scripts' default: with three, the same build's ratio during 50 MB deploys went
# from 1.19x to 1.74x over eight runs on one 2-core machine; with seven, 1.25x to 1.36x over three.
p99_in_turn() {
    local count=$1 measure=$2 mode=$3 target=$4
    local idles=() busies=() pairs="" done_sum=0 refused_sum=0 idle busy loop done refused
    for ((round = 0; round < count; round++)); do
        idle=$(to_ms "$($measure)")
        "$top/tests/bench/apiloop.py" "$berth_port" "$key" "$mode" "$target" >"$work/rounds" &
        loop=$!
        pids+=("$loop")
        busy=$(to_ms "$($measure)")
        stop_pid "$loop"
        read -r done refused <"$work/rounds"
        idles+=("$idle")
        busies+=("$busy")
        pairs="$pairs $idle/$busy"
        done_sum=$((done_sum + done))
        refused_sum=$((refused_sum + refused))
    done
    echo "$(median "${idles[@]}") $(median "${busies[@]}") $done_sum $refused_sum$pairs"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; } # ratio A B: A / B
