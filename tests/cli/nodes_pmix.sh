#!/bin/bash
# SPDX-License-Identifier: MIT
#
# --rendezvous tcp|pmix|auto on the host: pmix outside a launcher exits 3
# saying no PMIx server answered (also when PMIX_NAMESPACE lies); auto
# outside one meets by TCP at once; pmix with --jobs > 1 is refused (2);
# libpmix is loaded by a pmix meeting only.
# Under mpirun (skipped, 77, without it or in a build without PMIx) two
# nodes run by pmix and by tcp and end alike (no device here: 3), the
# leader's record holding the other node's run (gathered through PMIx).
#
# Usage: nodes_pmix.sh RDMASCN SCENARIOS HAS_PMIX
set -u
rdmascn=$1 scn=$2 has_pmix=$3
f=$scn/nodes/rc_pingpong.yaml
pass=0 fail=0
tmp=$(mktemp -d) || exit 1
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); echo "ok $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
unset OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE SLURM_PROCID SLURM_NTASKS \
	PMI_RANK PMI_SIZE PMIX_RANK PMIX_NAMESPACE

# run WANT-EXIT WANT-TEXT ENV... -- ARGS...: the exit and a line of stderr.
run() {
	local want=$1 text=$2; shift 2
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" RDMASCN_NODES_DEADLINE_MS=300 \
		"$rdmascn" run "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc = "$want" ] && grep -qF -- "$text" "$tmp/err"; then
		ok "exit $rc: ${envs[*]} $*"
	else
		bad "${envs[*]} $*: exit $rc, wanted $want and '$text'"
		cat "$tmp/out" "$tmp/err"
	fi
}

if [ "$has_pmix" = ON ]; then
	nopmix="nodes: no PMIx server answered (PMIX_NAMESPACE is not set)"
	lies="nodes: no PMIx server answered (PMIX_NAMESPACE=bogus)"
else
	nopmix="this rdmascn was built without PMIx"
	lies=$nopmix
fi
run 3 "$nopmix" -- --rendezvous pmix --node a "$f"
run 3 "$lies" PMIX_NAMESPACE=bogus -- --rendezvous pmix --node a "$f"
# auto without a launcher: the TCP star, whose leader waits for b.
start=$(date +%s%N)
run 3 "node 'b' did not join within 300 ms" -- --rendezvous auto --node a "$f"
ms=$((($(date +%s%N) - start) / 1000000))
if [ $ms -lt 2000 ]; then
	ok "auto: TCP at once ($ms ms with a 300 ms deadline)"
else
	bad "auto took $ms ms"
fi
# A lying PMIX_NAMESPACE: auto falls back to TCP too.
run 3 "node 'b' did not join within 300 ms" PMIX_NAMESPACE=bogus -- \
	--rendezvous auto --node a "$f"
run 2 "--jobs 2 with --rendezvous pmix: the cells would be forked children" \
	-- --jobs 2 --rendezvous pmix --node a "$f"
# libpmix is loaded only when PMIx is tried (glibc's LD_DEBUG=libs names
# each library it initialises): not by a TCP meeting, by a pmix one.
if [ "$has_pmix" = ON ]; then
	run 3 "node 'b' did not join within 300 ms" LD_DEBUG=libs -- \
		--rendezvous tcp --node a "$f"
	grep -q 'calling init: .*libjson-c' "$tmp/err" &&
		! grep -q 'calling init: .*libpmix' "$tmp/err" &&
		ok "tcp: libpmix not loaded" || bad "tcp: libpmix loaded"
	run 3 "$nopmix" LD_DEBUG=libs -- --rendezvous pmix --node a "$f"
	grep -q 'calling init: .*libpmix' "$tmp/err" &&
		ok "pmix: libpmix loaded" || bad "pmix: libpmix not loaded"
fi

if ! command -v mpirun >/dev/null || [ "$has_pmix" != ON ]; then
	echo "$pass passed, $fail failed; under mpirun: skipped (no mpirun" \
		"or no PMIx in this build)"
	[ $fail = 0 ] && exit 77
	exit 1
fi
for via in pmix tcp; do
	timeout -s KILL 60 mpirun --allow-run-as-root --oversubscribe -np 2 \
		bash -c 'exec "$0" run --rendezvous "$1" --json \
			"$2/$1.$OMPI_COMM_WORLD_RANK.json" "$3"' \
		"$rdmascn" "$via" "$tmp" "$f" >"$tmp/$via.out" 2>&1
	rc=$?
	# Not anchored: mpirun may put one node's stderr line right after
	# another's prefix ("[b] [b] could not run").
	if [ $rc = 3 ] && grep -q '\[a\] could not run' "$tmp/$via.out" &&
	   grep -q '\[b\] could not run' "$tmp/$via.out"; then
		ok "mpirun -np 2, $via: both nodes ran and ended with 3"
	else
		bad "mpirun -np 2, $via: exit $rc"; cat "$tmp/$via.out"
	fi
	if [ "$(jq -r '.node_runs[0].node.name' "$tmp/$via.0.json" 2>&1)" = b ]; then
		ok "$via: the leader's record holds node b's run"
	else
		bad "$via: no node_runs for b in the leader's record"
		jq -c '{node_runs, node_runs_error}' "$tmp/$via.0.json"
	fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
