#!/bin/bash
# LAN sharing for real, on a private LAN of two network namespaces joined by a veth pair (10.77.0.1 and
# 10.77.0.2), each with its own D-Bus and Avahi daemons. Berth serves with --lan in the first ("lanA"); the
# second ("lanB") plays the phone. The machine's own interfaces are never touched.
# Usage: lan_namespaces.sh BERTHD   (as root; exits 77, skipped, without root or the tools)
set -u
berthd=$(readlink -f "$1")

skip() { echo "SKIP: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root (network namespaces)"
for tool in ip unshare nsenter dbus-daemon avahi-daemon avahi-resolve avahi-publish avahi-browse curl; do
    command -v "$tool" >/dev/null || skip "$tool is missing (Debian: iproute2 util-linux dbus avahi-daemon avahi-utils curl)"
done

tag=$$ # unique per run: parallel runs get their own namespaces and interfaces
nsA=berth-lanA-$tag
nsB=berth-lanB-$tag
vethA=bla$tag
vethB=blb$tag
port=18080
work=$(mktemp -d /tmp/berth-lan.XXXXXX)
failures=0

cleanup() {
    # Everything this test started, by process id; then the namespaces (which takes the veth pair with them).
    for file in "$work"/*.pid; do
        [ -f "$file" ] && kill "$(cat "$file")" 2>/dev/null
    done
    sleep 0.3
    for file in "$work"/*.pid; do
        [ -f "$file" ] && kill -9 "$(cat "$file")" 2>/dev/null
    done
    ip netns del "$nsA" 2>/dev/null
    ip netns del "$nsB" 2>/dev/null
    if [ "$failures" -ne 0 ] && [ -f "$work/berthd.log" ]; then
        echo "--- berthd log"; cat "$work"/berthd*.log
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }

ip netns add "$nsA" && ip netns add "$nsB" || skip "cannot create network namespaces"
ip link add "$vethA" type veth peer name "$vethB" || skip "cannot create a veth pair"
ip link set "$vethA" netns "$nsA"
ip link set "$vethB" netns "$nsB"
ip -n "$nsA" addr add 10.77.0.1/24 dev "$vethA"
ip -n "$nsB" addr add 10.77.0.2/24 dev "$vethB"
for pair in "$nsA $vethA" "$nsB $vethB"; do
    set -- $pair
    ip -n "$1" link set lo up
    ip -n "$1" link set "$2" up multicast on
done

# A process that holds a namespace's private /run (own D-Bus and Avahi) so that later commands can enter it.
start_holder() { # NAME NETNS
    mkdir -p /run/dbus /run/avahi-daemon
    ip netns exec "$2" unshare -m --propagation private bash -c '
        mount -t tmpfs none /run/dbus && mount -t tmpfs none /run/avahi-daemon || exit 1
        exec sleep infinity' &
    echo $! >"$work/$1-holder.pid"
}
in_ns() { # NAME command...: runs in that namespace (network and mounts)
    local name=$1; shift
    nsenter -t "$(cat "$work/$name-holder.pid")" -m -n -- "$@"
}
start_daemons() { # NAME
    in_ns "$1" dbus-daemon --system --fork --print-pid >"$work/$1-dbus.pid" || return 1
    in_ns "$1" avahi-daemon -D --no-drop-root --no-chroot || return 1
    for _ in $(seq 50); do
        in_ns "$1" cat /run/avahi-daemon/pid >"$work/$1-avahi.pid" 2>/dev/null && [ -s "$work/$1-avahi.pid" ] && return 0
        sleep 0.1
    done
    return 1
}
start_holder A "$nsA"
start_holder B "$nsB"
sleep 0.3 # the holders mount their tmpfs
start_daemons A || skip "cannot start D-Bus and Avahi in $nsA"
start_daemons B || skip "cannot start D-Bus and Avahi in $nsB"

start_berth() { # LOGNAME
    nsenter -t "$(cat "$work/A-holder.pid")" -m -n -- "$berthd" serve --data-dir "$work/data" --listen 127.0.0.1:$port --threads 2 --lan --site-ports 8100-8199 \
        >"$work/$1.log" 2>&1 &
    echo $! >"$work/berthd.pid"
    for _ in $(seq 100); do
        grep -q "Press Ctrl+C" "$work/$1.log" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}
stop_berth() {
    kill -TERM "$(cat "$work/berthd.pid")"
    wait "$(cat "$work/berthd.pid")" 2>/dev/null
    rm -f "$work/berthd.pid"
}

# Waits up to $2 seconds for a command to succeed.
within() { # SECONDS command...
    local limit=$1; shift
    local tries=$((limit * 5))
    for _ in $(seq "$tries"); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    return 1
}
resolves_to() { # NAME ADDRESS (from lanB)
    [ "$(in_ns B avahi-resolve -4 -n "$1" 2>/dev/null | cut -f2)" = "$2" ]
}
does_not_resolve() { ! resolves_to "$1" 10.77.0.1; }
from_b() { in_ns B curl -s --max-time 5 "$@"; }

start_berth berthd || { failures=1; echo "FAIL: berthd did not start"; exit 1; }
key=$(grep -A1 "Owner API key" "$work/berthd.log" | tail -1)
api() { # METHOD PATH [JSON]
    in_ns A curl -s --max-time 10 -X "$1" "http://127.0.0.1:$port$2" -H "Authorization: Bearer $key" \
        -H 'Content-Type: application/json' ${3:+-d "$3"}
}
id_of() { sed -n 's/.*"id":"\(dep_[A-Za-z0-9]*\)".*/\1/p'; }

grep -q "LAN:   http://berth.local:$port/, http://10.77.0.1:$port/" "$work/berthd.log" \
    && pass "berthd names its LAN addresses" || fail "berthd's banner lacks the LAN addresses"
grep -q "sites at http://<slug>.local:$port/ and on their own ports" "$work/berthd.log" \
    && pass "berthd names the sites' LAN addresses" || fail "berthd's banner lacks the sites' LAN addresses"

# lanB already holds taken-name.local: Berth's site of that slug must take taken-name-2.local.
nsenter -t "$(cat "$work/B-holder.pid")" -m -n -- avahi-publish -a -R taken-name.local 10.77.0.2 >/dev/null 2>&1 &
echo $! >"$work/publish.pid"
within 5 resolves_to taken-name.local 10.77.0.2 || fail "lanB's own name did not resolve"

alpha=$(api POST /deploy '{"slug": "site-alpha", "files": [{"path": "index.html", "content": "ALPHA home"}, {"path": "a.txt", "content": "alpha file"}]}' | id_of)
beta=$(api POST /deploy '{"slug": "site-beta", "files": [{"path": "index.html", "content": "BETA home"}, {"path": "b.txt", "content": "beta file"}]}' | id_of)
taken=$(api POST /deploy '{"slug": "taken-name", "html": "TAKEN home"}' | id_of)
[ -n "$alpha" ] && [ -n "$beta" ] && [ -n "$taken" ] || { fail "deploys failed"; exit 1; }

# mDNS: names resolve from lanB to Berth's address, and a request for the name serves the site.
within 5 resolves_to site-alpha.local 10.77.0.1 && pass "site-alpha.local resolves from lanB" \
    || fail "site-alpha.local does not resolve from lanB"
within 5 resolves_to site-beta.local 10.77.0.1 && pass "site-beta.local resolves" || fail "site-beta.local does not resolve"
[ "$(from_b -H "Host: site-alpha.local:$port" "http://10.77.0.1:$port/")" = "ALPHA home" ] \
    && pass "Host: site-alpha.local:$port serves the site" || fail "Host: site-alpha.local did not serve the site"
[ "$(from_b -o /dev/null -w '%{http_code}' -H "Host: site-alpha.local:$port" "http://10.77.0.1:$port/b.txt")" = 404 ] \
    && pass "site-alpha.local does not serve site-beta's files" || fail "site-alpha.local served another site's file"
within 8 resolves_to taken-name-2.local 10.77.0.1 && pass "a name taken on the network moves to taken-name-2.local" \
    || fail "taken-name-2.local does not resolve"
[ "$(from_b -H "Host: taken-name-2.local:$port" "http://10.77.0.1:$port/")" = "TAKEN home" ] \
    && pass "the suffixed name serves its site" || fail "Host: taken-name-2.local did not serve the site"
in_ns B avahi-browse -rpt _http._tcp 2>/dev/null | grep -q "berth.local;10.77.0.1;$port" \
    && pass "the API is a DNS-SD _http._tcp service at berth.local:$port" || fail "no _http._tcp service for the API"

# The management API from the LAN: keys as ever, agent sessions off unless the owner allows them.
[ "$(from_b -o /dev/null -w '%{http_code}' "http://10.77.0.1:$port/deploys")" = 401 ] \
    && pass "the API from lanB wants a key" || fail "the API from lanB answered without a key"
[ "$(from_b -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" "http://berth.local:$port/deploys" --resolve "berth.local:$port:10.77.0.1")" = 200 ] \
    && pass "the API answers at berth.local with a key" || fail "the API at berth.local refused a key"
[ "$(from_b -o /dev/null -w '%{http_code}' -X POST "http://10.77.0.1:$port/auth/session")" = 403 ] \
    && pass "agent sessions from lanB are refused" || fail "an agent session from lanB was not refused"

# Ports: each site on its own port at Berth's LAN address, as its own origin.
[ "$(from_b http://10.77.0.1:8100/)" = "ALPHA home" ] && pass "site-alpha on :8100" || fail "site-alpha is not on :8100"
[ "$(from_b http://10.77.0.1:8101/b.txt)" = "beta file" ] && pass "site-beta on :8101" || fail "site-beta is not on :8101"
[ "$(from_b -o /dev/null -w '%{http_code}' http://10.77.0.1:8100/b.txt)" = 404 ] \
    && pass "site-beta's files are not reachable on site-alpha's port" || fail "another site's file on :8100"
[ "$(from_b -H "Host: site-beta.local" http://10.77.0.1:8100/)" = "ALPHA home" ] \
    && pass "a site's port ignores Host" || fail "a site's port served by Host"
[ "$(from_b -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $key" http://10.77.0.1:8100/deploys)" = 404 ] \
    && pass "the API is not reachable on a site's port" || fail "the API answered on a site's port"

# Rename moves the name (and keeps the port); delete removes the name and frees the port.
started=$(date +%s.%N)
api PATCH "/deploy/$alpha/slug" '{"slug": "site-gamma"}' >/dev/null
if within 5 resolves_to site-gamma.local 10.77.0.1; then
    pass "rename: site-gamma.local resolves after $(echo "$(date +%s.%N) - $started" | bc 2>/dev/null || echo '?') s"
else
    fail "rename: site-gamma.local does not resolve"
fi
within 5 does_not_resolve site-alpha.local && pass "rename: site-alpha.local is gone" || fail "rename: site-alpha.local still resolves"
[ "$(from_b -H "Host: site-gamma.local:$port" "http://10.77.0.1:$port/a.txt")" = "alpha file" ] \
    && pass "rename: Host: site-gamma.local serves the site" || fail "rename: site-gamma.local does not serve"
[ "$(from_b -o /dev/null -w '%{http_code}' -H "Host: site-alpha.local:$port" "http://10.77.0.1:$port/")" = 421 ] \
    && pass "rename: the old name is not served" || fail "rename: the old name is still served"
[ "$(from_b http://10.77.0.1:8100/)" = "ALPHA home" ] && pass "rename: the site keeps :8100" || fail "rename: :8100 lost the site"

api DELETE "/deploy/$beta" >/dev/null
within 5 does_not_resolve site-beta.local && pass "delete: site-beta.local is gone" || fail "delete: site-beta.local still resolves"
[ "$(from_b -o /dev/null -w '%{http_code}' http://10.77.0.1:8101/)" = 000 ] \
    && pass "delete: :8101 is closed" || fail "delete: :8101 still answers"

# Ports survive a restart; the deleted site's port is given to the next new site.
stop_berth
start_berth berthd2 || { fail "berthd did not restart"; exit 1; }
[ "$(from_b http://10.77.0.1:8100/)" = "ALPHA home" ] && pass "restart: site-gamma still on :8100" || fail "restart: :8100 changed"
[ "$(from_b http://10.77.0.1:8102/)" = "TAKEN home" ] && pass "restart: taken-name still on :8102" || fail "restart: :8102 changed"
api POST /deploy '{"slug": "site-delta", "html": "DELTA home"}' >/dev/null
[ "$(from_b http://10.77.0.1:8101/)" = "DELTA home" ] && pass "a new site gets the freed :8101" || fail "the freed port was not reused"
within 5 resolves_to site-gamma.local 10.77.0.1 && pass "restart: names announced again" || fail "restart: site-gamma.local missing"

# Without an Avahi daemon: said once, and the ports go on working.
stop_berth
kill "$(cat "$work/A-avahi.pid")"; rm -f "$work/A-avahi.pid"
start_berth berthd3 || { fail "berthd did not start without Avahi"; exit 1; }
within 3 grep -q "no Avahi daemon is running" "$work/berthd3.log" \
    && [ "$(grep -c "no Avahi daemon is running" "$work/berthd3.log")" = 1 ] \
    && pass "without Avahi: said once" || fail "without Avahi: not said exactly once"
[ "$(from_b http://10.77.0.1:8100/)" = "ALPHA home" ] && pass "without Avahi: ports still serve" || fail "without Avahi: :8100 silent"
[ "$(from_b -H "Host: site-gamma.local:$port" "http://10.77.0.1:$port/")" = "ALPHA home" ] \
    && pass "without Avahi: Host: site-gamma.local still serves" || fail "without Avahi: the name is not served"
stop_berth

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
