#!/usr/bin/env bash
# Exactness of the traffic figures under load: REQUESTS page views spread over SITES sites from CLIENTS concurrent
# keep-alive clients (so every serving thread counts some), then the sum of the sites' analytics views, the access
# log's lines for those requests, and the requests sent must be the same number. Counting is per serving thread
# without locks; this checks that nothing is lost or counted twice when the per-thread batches are collected.
# A benchmark-style check, not a CI test: run it by hand.
#   tests/bench/traffic-exact.sh    (REQUESTS=10000, SITES=100, CLIENTS=8; BUILD_DIR reuses a build; BERTHD names a
#                                    built berthd)
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=${BUILD_DIR:-"$top/build/bench"}
requests=${REQUESTS:-10000}
sites=${SITES:-100}
clients=${CLIENTS:-8}
berth_port=${BERTH_PORT:-18099}

source "$top/tests/bench/lib.sh"
install_missing curl python3 jq

start_deploy_bench # berthd's access log is on by default: <data dir>/logs/access.log
# The owner's plan (pro) allows 50 sites: room for SITES, applied at the next start.
stop_pid "$berth_pid"
"$berthd" plans set pro --deployments $((sites + 10)) --data-dir "$work/berth" >/dev/null
start_berthd "$work/berth" --api-rate 1000000
wait_for_port "$berth_port"

ids=()
for ((i = 0; i < sites; i++)); do
    ids+=("$(api POST /deploy --data "{\"slug\":\"exact-$i\",\"html\":\"<h1>Site $i</h1>\"}" | jq -r .id)")
done

python3 - "$berth_port" "$requests" "$sites" "$clients" <<'PY'
import http.client, sys, threading
port, total, sites, clients = (int(a) for a in sys.argv[1:5])
failed = []
def client(index):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30) # one keep-alive connection, every site on it
    for n in range(index, total, clients):
        host = f"exact-{n % sites}.localhost:{port}"
        conn.request("GET", "/", headers={"Host": host, "User-Agent": f"Mozilla/5.0 (X11; Linux x86_64) exact/{index}"})
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            failed.append(response.status)
threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
for t in threads: t.start()
for t in threads: t.join()
if failed:
    sys.exit(f"{len(failed)} requests failed: {sorted(set(failed))}")
PY

views_sum() {
    local sum=0 views
    for id in "${ids[@]}"; do
        views=$(api GET "/deploy/$id/analytics" | jq .totals.views)
        sum=$((sum + views))
    done
    echo "$sum"
}
log_lines() { grep -cE '^exact-[0-9]+\.localhost:[0-9]+ .*"GET / HTTP/1\.1" 200 ' "$work/berth/logs/access.log" || true; }
# The serving threads' counts reach the database, and their log lines the file, within about a second: wait for a
# few seconds' worth.
views=0 lines=0
for _ in 1 2 3 4 5 6 7 8 9 10; do
    views=$(views_sum)
    lines=$(log_lines)
    [ "$views" -ge "$requests" ] && [ "$lines" -ge "$requests" ] && break
    sleep 1
done

printf '| Requests sent | Analytics views (sum over %d sites) | Access log lines |\n|---|---|---|\n' "$sites"
printf '| %d | %d | %d |\n' "$requests" "$views" "$lines"
if [ "$views" -ne "$requests" ] || [ "$lines" -ne "$requests" ]; then
    echo "traffic-exact: the figures differ" >&2
    exit 1
fi
echo "traffic-exact: all three agree"
