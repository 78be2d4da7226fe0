#!/usr/bin/env bash
# Berth on a fresh Debian 12 machine: install what is missing, build, then run Berth or its tests.
#
#   packaging/setup.sh run [berth options]   install, build, start Berth (the dashboard when a display
#                                            is available, else the headless berthd)
#   packaging/setup.sh test                  install, build, run the whole test suite
#   packaging/setup.sh build | deps          only build, or only install packages
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# `run` builds the release preset; `test` builds the ci preset (the same, with every warning an error).
build_dir="$top/build/release"
preset=release
if [ "${1:-run}" = test ]; then
    build_dir="$top/build/ci"
    preset=ci
fi

# Debian 12 packages needed to build and run Berth.
build_packages=(
    cmake ninja-build g++ pkg-config libsodium-dev
    qt6-base-dev qt6-httpserver-dev qt6-websockets-dev libqt6sql6-sqlite qt6-l10n-tools qt6-tools-dev qt6-tools-dev-tools libgl-dev qt6-svg-dev
)
# The dashboard's Traffic view: a chart of views and visitors per day (Qt Charts needs Qt's OpenGL modules, which
# Debian 12's qt6-charts-dev does not pull in).
build_packages+=(qt6-charts-dev libqt6opengl6-dev)
# Mailing sign-in codes (SMTP with STARTTLS or TLS).
build_packages+=(libcurl4-openssl-dev)
# Brotli and zstd variants of text files, made when a site is deployed.
build_packages+=(libbrotli-dev libzstd-dev)
# berthd backup: SQLite's online backup API.
build_packages+=(libsqlite3-dev)
# QR codes of sites' addresses (dashboard and `berthd qr`); HTTPS (berthd serve --tls-cert) checks its key with OpenSSL.
build_packages+=(libqrencode-dev libssl-dev)
# Qt's own words in the dashboard (standard buttons, shortcut names) in the user's language.
build_packages+=(qt6-translations-l10n)
# Sharing on the local network: mDNS names through the Avahi daemon.
build_packages+=(libavahi-client-dev)
# PostgreSQL as the store (berthd serve --database postgresql://...): QtSql's QPSQL driver.
build_packages+=(libqt6sql6-psql)
# Extra packages the test suite needs: clang and its runtime for the libFuzzer target, valgrind for
# the memory checks of the connection paths.
test_packages=(
    clang libclang-rt-14-dev valgrind
)
# The formatting check: every .cpp and .h as .clang-format says (Debian 12's clang-format 14).
test_packages+=(clang-format)
# The wall-clock step test: libfaketime moves one process's wall clock, the monotonic clock left alone.
test_packages+=(faketime)
# The LAN test: two network namespaces, each with its own D-Bus and Avahi daemons.
test_packages+=(dbus avahi-daemon avahi-utils iproute2 curl bc)

# The dashboard's CTest check of its AppStream metadata.
test_packages+=(appstream)
# The manual pages render without a warning (man -l --warnings).
test_packages+=(man-db)

# The browser tests: Debian's Chromium driven by playwright-core (pinned in tests/browser/package-lock.json).
test_packages+=(chromium)

# The QR tests read codes back with zbarimg; the HTTPS tests make their certificates with openssl and fetch with curl.
test_packages+=(zbar-tools openssl curl)
# The documentation test reads JSON answers in its examples with jq.
test_packages+=(jq)
# The access log tests (and an example in docs/operations.md) read the log back with GoAccess.
test_packages+=(goaccess)
# The metrics test checks GET /metrics with promtool, which comes with the prometheus package.
test_packages+=(prometheus)

# The sign-in tests: a real SMTP server on loopback (Debian's /usr/bin/python3 -m aiosmtpd).
test_packages+=(python3-aiosmtpd)
# The ACME tests: pebble, a real ACME server, with pebble-challtestsrv as its DNS on loopback.
test_packages+=(pebble)

# The PostgreSQL runs of the HTTP suites: a private cluster made with initdb and pg_ctl from the folder that
# tests/CMakeLists.txt finds (BERTH_POSTGRESQL_BINDIR; runuser, from util-linux, runs them as nobody when the tests
# run as root).
test_packages+=(postgresql-15 util-linux)

install_missing() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "setup: installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# Node.js and npm for the browser tests: Debian's, unless a Node.js with its own npm is there already (such
# as NodeSource's, whose nodejs package conflicts with Debian's npm).
install_node() {
    command -v node >/dev/null && command -v npm >/dev/null && return 0
    install_missing nodejs npm
}

