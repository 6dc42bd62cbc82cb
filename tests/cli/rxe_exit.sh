#!/bin/bash
# The device scripts' exit status is their checks': a script that
# sources tests/rxe/lib.sh and sets the EXIT trap a device script sets
# (each such trap line in RXE-DIR) exits 1 when a check fails and 0 when
# all pass.  A trap that began with `[ "$BASHPID" = $$ ] || exit` read $?
# after that test (0), so every failed device test passed.  Host only:
# none of it needs the VM.
#
#   rxe_exit.sh RXE-DIR
set -u
rxe=$(cd "$1" && pwd)
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0 n=0

# try NAME TRAP-LINE LAST WANT: a script with TRAP-LINE, a passing check
# and then LAST; it must exit WANT.
try() {
	local got
	printf '%s\n' ". '$rxe/lib.sh'" "$2" 'ok "first"' "$3" >"$tmp/t.sh"
	bash "$tmp/t.sh" >"$tmp/out" 2>&1
	got=$?
	n=$((n + 1))
	if [ "$got" != "$4" ]; then
		echo "FAIL: $1, then '$3': exit $got, want $4"
		cat "$tmp/out"
		fails=$((fails + 1))
	fi
}

try "lib.sh's own trap" '' 'fail "second"' 1
try "lib.sh's own trap" '' 'true' 0
try "lib.sh's own trap" '' 'exit 3' 3
while IFS= read -r l; do
	where=${l%%:trap *}
	line=trap${l#*:trap}
	try "$where" "$line" 'fail "second"' 1
	try "$where" "$line" 'true' 0
done <<<"$(grep -Hn "^trap '.*records_ok" "$rxe"/*.sh | grep -v '/lib\.sh:')"
[ $n -gt 5 ] || { echo "FAIL: only $n scripts tried (no trap lines in $rxe?)"; fails=$((fails + 1)); }
[ $fails = 0 ] || exit 1
echo "PASS: $n scripts: a failed check exits 1, passed ones 0"
