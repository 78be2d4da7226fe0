#!/usr/bin/env bash
# A small page's p99 idle, while 50 MB deploys run (five incompressible 10 MB files, decoded, hashed and stored on
# the worker pool, then deleted), and while one deployment is updated back to back next to a store of BLOBS blobs:
# the last figures of serve.sh on their own, for one berthd build, quick enough to compare two builds turn about.
# The deploys and updates come from one keep-alive client each (apiloop.py), which prints how many it completed.
# A benchmark, not a test: run it by hand.
#   BERTHD=build/bench/app/berthd/berthd tests/bench/busy-p99.sh    (DURATION=5 seconds per run, THREADS=2,
#                                                                     BLOBS=10000)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
berthd=${BERTHD:?"BERTHD names the berthd to measure"}
duration=${DURATION:-5}
threads=${THREADS:-2}
blob_count=${BLOBS:-10000}
berth_port=${BERTH_PORT:-18096}
site_host="bench-site.localhost:$berth_port"

source "$top/tests/bench/lib.sh"
install_missing wrk curl python3
start_scratch

p99() { wrk -t2 -c64 -d"${duration}s" --latency -H "Host: $site_host" "http://127.0.0.1:$berth_port/index.html" |
    awk '/^ *99%/ { print $2 }'; }
# p99_beside MODE TARGET: the p99 while apiloop.py works; prints "p99 rounds refused".
p99_beside() {
    "$top/tests/bench/apiloop.py" "$berth_port" "$key" "$1" "$2" >"$work/rounds" &
    local loop=$!
    pids+=("$loop")
    local during
    during=$(p99)
    stop_pid "$loop"
    echo "$during $(cat "$work/rounds")"
}

make_bench_files "$work/site"
big_deploy_json "$work/big.json"
many_blobs_json "$work/many.json" "$blob_count"
key=$("$berthd" key create --data-dir "$work/berth")
start_berthd "$work/berth" --threads "$threads" --max-connections 4000 --max-connections-per-address 0 \
    --api-rate 1000000 # the deploys and updates run back to back, past the API's default limit
wait_for_port "$berth_port"
deploy_json "$work/site.json" bench-site "$work/site/index.html"
api POST /deploy --data-binary "@$work/site.json" >/dev/null
# One deploy first: a refused one would leave only the upload to measure.
"$top/tests/bench/apiloop.py" "$berth_port" "$key" deploy "$work/big.json" --rounds 1 >/dev/null

idle=$(p99)
read -r deploy_p99 deploys deploys_refused <<<"$(p99_beside deploy "$work/big.json")"
api POST /deploy --data-binary "@$work/many.json" >/dev/null
updated=$(api POST /deploy -d '{"slug": "often-updated", "html": "<p>0</p>"}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
read -r update_p99 updates updates_refused <<<"$(p99_beside update "$updated")"
echo "small page p99: idle $idle, during 50 MB deploys $deploy_p99 ($deploys deploys, $deploys_refused refused), during updates next to" \
    "$blob_count blobs $update_p99 ($updates updates, $updates_refused refused) ($threads serving threads, ${duration}s runs)"
