#!/bin/bash
# Inside the Soft-RoCE VM, one rxe0, several processes: the scenarios of
# scenarios/nodes/ with each node a process of its own, started by Open
# MPI's mpirun (roles from OMPI_COMM_WORLD_RANK/SIZE), by Slurm's
# variables set by hand, and by --node; every node with --check-leaks.
# Then what a multi-node run must survive: a node killed mid-step, a
# node that never starts, two nodes started with different params.
#
# Usage: nodes.sh RDMASCN SCENARIOS-DIR TEST-SCN-DIR
set -u
rdmascn=$1
scn=$2/nodes
hold=$3/nodes_hold.yaml
. "$(dirname "$0")/lib.sh"
unset OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE SLURM_PROCID SLURM_NTASKS \
	PMI_RANK PMI_SIZE PMIX_RANK

# node_ok NAME OUT ERR RC WANT: one node's run ended with WANT, torn down
# in reverse, nothing left behind (the run's --check-leaks).
node_ok() {
	local what=$1 out=$2 err=$3 got=$4 want=$5
	[ "$got" = "$want" ] || { cat "$out" "$err"; fail "$what: exit $got, want $want"; }
	if [ "$(created "$out" | tac)" != "$(destroyed "$out")" ]; then
		cat "$out"; fail "$what: teardown is not the reverse of creation"
	fi
	grep -q '^leaks: none' "$out" || { cat "$out" "$err"; fail "$what: leak check did not pass"; }
}
# keep_rec JSON RC WHAT: have the record checked when the test ends.
keep_rec() {
	[ -s "$1" ] || fail "$3: no record $1"
	nrec=$((nrec + 1))
	cp "$1" "$tmp/recs/$nrec.json"
	echo "$tmp/recs/$nrec.json:$2 $3" >>"$tmp/recs/list"
}
# by_hand FILE WANT NODE... -- ARGS: one process per NODE (--node), the
# last started first node last, each with --check-leaks and its own
# output in $tmp/NODE.{out,err,json}; each must exit WANT.
by_hand() {
	local f=$1 want=$2 n pids=() nodes=()
	shift 2
	while [ "$1" != -- ]; do nodes+=("$1"); shift; done
	shift
	for n in "${nodes[@]}"; do
		"$rdmascn" run --node "$n" --check-leaks --json "$tmp/$n.json" \
			"$@" "$f" >"$tmp/$n.out" 2>"$tmp/$n.err" &
		pids+=($!)
	done
	for i in "${!nodes[@]}"; do
		wait "${pids[$i]}"
		node_ok "${f##*/} node ${nodes[$i]}" "$tmp/${nodes[$i]}.out" \
			"$tmp/${nodes[$i]}.err" $? "$want"
	done
}

# Each rank: rdmascn ARGS with its output in PREFIX.RANK.{out,err}; its
# record, where it writes one, in PREFIX.RANK.json.
# shellcheck disable=SC2016
per_rank='r=$OMPI_COMM_WORLD_RANK p=$1; shift
	for a; do shift; [ "$a" = "$p.json" ] && a=$p.$r.json; set -- "$@" "$a"; done
	exec "$0" run "$@" >"$p.$r.out" 2>"$p.$r.err"'

# 1. mpirun: rank i plays the i-th node, two ranks on one rxe0.
for f in rc_pingpong write_bw; do
	roles=(a b)
	[ $f = write_bw ] && roles=(c s)
	rm -f "$tmp"/mpi.*
	mpirun --allow-run-as-root --oversubscribe -np 2 sh -c "$per_rank" \
		"$rdmascn" "$tmp/mpi" --check-leaks --set iters=200 \
		--json "$tmp/mpi.json" "$scn/$f.yaml" >"$tmp/mpirun.out" 2>&1
	rc=$?
	[ $rc = 0 ] || { cat "$tmp/mpirun.out" "$tmp"/mpi.*.out "$tmp"/mpi.*.err; fail "mpirun $f: exit $rc"; }
	for r in 0 1; do
		node_ok "mpirun $f rank $r" "$tmp/mpi.$r.out" "$tmp/mpi.$r.err" 0 0
		# The record says which node the rank played and why; a
		# merged one holds every node's run.
		got=$(jq -r '[.node // empty, .runs[]?.node] | map(select(.from == "OMPI_COMM_WORLD_RANK") | .name) | join(",")' "$tmp/mpi.$r.json")
		case ",$got," in
		*",${roles[$r]},"*) ;;
		*) jq -c '.node, [.runs[]?.node]' "$tmp/mpi.$r.json"; fail "mpirun $f rank $r: the record does not say it played ${roles[$r]} from OMPI_COMM_WORLD_RANK" ;;
		esac
	done
	keep_rec "$tmp/mpi.0.json" 0 "mpirun $f rank 0"
	echo "ok mpirun -np 2 $f: both ranks passed, torn down, no leaks"
done

# 2. The UD fan-out: four nodes, four ranks.
rm -f "$tmp"/mpi.*
mpirun --allow-run-as-root --oversubscribe -np 4 sh -c "$per_rank" \
	"$rdmascn" "$tmp/mpi" --check-leaks "$scn/ud_fanout.yaml" \
	>"$tmp/mpirun.out" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$tmp/mpirun.out" "$tmp"/mpi.*.out "$tmp"/mpi.*.err; fail "mpirun ud_fanout: exit $rc"; }
