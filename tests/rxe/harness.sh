#!/bin/bash
# The VM harness itself, from the host: the command's exit code, stdout and
# stderr come back separately, the current directory is writable at its own
# path, the rest of the host is read-only, and rxe0 is there.
set -u
rdmascn=$1
fail() { echo "FAIL: $*"; exit 1; }
work=$(mktemp -d "$PWD/harness.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"

"$rdmascn" softroce -- sh -c 'echo out; echo err >&2; exit 7' >o 2>e
rc=$?
[ $rc = 7 ] || fail "exit $rc, want 7; stderr: $(cat e)"
[ "$(cat o)" = out ] || fail "stdout '$(cat o)'"
[ "$(cat e)" = err ] || fail "stderr '$(cat e)'"

"$rdmascn" softroce -- sh -c 'echo written >result; touch /etc/rdmascn-probe 2>/dev/null && echo rw; test -e /sys/class/infiniband/rxe0 && echo rxe0; echo "host $(hostname) $(getent hosts "$(hostname)")"' >o 2>e ||
	fail "exit $?: $(cat e)"
[ "$(cat result)" = written ] || fail "writable share did not come back"
grep -qx rw o && fail "host root is writable from the guest"
grep -qx rxe0 o || fail "no rxe0 in the guest"
# A hostname that resolves: Open MPI's mpirun refuses "(none)".
grep -qx 'host rdmascn-vm 127.0.1.1 *rdmascn-vm' o || fail "hostname: $(grep ^host o)"

# Appending to a file keeps what was there (qemu does not reopen our fds).
echo before >log
"$rdmascn" softroce -- echo after >>log || fail "exit $?"
[ "$(cat log)" = "$(printf 'before\nafter')" ] || fail "log: $(cat log)"
echo "harness ok"
