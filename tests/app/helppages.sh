#!/usr/bin/env bash
# The manual pages and bash completion written from the programs' --help (cmake/helppages.cmake): both pages render
# without a warning and hold what --help says; the completion completes commands, their second words and options.
#   helppages.sh <berthd binary> <berthd.1> <berthd.bash-completion> [<berth.1>]
set -euo pipefail
berthd=$1 berthd_page=$2 completion=$3 berth_page=${4:-}
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

render() { # a page as man shows it; any warning of man or groff fails
    local warnings
    warnings=$(MANWIDTH=100 man --warnings -l "$1" 2>&1 >/dev/null) || fail "man -l $1 failed"
    [ -z "$warnings" ] || fail "$1 renders with warnings: $warnings"
    MANWIDTH=100 man -l "$1" 2>/dev/null | col -b
}

page=$(render "$berthd_page")
# Every command of `berthd help` has its section, with its --help's options.
while read -r command; do
    grep -qx "berthd $command" <<<"$page" || fail "berthd.1 has no section for '$command'"
done < <("$berthd" help | sed "/^Run /q" | sed -n 's/^  \([a-z-]\+\( [a-z-]\+\)\?\)   \+.*/\1/p' | sed 's/ *$//')
grep -q -- '--update <SLUG|ID>' <<<"$page" || fail "berthd.1 lacks deploy's --update"
grep -q 'BERTH_API_KEY' <<<"$page" || fail "berthd.1 names no BERTH_API_KEY under ENVIRONMENT"
grep -q '^ENVIRONMENT' <<<"$page" || fail "berthd.1 has no ENVIRONMENT"

if [ -n "$berth_page" ]; then
    page=$(render "$berth_page")
    grep -q -- '--data-dir <DIR>' <<<"$page" || fail "berth.1 lacks --data-dir"
    grep -q '^OPTIONS' <<<"$page" || fail "berth.1 has no OPTIONS"
fi

complete_words() { # what the completion offers for the words given, the last one being completed
    bash --norc --noprofile -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _berthd; echo "${COMPREPLY[*]}"' \
        _ "$completion" "$@"
}
expect() { # expect "offered" words...
    local want=$1 got
    shift
    got=$(complete_words "$@")
    [ "$got" = "$want" ] || fail "completing '$*' offered '$got', not '$want'"
}
expect "rollback" berthd ro
expect "restore rename" berthd re
expect "show set" berthd smtp s
expect "--slug --spa" berthd deploy --s
expect "--password" berthd protect --pa
expect "--remove-password" berthd protect --r
expect "--user" berthd key create --us
[ "$failures" -eq 0 ] && echo "help pages: both manual pages and the completion hold what --help says"
exit $((failures > 0))
