#!/usr/bin/env bash
# A small page's p99 idle, while 50 MB deploys run (five incompressible 10 MB files, decoded, hashed and stored on
# the worker pool, then deleted), while one deployment is updated back to back next to a store of BLOBS blobs, and
# while deploys of SMALL new files of about 140 bytes run (a static site generator's output, every blob new):
# the last figures of serve.sh on their own, for one berthd build, quick enough to compare two builds turn about.
# The deploys and updates come from one keep-alive client each (apiloop.py), which prints how many it completed.
# A benchmark, not a test: run it by hand.
#   BERTHD=build/bench/app/berthd/berthd tests/bench/busy-p99.sh    (DURATION=5 seconds per window, THREADS=2,
#                                                                     BLOBS=10000, ROUNDS=7 pairs of windows,
#                                                                     SMALL=10000)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
berthd=${BERTHD:?"BERTHD names the berthd to measure"}
duration=${DURATION:-5}
threads=${THREADS:-2}
blob_count=${BLOBS:-10000}
rounds=${ROUNDS:-7}
small_count=${SMALL:-10000}
berth_port=${BERTH_PORT:-18096}
site_host="bench-site.localhost:$berth_port"

source "$top/tests/bench/lib.sh"
install_missing wrk curl python3
start_scratch

p99() { wrk_run "$berth_port" "$site_host" /index.html 64 "$duration" | awk '{ print $3 }'; }

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

read -r idle deploy_p99 deploys deploys_refused deploy_pairs <<<"$(p99_in_turn "$rounds" p99 deploy "$work/big.json")"
api POST /deploy --data-binary "@$work/many.json" >/dev/null
updated=$(api POST /deploy -d '{"slug": "often-updated", "html": "<p>0</p>"}' |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
read -r idle_store update_p99 updates updates_refused update_pairs <<<"$(p99_in_turn "$rounds" p99 update "$updated")"
read -r idle_small small_p99 smalls smalls_refused small_pairs <<<"$(p99_in_turn "$rounds" p99 small "$small_count")"
echo "small page p99, medians of $rounds windows each ($threads serving threads, ${duration}s windows):"
echo "  during 50 MB deploys: $deploy_p99 ms against $idle ms idle, $(ratio "$deploy_p99" "$idle")x" \
    "($deploys deploys, $deploys_refused refused; idle/busy in turn:$deploy_pairs)"
echo "  during updates next to $blob_count blobs: $update_p99 ms against $idle_store ms idle," \
    "$(ratio "$update_p99" "$idle_store")x ($updates updates, $updates_refused refused; idle/busy in turn:$update_pairs)"
echo "  during deploys of $small_count new files of 140 bytes: $small_p99 ms against $idle_small ms idle," \
    "$(ratio "$small_p99" "$idle_small")x ($smalls deploys, $smalls_refused refused; idle/busy in turn:$small_pairs)"
