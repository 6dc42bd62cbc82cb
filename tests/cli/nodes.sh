#!/bin/bash
# SPDX-License-Identifier: MIT
#
# `nodes:` on the host: plan and graph show the nodes (plan against its
# golden file), and the role a process plays comes from --node or from
# its launcher's variables (Open MPI, Slurm, PMI, PMIx), each mistake
# refused with exit 2 and a message that names it.
#
# Two nodes run for real on 127.0.0.1 (with no device here both end
# alike, 3): the leader's JUnit holds every node's testcases, each
# node's classname ending in @NODE (tests/junit/check.py).
#
# Usage: nodes.sh RDMASCN SCENARIOS GOLDEN RUN-SCHEMA RUN_RECORD.PY
#                 JUNIT-XSD JUNIT-CHECK.PY
set -u
rdmascn=$1 scn=$2 golden=$3 schema=$4 check=$5 xsd=$6 jcheck=$7
f=$scn/nodes/rc_pingpong.yaml
pass=0 fail=0
tmp=$(mktemp -d) || exit 1
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); echo "ok $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
# No launcher of the caller's may leak in.
unset OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE SLURM_PROCID SLURM_NTASKS \
	PMI_RANK PMI_SIZE PMIX_RANK

"$rdmascn" plan "$f" | sed "s|$f|FILE|" >"$tmp/plan"
if diff -u "$golden/nodes_rc_pingpong.plan" "$tmp/plan"; then
	ok "plan: the golden file"
else
	bad "plan differs from $golden/nodes_rc_pingpong.plan"
fi

"$rdmascn" graph "$f" >"$tmp/dot"
if grep -q '^	subgraph "cluster node a" {' "$tmp/dot" &&
   grep -q '^		label="node b (127.0.0.1)";' "$tmp/dot" &&
   grep -q '^		subgraph cluster_ctx_b {' "$tmp/dot"; then
	ok "graph: a cluster per node around its contexts"
else
	bad "graph: no node clusters"; cat "$tmp/dot"
fi

# refused ENV... -- ARGS... : exit 2 and one line that is WANT.
refused() {
	local want=$1; shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" "$rdmascn" run "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc = 2 ] && [ "$(cat "$tmp/err")" = "$want" ] &&
	   [ ! -s "$tmp/out" ]; then
		ok "refused: ${envs[*]} $*"
	else
		bad "${envs[*]} $*: exit $rc, wanted 2 and '$want'"
		cat "$tmp/out" "$tmp/err"
	fi
}
refused "rdmascn run: $f has 2 nodes (a, b): say which this process plays, with --node NAME, or start one process per node with mpirun, srun or another PMI launcher (OMPI_COMM_WORLD_RANK, SLURM_PROCID, PMI_RANK or PMIX_RANK picks the node)." -- "$f"
refused "rdmascn run: --node c: $f has no such node (nodes: a, b)." -- --node c "$f"
refused "rdmascn run: --node a: $scn/rc_write.yaml declares no nodes (it runs in one process)." -- --node a "$scn/rc_write.yaml"
refused "rdmascn run: Open MPI started 3 processes (OMPI_COMM_WORLD_SIZE=3), but $f has 2 nodes (a, b): start one per node." \
	OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=3 -- "$f"
refused "rdmascn run: Slurm started 1 processes (SLURM_NTASKS=1), but $f has 2 nodes (a, b): start one per node." \
	SLURM_PROCID=0 SLURM_NTASKS=1 -- "$f"
refused "rdmascn run: SLURM_PROCID=2, but $f has 2 nodes (a, b): ranks 0 to 1 play them." \
	SLURM_PROCID=2 SLURM_NTASKS=2 -- "$f"
refused "rdmascn run: PMI_SIZE is 'two', not a number of processes." \
	PMI_RANK=1 PMI_SIZE=two -- "$f"
refused "rdmascn run: PMIX_RANK is '-1', not a rank." PMIX_RANK=-1 -- "$f"
refused "rdmascn run: PMIX_RANK=5, but $f has 2 nodes (a, b): ranks 0 to 1 play them." PMIX_RANK=5 -- "$f"
# Open MPI sets PMIX_RANK too: its own variables come first.
refused "rdmascn run: Open MPI started 4 processes (OMPI_COMM_WORLD_SIZE=4), but $f has 2 nodes (a, b): start one per node." \
	PMIX_RANK=0 OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=4 -- "$f"

