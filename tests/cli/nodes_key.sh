#!/bin/bash
# SPDX-License-Identifier: MIT
#
# Who can join a run (docs/nodes.md, "Who can join"), from the CLI, on
# 127.0.0.1 without a device: the key from --key-file or RDMASCN_KEY,
# each mistake in it refused with exit 2; no key where the nodes would
# meet off loopback is exit 2 naming --insecure, which warns; two nodes
# with one key meet (the leader's record holds the other's); a node
# whose leader holds another key learns it at once (exit 3) and says
# nothing of itself.  nettle (the MACs) is loaded only by a process
# whose nodes meet, and libmd by none (the file's sha256 is ours); where
# nettle cannot be loaded the meeting fails (exit 3) naming it.
#
# Usage: nodes_key.sh RDMASCN SCENARIOS
set -u
rdmascn=$1 scn=$2
f=$scn/nodes/rc_pingpong.yaml
pass=0 fail=0
tmp=$(mktemp -d) || exit 1
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); echo "ok $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
unset OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE SLURM_PROCID SLURM_NTASKS \
	PMI_RANK PMI_SIZE PMIX_RANK PMIX_NAMESPACE SLURM_JOB_ID RDMASCN_KEY \
	RDMASCN_RUN_ID
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# expect NAME CODE PATTERN -- ARGS: rdmascn run ARGS exits CODE with
# PATTERN (grep -E) in its stderr.
expect() {
	local name=$1 want=$2 pat=$3
	shift 4
	timeout 20 "$rdmascn" run "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc = "$want" ] && grep -Eq -- "$pat" "$tmp/err"; then
		ok "$name: exit $rc, $(grep -Eo -- "$pat" "$tmp/err" | head -1)"
	else
		bad "$name: exit $rc (want $want), stderr:"
		cat "$tmp/err"
	fi
}

umask 077
head -c 32 /dev/urandom | base64 >"$tmp/run.key"
cp "$tmp/run.key" "$tmp/open.key"
chmod 644 "$tmp/open.key"
mkfifo "$tmp/fifo.key"
printf 'short\n' >"$tmp/short.key"

expect "a key file others may read" 2 "mode 0644 lets others read or change the key: chmod 600" \
	-- --node b --key-file "$tmp/open.key" "$f"
expect "a FIFO as the key file" 2 "fifo.key: not a regular file" \
	-- --node b --key-file "$tmp/fifo.key" "$f"
expect "no such key file" 2 "nope.key: No such file or directory" \
	-- --node b --key-file "$tmp/nope.key" "$f"
expect "a short key file" 2 "a key of 5 bytes; a key is 16 to 4096 bytes" \
	-- --node b --key-file "$tmp/short.key" "$f"
RDMASCN_KEY=tooshort expect "a short RDMASCN_KEY" 2 "RDMASCN_KEY: a key of 8 bytes" \
	-- --node b "$f"
# Off loopback without a key: refused before any packet is sent (the
# address is TEST-NET-1's, which is never reached).
expect "no key off loopback" 2 "192.0.2.1:18516, which is not a loopback address, and the run has no key.*--insecure" \
	-- --node b --rendezvous 192.0.2.1 "$f"
# --insecure lets the leader try (it cannot bind TEST-NET-1, so it
# never listens) and warns once.
expect "--insecure warns" 3 "warning: --insecure: the nodes meet at 192.0.2.1 without a key" \
	-- --node a --insecure --rendezvous 192.0.2.1 "$f"
[ "$(grep -c 'warning: --insecure' "$tmp/err")" = 1 ] && ok "--insecure: one warning" ||
	bad "--insecure: $(grep -c 'warning: --insecure' "$tmp/err") warnings"

# Two nodes, one key (a from its file, b from the environment): they
# meet; without a device both end alike, and a's record holds b's.
port=$(free_port)
RDMASCN_KEY=$(cat "$tmp/run.key") RDMASCN_NODES_DEADLINE_MS=10000 \
	"$rdmascn" run --node b --rendezvous "127.0.0.1:$port" "$f" \
	>"$tmp/b.out" 2>&1 &
