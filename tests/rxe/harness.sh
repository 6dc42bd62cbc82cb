#!/bin/bash
# The VM harness itself, from the host.  One-shot (`softroce -- CMD`, two
# boots): the command's exit code, stdout and stderr come back separately,
# the current directory is writable at its own path, the rest of the host
# is read-only, rxe0 is there, the guest's hostname resolves, an
# appended file keeps what it had, and a TERM stops the helper and its VM
# at once.  The fixture's VM (`--in DIR`, started
# by rxe.vm_start): the same, plus the environment, the refusal of a
# directory the VM does not share, a command past its --timeout killed,
# its lines back as it writes them, and a pty for it when ours is one.
#
#   harness.sh RDMASCN VMDIR
set -u
rdmascn=$1 vm=$2
. "$(dirname "$0")/tap.sh"
work=$(mktemp -d "$PWD/harness.XXXXXX")
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$work"' EXIT
cd "$work"

probe='echo out; echo err >&2; echo written >result
touch /etc/rdmascn-probe 2>/dev/null && echo rw
test -e /sys/class/infiniband/rxe0 && echo rxe0
echo "host $(hostname) $(getent hosts "$(hostname)")"
echo "env $RDMASCN_HARNESS"
exit 7'
# check WHAT: the probe's output in o and e, its status in rc.
check() {
	[ "$rc" = 7 ] || fail "$1: exit $rc, want 7; stderr: $(cat e)"
	grep -qx out o || fail "$1: stdout '$(cat o)'"
	[ "$(cat e)" = err ] || fail "$1: stderr '$(cat e)'"
	[ "$(cat result)" = written ] || fail "$1: writable share did not come back"
	grep -qx rw o && fail "$1: host root is writable from the guest"
	grep -qx rxe0 o || fail "$1: no rxe0 in the guest"
	# A hostname that resolves: Open MPI's mpirun refuses "(none)".
	grep -qx 'host rdmascn-vm 127.0.1.1 *rdmascn-vm' o || fail "$1: hostname: $(grep ^host o)"
	grep -qx 'env 42' o || fail "$1: RDMASCN_* not passed: $(grep ^env o)"
	rm -f result
}

RDMASCN_HARNESS=42 "$rdmascn" softroce -- sh -c "$probe" >o 2>e
rc=$?; check one-shot
# Appending to a file keeps what was there (qemu does not reopen our fds).
# And a TERM to the helper (a CI job's timeout) stops it and its VM at
# once, with 143, while the command still runs.
echo before >log
"$rdmascn" softroce -- sh -c 'echo after; sleep 300' >>log 2>e &
helper=$!
for _ in $(seq 600); do grep -qx after log && break; sleep 0.2; done
grep -qx after log || { kill $helper; fail "the command never started: $(cat e)"; }
start=$SECONDS
kill -TERM $helper
wait $helper
rc=$?
[ $rc = 143 ] || fail "TERM to the helper: exit $rc, want 143; $(cat e)"
[ $((SECONDS - start)) -lt 30 ] || fail "TERM to the helper took $((SECONDS - start)) s"
# Nothing said but qemu's own line ("terminating on signal 15").
grep -v '^qemu-system-[^:]*: terminating on signal' e &&
	fail "TERM to the helper: stderr: $(cat e)"
[ "$(cat log)" = "$(printf 'before\nafter')" ] || fail "log: $(cat log)"
ok "one-shot VMs"

RDMASCN_HARNESS=42 "$rdmascn" softroce --in "$vm" -- sh -c "$probe" >o 2>e
rc=$?; check "--in"
(cd / && "$rdmascn" softroce --in "$vm" -- true) >o 2>e
rc=$?
[ $rc = 3 ] || fail "--in from / (not shared): exit $rc, want 3"
grep -q "the current directory / is not shared with the VM at $vm" e ||
	fail "--in from /: $(cat e)"
start=$SECONDS
"$rdmascn" softroce --timeout 2 --in "$vm" -- sleep 60 >o 2>e
rc=$?
[ $rc = 3 ] || fail "--in past --timeout: exit $rc, want 3"
grep -q "did not finish within its time: killed in the VM" e ||
	fail "--in past --timeout: $(cat e)"
[ $((SECONDS - start)) -lt 40 ] || fail "--in past --timeout took $((SECONDS - start)) s"
# The VM serves on after a killed command.
"$rdmascn" softroce --in "$vm" -- true || fail "--in after a kill: exit $?"
ok "the fixture's VM (--in)"
# The command's lines come back as it writes them, not at its end.
"$rdmascn" softroce --in "$vm" -- sh -c 'echo first; sleep 8; echo second' \
	>o 2>e &
helper=$!
for _ in $(seq 50); do grep -qx first o && break; sleep 0.1; done
grep -qx first o && ! grep -q second o ||
	{ kill $helper; fail "--in: the first line was not back within 5 s: '$(cat o)'"; }
wait $helper || fail "--in, lines as they come: exit $?; $(cat e)"
[ "$(cat o)" = "$(printf 'first\nsecond')" ] || fail "--in: stdout '$(cat o)'"
ok "--in: the command's lines back as it writes them"
# On a terminal (script(1) gives us one) the command has one, of its
# size; to a file it has none (the probe above).
tty_probe='test -t 1 && echo "tty $(stty size)"; test -t 1 || echo no tty'
script -qec "stty rows 33 cols 101; $(printf '%q ' "$rdmascn" softroce \
	--in "$vm" -- sh -c "$tty_probe")" /dev/null </dev/null >o 2>e
rc=$?
[ $rc = 0 ] && [ "$(tr -d '\r' <o)" = "tty 33 101" ] ||
	fail "--in on a terminal: exit $rc, '$(cat o)', stderr '$(cat e)'"
"$rdmascn" softroce --in "$vm" -- sh -c "$tty_probe" >o 2>e
[ "$(cat o)" = "no tty" ] || fail "--in to a file: '$(cat o)'"
ok "--in on a terminal: the command has a pty of its size; to a file none"
echo "harness ok"