# The role taken: the dry run's record says which node and from where.
role() {
	local want=$1; shift
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" "$rdmascn" run -n -q --json "$tmp/rec.json" "$@" \
		>"$tmp/out" 2>"$tmp/err"
	local rc=$?
	local got
	got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); n=r["runs"][0]["node"] if "runs" in r else r["node"]; print(n["name"], n["from"])' "$tmp/rec.json" 2>&1)
	if [ $rc = 0 ] && [ "$got" = "$want" ] &&
	   python3 "$check" "$schema" "$tmp/rec.json" 0; then
		ok "role $want: ${envs[*]} $*"
	else
		bad "${envs[*]} $*: exit $rc, role '$got', wanted '$want'"
		cat "$tmp/out" "$tmp/err"
	fi
}
role "b --node" -- --node b "$f"
role "a OMPI_COMM_WORLD_RANK" OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 -- "$f"
role "b SLURM_PROCID" SLURM_PROCID=1 SLURM_NTASKS=2 -- "$f"
role "b PMI_RANK" PMI_RANK=1 PMI_SIZE=2 -- "$f"
role "a PMIX_RANK" PMIX_RANK=0 -- "$f"
# --node wins over a launcher's rank.
role "a --node" SLURM_PROCID=1 SLURM_NTASKS=2 -- --node a "$f"

# A node's dry run makes only its objects: b's record has b's.
"$rdmascn" run -n -q --node b --json "$tmp/b.json" "$f" >/dev/null 2>&1
got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(" ".join(o["id"] + "@" + o["node"] + ("+" + o["peer_node"] if "peer_node" in o else "") for o in r["objects"]))' "$tmp/b.json")
if [ "$got" = "ctx_b@b pd_b@b buf_b@b cq_b@b b@b ab@a+b" ]; then
	ok "node b's record: its objects and the connection"
else
	bad "node b's record has: $got"
fi

# A node's device: is what its contexts open where they say any (or
# nothing); --device still wins.
dev=$(dirname "$0")/../rxe/scn/nodes_device.yaml
got=$("$rdmascn" run -n --node b --set dev_b=mlx5_7 "$dev" 2>&1 | sed -n 's/.*ibv_open_device(device=\([^ ]*\) .*/\1/p')
got2=$("$rdmascn" run -n --node a -d foo0 "$dev" 2>&1 | sed -n 's/.*ibv_open_device(device=\([^ ]*\) .*/\1/p')
if [ "$got $got2" = "mlx5_7 foo0" ]; then
	ok "a node's device: b's context opens mlx5_7; --device foo0 wins"
else
	bad "a node's device: b opens '$got', a with --device foo0 '$got2'"
fi

# An AH to: a QP on another node: placed on both, its address that
# QP's (a dry run names where it comes from); the QP's node makes
# nothing for it.
ud=$scn/nodes/ud_fanout.yaml
got=$("$rdmascn" run -n --node tx "$ud" 2>&1 | sed -n "s/.*ibv_create_ah(.*to=\([^ ]*\) .* dgid=\([^ ]*\) dlid=\([^ ]*\) .*# ah 'to_r1'$/\1 \2 \3/p")
got2=$("$rdmascn" run -n --node r1 "$ud" 2>&1 | grep -c "ah 'to_r1'")
place=$("$rdmascn" plan "$ud" 2>&1 | sed -n "s/.* ah 'to_r1' *\(@[^ ]*\) .*/\1/p" | head -1)
if [ "$got|$got2|$place" = "rx1 gid(ctx_r1) lid(ctx_r1)_if_not_global|0|@tx+r1" ]; then
	ok "ah to: rx1 on another node: tx's dry run derives dgid and dlid from ctx_r1, r1 makes nothing, plan places it @tx+r1"
else
	bad "ah to: rx1: tx's dry run '$got', r1 lines $got2, plan '$place'"
fi

# Both nodes for real: one verdict, one JUnit file with both nodes.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$rdmascn" run --node b --rendezvous "127.0.0.1:$port" "$f" \
	>"$tmp/b.out" 2>&1 &
pid_b=$!
RDMASCN_NODES_DEADLINE_MS=10000 "$rdmascn" run --node a \
	--rendezvous "127.0.0.1:$port" --json "$tmp/a.json" \
	--junit "$tmp/a.xml" "$f" >"$tmp/a.out" 2>&1
rc_a=$?
wait $pid_b
rc_b=$?
classes=$(python3 -c 'import sys, xml.etree.ElementTree as E; print(" ".join(sorted({c.get("classname").rsplit("@", 1)[-1] for c in E.parse(sys.argv[1]).iter("testcase")})))' "$tmp/a.xml" 2>&1)
if [ $rc_a = $rc_b ] && [ "$classes" = "a b" ] &&
   /usr/bin/python3 "$jcheck" "$xsd" "$tmp/a.xml" "$tmp/a.json"; then
	ok "two nodes: both exit $rc_a; a's JUnit has a's and b's testcases (@a, @b)"
else
	bad "two nodes: exit a $rc_a, b $rc_b; JUnit classnames end in: $classes"
	cat "$tmp/a.out" "$tmp/b.out"
fi

echo "$pass passed, $fail failed"
[ $fail = 0 ]