pid_b=$!
LD_DEBUG=libs LD_DEBUG_OUTPUT="$tmp/libs_a" RDMASCN_NODES_DEADLINE_MS=10000 \
	"$rdmascn" run --node a \
	--key-file "$tmp/run.key" --rendezvous "127.0.0.1:$port" \
	--json "$tmp/a.json" "$f" >"$tmp/a.out" 2>&1
rc_a=$?
wait $pid_b
rc_b=$?
runs=$(python3 -c 'import json,sys; print(" ".join(r["node"]["name"] for r in json.load(open(sys.argv[1])).get("node_runs", [])))' "$tmp/a.json" 2>&1)
if [ $rc_a = "$rc_b" ] && [ "$runs" = b ]; then
	ok "one key: a and b met, both exit $rc_a, a's record holds b's"
else
	bad "one key: exit a $rc_a, b $rc_b; node_runs: $runs"
	cat "$tmp/a.out" "$tmp/b.out"
fi

# glibc's LD_DEBUG=libs names each library it initialises (to
# LD_DEBUG_OUTPUT.PID): nettle in the node that met, not in a dry run.
LD_DEBUG=libs "$rdmascn" run -n "$f" >/dev/null 2>"$tmp/libs_dry"
if cat "$tmp"/libs_a.* | grep -q 'calling init: .*libnettle' &&
   grep -q 'calling init: .*libjson-c' "$tmp/libs_dry" &&
   ! grep -Eq 'calling init: .*lib(nettle|md)\.' "$tmp/libs_dry" &&
   ! cat "$tmp"/libs_a.* | grep -q 'calling init: .*libmd\.'; then
	ok "nettle loaded by the node that met, not by a dry run; libmd by neither"
else
	bad "libraries: the meeting's $(cat "$tmp"/libs_a.* | grep -Eo 'init: .*lib(nettle|md)[^ ]*' | tr '\n' ' ')," \
	    "the dry run's $(grep -Eo 'init: .*lib(nettle|md)[^ ]*' "$tmp/libs_dry" | tr '\n' ' ')"
fi

# Where nettle cannot be loaded (a file that is not a library found
# first), the meeting fails before it starts, naming it: exit 3.
mkdir "$tmp/nonettle"
so=$(ldconfig -p | grep -Eo 'libnettle\.so\.[0-9]+' | head -1)
: >"$tmp/nonettle/${so:-libnettle.so.8}"
LD_LIBRARY_PATH="$tmp/nonettle" expect "nettle not loadable" 3 \
	"nodes: the rendezvous' HMAC \(nettle\): .*libnettle" \
	-- --node a --key-file "$tmp/run.key" \
	--rendezvous "127.0.0.1:$(free_port)" "$f"

# Node b holds another key: the leader does not prove itself to it, so
# b ends at once (3) naming that, and a never hears b's hello.
port=$(free_port)
RDMASCN_NODES_DEADLINE_MS=3000 "$rdmascn" run --node a \
	--key-file "$tmp/run.key" --rendezvous "127.0.0.1:$port" "$f" \
	>"$tmp/a.out" 2>&1 &
pid_a=$!
t0=$(date +%s%N)
RDMASCN_KEY=another-key-of-32-bytes-or-so-xx RDMASCN_NODES_DEADLINE_MS=3000 \
	"$rdmascn" run --node b --rendezvous "127.0.0.1:$port" "$f" \
	>"$tmp/b.out" 2>&1
rc_b=$?
ms=$((($(date +%s%N) - t0) / 1000000))
wait $pid_a
rc_a=$?
if [ $rc_b = 3 ] && [ $ms -lt 2500 ] &&
   grep -q "is not the leader of this run: it does not prove that it holds the run's key" "$tmp/b.out" &&
   [ $rc_a = 3 ] && grep -q "node 'b' did not join within 3000 ms.*refused 1 connection.*closed after the leader.s proof (a node with another key?)" "$tmp/a.out"; then
	ok "another key: b exit 3 after $ms ms (the leader is not its run's), a exit 3 (b did not join; one connection refused)"
else
	bad "another key: b exit $rc_b after $ms ms, a exit $rc_a"
	cat "$tmp/a.out" "$tmp/b.out"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
