#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Files a hostile or careless hand wrote, each refused with one located
# error (exit 2), never a stack overflow or an attempt that fails late:
#  - depth: 100,000 nested sequences, mappings and parentheses; a
#    100,000-long chain of params each naming the next;
#  - size: a file over 128 MiB (regular, /dev/zero, stdin); params that
#    double at each level (an alias bomb: 2 KB growing to 2^60 bytes),
#    one value past 1 MiB and all of them past 16 MiB;
#  - nodes: 20,000,001 in one sequence;
#  - objects: 1,000,001 entries; a list naming a 100,000-element entry
#    2000 times; references past 10,000,000 in all;
#  - host memory: an mr larger than the host's memory; one over
#    RLIMIT_MEMLOCK without CAP_IPC_LOCK (the kernel would not pin it),
#    the same accepted with the limit lifted.
#
#   hostile.sh RDMASCN
set -u
rdmascn=$1
tmp=$(mktemp -d) || exit 1
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

# refused NAME WANT-REGEX [env...]: validate NAME.yaml exits 2 with one
# stderr line matching WANT-REGEX.
refused() {
	local f=$tmp/$1.yaml want=$2 rc
	"$rdmascn" validate "$f" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc != 2 ]; then
		bad "$1: exit $rc, want 2: $(head -c 300 "$tmp/err")"
	elif [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -Eq "^$f:$want" "$tmp/err"; then
		bad "$1: want '$f:$want', got: $(head -c 300 "$tmp/err")"
	else
		echo "ok $1: $(cut -c1-160 "$tmp/err")"
	fi
}

n=100000
awk -v n=$n 'BEGIN { printf "scenario: deep\nsteps: ";
	for (i = 0; i < n; i++) printf "["; for (i = 0; i < n; i++) printf "]";
	print "" }' >"$tmp/seqs.yaml"
refused seqs '2:71: nesting deeper than 64 levels$'
awk -v n=$n 'BEGIN { printf "scenario: deep\nsteps: ";
	for (i = 0; i < n; i++) printf "{a: "; printf "1";
	for (i = 0; i < n; i++) printf "}"; print "" }' >"$tmp/maps.yaml"
refused maps '2:260: nesting deeper than 64 levels$'
awk -v n=$n 'BEGIN { printf "scenario: deep\nparams: {a: \"${";
	for (i = 0; i < n; i++) printf "("; printf "1";
	for (i = 0; i < n; i++) printf ")"; print "}\"}" }' >"$tmp/parens.yaml"
refused parens "2:13: params.a: '\\$\\{\\({80}\\.\\.\\.\\}': nested deeper than 64$"
awk -v n=$n 'BEGIN { printf "scenario: deep\nparams: {a: \"${";
	for (i = 0; i < n; i++) printf "-"; print "1}\"}" }' >"$tmp/minus.yaml"
refused minus "2:13: params.a: '\\$\\{-{80}\\.\\.\\.\\}': nested deeper than 64$"
awk -v n=$n 'BEGIN { print "scenario: chain"; print "params:";
	for (i = 0; i + 1 < n; i++) printf "  p%d: \"${p%d}\"\n", i, i + 1;
	printf "  p%d: 1\n", n - 1 }' >"$tmp/chain.yaml"
refused chain '66:8: params.p63: params nested deeper than 64 \(p0 -> p1 -> \.\.\. -> p64\)$'

# The same bomb unused: every param is expanded, used or not.
awk 'BEGIN { print "scenario: bomb"; print "params:";
	print "  p0: \"xxxxxxxxxxxxxxxx\"";
	for (i = 1; i <= 60; i++) printf "  p%d: \"${p%d}${p%d}\"\n", i, i - 1, i - 1 }' \
	>"$tmp/bomb.yaml"
refused bomb '20:8: params.p17: the value grows past 1 MiB, the most one value may hold after \$\{\} expansion$'
# Each value under 1 MiB, 40 copies of one: past 16 MiB in all.
awk 'BEGIN { print "scenario: bomb"; print "params:";
	print "  p0: \"xxxxxxxxxxxxxxxx\"";
	for (i = 1; i <= 16; i++) printf "  p%d: \"${p%d}${p%d}\"\n", i, i - 1, i - 1;
	for (i = 0; i < 40; i++) printf "  q%d: \"${p16}\"\n", i }' >"$tmp/total.yaml"
refused total '34:8: params.q14: all values together grow past 16 MiB, the most a file.s \$\{\} may expand to$'
# In a scalar, not a param: each use counts.
awk 'BEGIN { print "scenario: uses"; print "params:";
	print "  p0: \"xxxxxxxxxxxxxxxx\"";
	for (i = 1; i <= 16; i++) printf "  p%d: \"${p%d}${p%d}\"\n", i, i - 1, i - 1;
	printf "contexts: [";
	for (i = 0; i < 40; i++) printf "{id: \"c%d${p15}\", device: any}, ", i;
	print "]" }' >"$tmp/uses.yaml"
