#!/usr/bin/env bash
# A small page's p99 idle and while 50 MB deploys run (five incompressible 10 MB files, decoded, hashed and stored on
# the worker pool), for one berthd build: the third figure of serve.sh on its own, quick enough to compare two builds
# turn about.
# A benchmark, not a test: run it by hand.
#   BERTHD=build/ci/app/berthd/berthd tests/bench/deploy-p99.sh    (DURATION=5 seconds per run, THREADS=2)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
berthd=${BERTHD:?"BERTHD names the berthd to measure"}
duration=${DURATION:-5}
threads=${THREADS:-2}
berth_port=${BERTH_PORT:-18096}
site_host="bench-site.localhost:$berth_port"

source "$top/tests/bench/lib.sh"
install_missing wrk curl python3
start_scratch

p99() { wrk -t2 -c64 -d"${duration}s" --latency -H "Host: $site_host" "http://127.0.0.1:$berth_port/index.html" |
    awk '/^ *99%/ { print $2 }'; }

make_bench_files "$work/site"
big_deploy_json "$work/big.json"
key=$("$berthd" key create --data-dir "$work/berth")
start_berthd "$work/berth" --threads "$threads" --max-connections 4000 --max-connections-per-address 0
wait_for_port "$berth_port"
api POST /deploy -d "{\"slug\": \"bench-site\", \"html\": $(python3 -c 'import json,sys; print(json.dumps(open(sys.argv[1]).read()))' "$work/site/index.html")}" >/dev/null

# One deploy first: a refused one would leave only the upload to measure.
first=$(api POST /deploy --data-binary "@$work/big.json") || { echo "the 50 MB deploy was refused" >&2; exit 1; }
api DELETE "/deploy/$(python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])' <<<"$first")" >/dev/null

idle=$(p99)
(for _ in $(seq 1 20); do
    id=$(api POST /deploy --data-binary "@$work/big.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])' 2>/dev/null) || true
    [ -n "${id:-}" ] && api DELETE "/deploy/$id" >/dev/null
done) &
deployer=$!
pids+=("$deployer")
during=$(p99)
kill "$deployer" 2>/dev/null || true
echo "small page p99: idle $idle, during 50 MB deploys $during ($threads serving threads, ${duration}s runs)"