# playwright-core into tests/browser/node_modules, exactly as the lock file says; likewise the OpenAPI validator
# (tests/openapi), the official MCP SDK client (tests/mcp) and the MCP conformance suite with the Node 22 it needs
# (tests/mcp-conformance: Node 22 as an npm package, a binary of about 190 MB in that folder only).
install_browser_test_modules() {
    (cd "$top/tests/browser" && npm ci --no-audit --no-fund)
    (cd "$top/tests/openapi" && npm ci --no-audit --no-fund)
    (cd "$top/tests/mcp" && npm ci --no-audit --no-fund)
    (cd "$top/tests/mcp-conformance" && npm ci --no-audit --no-fund)
}

# Runs a step and prints its wall time, so that a CI log shows where its 30 minutes go.
timed() {
    local start=$SECONDS status=0
    "$@" || status=$?
    echo "setup: $1 took $((SECONDS - start)) s"
    return $status
}

build() {
    cmake --preset "$preset" -S "$top" >/dev/null
    cmake --build "$build_dir" --parallel "$(nproc)"
}

# The bounded fuzz run first (its chatter goes to a log), then the ASan/UBSan run (likewise), then CTest, so the
# suite's summary closes the output.
# Every tracked .cpp and .h formatted as .clang-format says; the files that are not are named.
check_format() {
    local unformatted
    unformatted=$(cd "$top" && git ls-files '*.cpp' '*.h' | grep -v '/node_modules/' \
        | xargs clang-format --dry-run -Werror 2>&1 | grep -oE '^[^: ]+\.(cpp|h)' | sort -u || true)
    [ -z "$unformatted" ] && { echo "setup: formatting: every file follows .clang-format"; return 0; }
    echo "setup: formatting: these files do not follow .clang-format (run clang-format -i on them):"
    echo "$unformatted" | sed 's/^/  /'
    return 1
}

run_tests() {
    local status=0 fuzz_log="$top/build/fuzz-run.log"
    check_format || status=1
    echo "setup: fuzzing every parser, a few seconds each (log: $fuzz_log)"
    if timed "$top/tests/fuzz/run-fuzz.sh" > "$fuzz_log" 2>&1; then
        grep -E '^fuzz: .*no finding|^setup: .* took' "$fuzz_log" || true
    else
        status=1
        # The targets' summaries, or (when none ran, e.g. the fuzz build failed) the end of the log.
        grep -E '^fuzz: ' "$fuzz_log" | tail -n 40 || tail -n 40 "$fuzz_log"
        echo "setup: the fuzzers found a problem (see $fuzz_log; inputs in $top/build/fuzz-artifacts)"
    fi
    # The front door, site serving, API and parser suites again, built with AddressSanitizer and
    # UndefinedBehaviorSanitizer in their own build directory (build/asan): any memory error, leak or undefined
    # behaviour fails. The whole suite that way does not fit CI's 30 minutes beside the release run (README,
    # "Sanitizers"): tests/sanitize/run-asan.sh runs it.
    echo "setup: the serving, API and parser suites under ASan and UBSan (build/asan)"
    timed "$top/tests/sanitize/run-asan.sh" --ci >"$top/build/asan-run.log" 2>&1 || { status=1; tail -n 60 "$top/build/asan-run.log"; }
    grep -E 'tests passed|tests failed|^setup: .* took' "$top/build/asan-run.log" || true
    (cd "$build_dir" && export QT_QPA_PLATFORM=offscreen && timed ctest --output-on-failure --parallel "$(nproc)" --timeout 300) || status=$?
    return $status
}

command=${1:-run}
[ $# -gt 0 ] && shift
case "$command" in
    deps)
        install_missing "${build_packages[@]}" "${test_packages[@]}"
        install_node
        install_browser_test_modules
        ;;
    build) install_missing "${build_packages[@]}"; build ;;
    run)
        install_missing "${build_packages[@]}"
        build
        # The dashboard where there is a desktop to show it on; the headless server otherwise.
        if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
            exec "$build_dir/app/berth/berth" "$@"
        fi
        exec "$build_dir/app/berthd/berthd" "$@"
        ;;
    test)
        timed install_missing "${build_packages[@]}" "${test_packages[@]}"
        timed install_node
        timed install_browser_test_modules
        timed build
        run_tests
        ;;
    *) echo "usage: $0 [run|test|build|deps]" >&2; exit 2 ;;
esac