refused uses '20:[0-9]+: context .*: all values together grow past 16 MiB'

# too_big NAME CMD...: CMD exits 2 in bounded time with FILE:1:1, and
# in 1 GiB of address space (not under ASan, whose shadow needs more).
vm=1048576
grep -aq __asan_init "$rdmascn" && vm=unlimited
too_big() {
	local name=$1 want rc
	shift
	want="^$name:1:1: the file is longer than 128 MiB, the most a scenario may be\$"
	(ulimit -v $vm; timeout 60 "$@") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc != 2 ] || [ "$(wc -l <"$tmp/err")" != 1 ] || ! grep -Eq "$want" "$tmp/err"; then
		bad "too big $name: exit $rc: $(head -c 300 "$tmp/err")"
	else
		echo "ok too big $name: $(cat "$tmp/err")"
	fi
}
truncate -s 129M "$tmp/big.yaml"
too_big "$tmp/big.yaml" "$rdmascn" validate "$tmp/big.yaml"
too_big /dev/zero "$rdmascn" validate /dev/zero
too_big - bash -c "head -c 200M /dev/zero | tr '\\0' x | \"\$0\" validate -" "$rdmascn"

# 20,000,001 nodes in 40 MB (6.9 GB of tree had the file been 128 MiB).
awk 'BEGIN { printf "scenario: nodes\nsteps: [";
	for (i = 0; i < 19999997; i++) printf "0,"; print "0]" }' >"$tmp/nodes.yaml"
refused nodes '2:39999999: more than 20000000 YAML nodes \(scalars, mappings, sequences\), the most a scenario may hold$'
rm -f "$tmp/nodes.yaml"
awk 'BEGIN { print "scenario: entries"; print "contexts:";
	for (i = 0; i <= 1000000; i++) printf "  - {id: c%d, device: any}\n", i }' \
	>"$tmp/entries.yaml"
refused entries '1000003:5: more than 1000000 objects and steps, the most a scenario may hold$'
counted() { # NAME: a scenario with 100,000 QPs in one entry, steps follow
	printf '%s\n' "scenario: $1" 'contexts: [{id: ctx, device: any}]' \
		'pds: [{id: pd, context: ctx}]' 'cqs: [{id: cq, context: ctx, cqe: 16}]' \
		'mrs: [{id: m, pd: pd, length: 4096, access: [local_write]}]' \
		'qps: [{id: q, count: 100000, pd: pd, type: rc, send_cq: cq, recv_cq: cq}]' \
		'steps:'
}
{ counted list; printf '  - stream: {op: send, local: m, size: 64, qps: ['
  for ((i = 0; i < 2000; i++)); do printf 'q, '; done; echo ']}'; } >"$tmp/list.yaml"
refused list "8:49: step 1 \\(stream\\): qps: names 200000000 objects once counted entries are expanded, more than the 1000000 a list may name$"
{ counted refs; for ((i = 0; i < 101; i++)); do
	echo '  - stream: {op: send, local: m, size: 64, after: [q], qps: [q]}'; done; } >"$tmp/refs.yaml"
refused refs "55:5: step 48 \\(stream\\): its references make more than 10000000 in all \\(counted entries expanded\\), the most a scenario may hold$"

# A FIFO as memory_file, fill_file or equals_file: refused at validate,
# never opened (it would wait for a writer).
mkfifo "$tmp/fifo"
printf '%s\n' 'scenario: fifo' 'contexts: [{id: ctx, device: any}]' \
	'pds: [{id: pd, context: ctx}]' \
	'mrs: [{id: m, pd: pd, length: 4096, access: [local_write], memory: file, memory_file: fifo}]' \
	>"$tmp/memfifo.yaml"
refused memfifo "4:87: mr 'm': memory_file: 'fifo': not a regular file \\(a regular file, or one to create\\)$"
sed 's/memory: file, memory_file: fifo/fill_file: fifo/' "$tmp/memfifo.yaml" >"$tmp/fillfifo.yaml"
refused fillfifo "4:71: mr 'm': fill_file: cannot read 'fifo' \\(beside the scenario\\): not a regular file$"

# Control characters in names and ids (window title, screen clear, OSC
# 52 to the clipboard, C1 CSI): plan, a dry run and errors print them
# escaped, never raw.
printf '%s\n' 'scenario: "t\e]0;title\a"' \
	'contexts: [{id: "c\e]52;c;aGk=\a", device: any}]' \
	'pds: [{id: pd, context: "c\e]52;c;aGk=\a"}]' \
	'mrs: [{id: "m\e2J\x9b", pd: pd, length: 4096, access: [local_write]}]' \
	>"$tmp/ctl.yaml"