for r in 0 1 2 3; do
	node_ok "mpirun ud_fanout rank $r" "$tmp/mpi.$r.out" "$tmp/mpi.$r.err" 0 0
done
echo "ok mpirun -np 4 ud_fanout: one sender, three receivers, all passed"

# 3. Slurm's variables, set by hand as srun would.
SLURM_PROCID=1 SLURM_NTASKS=2 "$rdmascn" run --check-leaks "$scn/rc_pingpong.yaml" \
	--set iters=100 >"$tmp/s1.out" 2>"$tmp/s1.err" & p1=$!
SLURM_PROCID=0 SLURM_NTASKS=2 "$rdmascn" run --check-leaks "$scn/rc_pingpong.yaml" \
	--set iters=100 >"$tmp/s0.out" 2>"$tmp/s0.err"
rc=$?
wait $p1
node_ok "SLURM_PROCID=1" "$tmp/s1.out" "$tmp/s1.err" $? 0
node_ok "SLURM_PROCID=0" "$tmp/s0.out" "$tmp/s0.err" $rc 0
echo "ok SLURM_PROCID/SLURM_NTASKS: both nodes passed"

# 4. --node by hand: the rdma_cm connection, and the failing scenario
# (both nodes end with its verdict, 1, and tear down).
by_hand "$scn/rdma_cm.yaml" 0 b a -- --set iters=50
keep_rec "$tmp/a.json" 0 "rdma_cm node a"
echo "ok --node: rdma_cm across two processes passed on both"
by_hand "$scn/fail_bad_rkey.yaml" 1 b a --
grep -q "bad_write.*rem_access_err" "$tmp/a.out" "$tmp/a.err" ||
	{ cat "$tmp/a.out" "$tmp/a.err"; fail "fail_bad_rkey: bad_write did not fail with rem_access_err"; }
keep_rec "$tmp/a.json" 1 "fail_bad_rkey node a"
echo "ok --node: fail_bad_rkey ended 1 on both nodes, torn down, no leaks"

# 5. A node killed mid-step: the other ends, torn down, naming it.
"$rdmascn" run --node b --check-leaks "$hold" >"$tmp/b.out" 2>"$tmp/b.err" & pb=$!
"$rdmascn" run --node a --check-leaks --json "$tmp/a.json" "$hold" >"$tmp/a.out" 2>"$tmp/a.err" & pa=$!
for i in $(seq 400); do
	grep -q "^created.*connection 'ab'" "$tmp/b.out" 2>/dev/null && break
	sleep 0.05
done
grep -q "^created.*connection 'ab'" "$tmp/b.out" ||
	{ kill -KILL $pa $pb; cat "$tmp"/[ab].out "$tmp"/[ab].err; fail "kill: never got to the step"; }
sleep 0.5
t0=$(date +%s%N)
kill -KILL $pb
wait $pb
wait $pa
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
[ $rc != 0 ] || { cat "$tmp/a.out" "$tmp/a.err"; fail "node b killed: node a exit 0"; }
grep -Eq "node 'b'|node b" "$tmp/a.err" || { cat "$tmp/a.err"; fail "node b killed: node a does not name it"; }
node_ok "node b killed, node a" "$tmp/a.out" "$tmp/a.err" $rc $rc
keep_rec "$tmp/a.json" $rc "node b killed"
echo "ok node b killed mid-step: node a exit $rc after $ms ms, names b, torn down, no leaks"

# 6. A node that never starts: the other ends at its deadline, naming it.
t0=$(date +%s%N)
run_scn "$tmp/a.out" "$tmp/a.err" --node a --check-leaks "$hold"
ms=$((($(date +%s%N) - t0) / 1000000))
[ $rc != 0 ] || fail "node b never started: node a exit 0"
grep -Eq "node 'b'|node b" "$tmp/a.err" || { cat "$tmp/a.err"; fail "node b never started: node a does not name it"; }
[ "$(created "$tmp/a.out" | wc -l)" = 0 ] || { cat "$tmp/a.out"; fail "node b never started: node a created objects"; }
echo "ok node b never started: node a exit $rc after $ms ms, names b, created nothing"

# 7. Different params on the two nodes: refused before anything exists,
# naming the param.
"$rdmascn" run --node b --set size=8192 "$hold" >"$tmp/b.out" 2>"$tmp/b.err" & pb=$!
"$rdmascn" run --node a --set size=4096 "$hold" >"$tmp/a.out" 2>"$tmp/a.err"
rc=$?
wait $pb
rcb=$?
for n in a b; do
	r=$([ $n = a ] && echo $rc || echo $rcb)
	[ "$r" != 0 ] || { cat "$tmp/$n.out" "$tmp/$n.err"; fail "params mismatch: node $n exit 0"; }
	grep -q "size" "$tmp/$n.err" || { cat "$tmp/$n.err"; fail "params mismatch: node $n does not name size"; }
	[ "$(created "$tmp/$n.out" | wc -l)" = 0 ] || { cat "$tmp/$n.out"; fail "params mismatch: node $n created objects"; }
done
echo "ok params mismatch: refused on both nodes (exit $rc, $rcb), naming size, nothing created"
