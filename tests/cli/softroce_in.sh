#!/bin/bash
# `rdmascn softroce --in DIR` from the host's side, with no VM: a stand-in
# for the guest (a process named qemu-fake as the VM, a loop on this host
# running each job as the guest's loop does) and the real helper.  The
# command's lines come back as it writes them, not at its end; with our
# stdout a terminal (script(1) gives one) the command has one too, of
# the terminal's size, its stderr in it only if ours is a terminal as
# well; with a pipe or a file it has none.  tests/rxe/harness.sh checks
# the same in the real VM.
#   softroce_in.sh RDMASCN
set -u
rdmascn=$1
command -v script >/dev/null || { echo "no script(1): skipped"; exit 77; }
tmp=$(mktemp -d)
fake= loop=
# A subshell (a background one killed early) inherits this trap and
# would run it: only the script itself cleans up.
trap '[ "$BASHPID" = $$ ] || exit; [ -n "$loop" ] && kill $loop; [ -n "$fake" ] && kill $fake; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }

vm=$tmp/vm
mkdir -p "$vm/vm0/ctl/jobs"
: >"$vm/.rdmascn-softroce"
printf 'rdmascn_rw0 %s\n' "$tmp" >"$vm/vm0/ctl/shares"
cp /bin/sleep "$tmp/qemu-fake"
"$tmp/qemu-fake" 120 &
fake=$!
echo $fake >"$vm/vm0/qemu.pid"
# The guest's loop (rdmascn-softroce --start), on this host.
guest() {
	local j
	while [ -d "$vm/vm0/ctl/jobs" ] && kill -0 $fake 2>/dev/null; do
		for j in "$vm"/vm0/ctl/jobs/*; do
			[ -e "$j/job.sh" ] && [ ! -e "$j/taken" ] || continue
			: >"$j/taken"
			(setsid bash "$j/job.sh" </dev/null >"$j/out" 2>"$j/err"
			 echo $? >"$j/rc.new"; mv "$j/rc.new" "$j/rc") &
		done
		sleep 0.1
	done
}
guest &
loop=$!
cd "$tmp" || exit 1

# As it goes: the first line is back while the command still runs,
# i.e. before its second line, 6 s later.  No bound of its own on when
# (5 s failed twice on a loaded CI host: the ASan tree's copy beside the
# sanitized device test's VM took more than 2.5 s once, the normal
# tree's more than 5 s beside the device tests); 60 s only ends a hang.
"$rdmascn" softroce --in "$vm" -- sh -c \
	'echo first; echo e1 >&2; sleep 6; echo second; exit 5' >o 2>e &
helper=$!
for _ in $(seq 600); do grep -qx first o && break; sleep 0.1; done
# (What the job's directory held, to tell a slow host from a lost job:
# it failed once beside rxe2.pair's two VMs booting, with nothing back.)
grep -qx first o || fail "the first line was not back within 60 s: '$(cat o)';" \
	"stderr '$(cat e)'; helper $(kill -0 $helper 2>/dev/null && echo running || echo gone);" \
	"guest loop $(kill -0 $loop 2>/dev/null && echo running || echo gone);" \
	"jobs: $(cd "$vm/vm0/ctl/jobs" 2>/dev/null && ls -l --time-style=+%T -- */ 2>&1 | tr '\n' ' ')"
grep -q second o && fail "the first line came back only with the last"
grep -qx e1 e || fail "stderr's first line was not back: '$(cat e)'"
wait $helper
rc=$?
[ $rc = 5 ] || fail "exit $rc, want 5; $(cat e)"
[ "$(cat o)" = "$(printf 'first\nsecond')" ] || fail "stdout: '$(cat o)'"
[ "$(cat e)" = e1 ] || fail "stderr: '$(cat e)'"
ok "lines back as the command writes them; exit 5, stdout and stderr apart"

# One line: script(1) runs its command with $SHELL, which may be dash,
# and printf %q writes a newline as bash's $'\n'.
probe='test -t 1 && echo "out tty $(stty size)"; test -t 1 || echo out no tty;'
probe+=' test -t 2 && echo err tty >&2; test -t 2 || echo err no tty >&2; exit 4'
"$rdmascn" softroce --in "$vm" -- sh -c "$probe" >o 2>e
rc=$?
[ $rc = 4 ] && [ "$(cat o)" = "out no tty" ] && [ "$(cat e)" = "err no tty" ] ||
	fail "to files: exit $rc, stdout '$(cat o)', stderr '$(cat e)'"
"$rdmascn" softroce --in "$vm" -- sh -c "$probe" 2>e | cat >o
[ "$(cat o)" = "out no tty" ] || fail "to a pipe: '$(cat o)'"
ok "to a file or a pipe: no terminal, the bytes as written"

# Our stdout and stderr a terminal of 33 rows and 101 columns: so is
# the command's; its exit status comes through.
script -qec "stty rows 33 cols 101; $(printf '%q ' "$rdmascn" softroce \
	--in "$vm" -- sh -c "$probe")" /dev/null </dev/null >o 2>e
rc=$?
tr -d '\r' <o >o2
[ $rc = 4 ] && grep -qx 'out tty 33 101' o2 && grep -qx 'err tty' o2 ||
	fail "on a terminal: exit $rc, '$(cat o2)', stderr '$(cat e)'"
# Its output as the command wrote it, plus the outer terminal's \r.
grep -q $'\r\r' o && fail "the command's pty added \\r: $(od -c o | head)"
ok "on a terminal: the command's stdout and stderr are one, 33x101, exit 4"
# Our stderr a file: the command's stays a stream of its own.
script -qec "$(printf '%q ' "$rdmascn" softroce --in "$vm" -- sh -c \
	"$probe") 2>$tmp/e2" /dev/null </dev/null >o
rc=$?
tr -d '\r' <o >o2
[ $rc = 4 ] && grep -q '^out tty ' o2 && ! grep -q err o2 &&
	[ "$(cat e2)" = "err no tty" ] ||
	fail "stdout a terminal, stderr a file: exit $rc, '$(cat o2)', stderr '$(cat e2)'"
ok "stdout a terminal, stderr a file: the command's stderr to the file"