for verb in plan "run -n"; do
	# shellcheck disable=SC2086
	"$rdmascn" $verb "$tmp/ctl.yaml" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc != 0 ] || LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]' "$tmp/out" ||
	   ! grep -qF "'c\\e]52;c;aGk=\\x07'" "$tmp/out" ||
	   ! grep -qF "t\\e]0;title\\x07" "$tmp/out"; then
		bad "ctl $verb: exit $rc: $(head -c 300 "$tmp/out" | cat -v)"
	else
		echo "ok ctl $verb: $(grep -F "m\\e2J" "$tmp/out" | head -1)"
	fi
done
# A matrix value is in each cell's name.
printf '%s\n' 'scenario: m' 'params: {a: 1}' 'matrix: {a: ["x\e]0;t\a", y]}' \
	'contexts: [{id: ctx, device: any}]' >"$tmp/ctlmx.yaml"
"$rdmascn" run -n "$tmp/ctlmx.yaml" >"$tmp/out" 2>&1
rc=$?
if [ $rc != 0 ] || LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$tmp/out" ||
   [ "$(grep -cF 'a=x\e]0;t\x07' "$tmp/out")" != 2 ]; then
	bad "ctl matrix: exit $rc: $(head -c 300 "$tmp/out" | cat -v)"
else
	echo "ok ctl matrix: $(grep -F 'cell 1' "$tmp/out")"
fi
# JUnit: XML 1.0 cannot hold ESC at all, not even as &#27;.
"$rdmascn" run -n -q --junit "$tmp/ctl.xml" "$tmp/ctl.yaml" >/dev/null 2>&1
rc=$?
if [ $rc != 0 ] || ! xmllint --noout "$tmp/ctl.xml" ||
   [ "$(xmllint --xpath 'string(//testsuite/@name)' "$tmp/ctl.xml")" != 't\e]0;title\x07' ]; then
	bad "ctl junit: exit $rc: $(head -c 300 "$tmp/ctl.xml" | cat -v)"
else
	echo "ok ctl junit: $(grep -o '<testsuite name="[^"]*"' "$tmp/ctl.xml")"
fi
sed 's/length: 4096/length: 4096, fill_text: a, fill_hex: "00"/' "$tmp/ctl.yaml" >"$tmp/ctlerr.yaml"
refused ctlerr "4:71: mr 'm\\\\e2J\\\\u009b': fill_hex: exclusive with 'fill_text'$"

mr() { # NAME LENGTH
	printf 'scenario: %s\ncontexts: [{id: ctx, device: any}]\npds: [{id: pd, context: ctx}]\nmrs: [{id: m, pd: pd, length: %s, access: [local_write]}]\n' \
		"$1" "$2" >"$tmp/$1.yaml"
}
mr memory 1125899906842624
refused memory "4:31: mr 'm': length: 1125899906842624 bytes is more than this host's memory, [0-9]+ bytes$"
mr memlock 1048576
# As root, drop CAP_IPC_LOCK; otherwise a process has none.
drop=()
[ "$(id -u)" = 0 ] && drop=(setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock)
if [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null; then
	bad "memlock: root, and no setpriv to drop CAP_IPC_LOCK"
else
	(ulimit -S -l 64 && exec "${drop[@]}" "$rdmascn" validate "$tmp/memlock.yaml") \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	want="$tmp/memlock.yaml:4:31: mr 'm': length: 1048576 bytes is over RLIMIT_MEMLOCK, 65536 bytes, and without CAP_IPC_LOCK the kernel will not pin it (raise it: ulimit -l unlimited, memlock in /etc/security/limits.conf, LimitMEMLOCK= of a systemd unit)"
	if [ $rc != 2 ] || [ "$(cat "$tmp/err")" != "$want" ]; then
		bad "memlock: exit $rc: $(cat "$tmp/err")"
	else
		echo "ok memlock: $(cut -c1-160 "$tmp/err")"
	fi
	(ulimit -S -l unlimited 2>/dev/null || ulimit -S -l "$(ulimit -H -l)"
	 [ "$(ulimit -S -l)" = unlimited ] || [ "$(ulimit -S -l)" -ge 1024 ] || exit 77
	 exec "${drop[@]}" "$rdmascn" validate "$tmp/memlock.yaml") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	case $rc in
	0) echo "ok memlock lifted: $(cat "$tmp/out")" ;;
	77) echo "ok memlock lifted: not checked (hard RLIMIT_MEMLOCK below 1 MiB)" ;;
	*) bad "memlock lifted: exit $rc: $(cat "$tmp/err")" ;;
	esac
fi
exit $fail
