#!/bin/bash
# Inside the Soft-RoCE VM: scenarios/cluster/ at 16 processes on rxe0,
# started by Open MPI's mpirun (rank i plays h[i]), every node under
# --check-leaks: the mesh (120 RC connections, a write and a verify on
# each) and the incast (15 streams into h[0] at once), each once over
# the TCP star and once over mpirun's PMIx server; then what ends a
# 16-node run early: a node killed in the middle of the streams, a node
# that never comes, and a port mismatch between 8 nodes on one device
# and 8 on another.  Each ends every node, torn down, with one verdict
# that names the node at fault.  The time of each phase is in the lines.
# PART rxe0 runs the first five (on rxe0 only: a lane's test), veth the
# port mismatch (it makes rxe_a and rxe_b: alone); without it, both.
#
#   cluster.sh RDMASCN SCENARIOS [rxe0|veth]
set -u
rdmascn=$1 scn=$2 part=${3:-all}
. "$(dirname "$0")/lib.sh"
np=16
export RDMASCN_NODES_DEADLINE_MS=120000
RDMASCN_KEY=$(head -c 32 /dev/urandom | base64)
export RDMASCN_KEY
trap 'st_=$?; [ "$BASHPID" = $$ ] || exit $st_; status $st_; veth_rxe_down; records_ok; rc_=$?; rm -rf "$tmp"; exit $rc_' EXIT

# Each rank: rdmascn run ARGS with its output in PREFIX.RANK.{out,err}
# and its record in PREFIX.RANK.json.
# shellcheck disable=SC2016
per_rank='r=$OMPI_COMM_WORLD_RANK p=$1; shift
	exec "$0" run --json "$p.$r.json" "$@" >"$p.$r.out" 2>"$p.$r.err"'
# mpi PREFIX ARGS...: ARGS on $np ranks; sets $rc (mpirun's) and $secs.
# --enable-recovery: where every node ends with an error (the port
# mismatch), mpirun would kill the ranks still writing their records
# when the first exits non-zero.
mpi() {
	local p=$1 t0=$SECONDS
	shift
	rm -f "$p".*
	mpirun --allow-run-as-root --oversubscribe --enable-recovery \
		-x RDMASCN_KEY \
		-x RDMASCN_NODES_DEADLINE_MS -np $np sh -c "$per_rank" \
		"$rdmascn" "$p" --check-leaks "$@" >"$p.mpirun" 2>&1
	rc=$?
	secs=$((SECONDS - t0))
}
# codes PREFIX: each rank's exit code as its record says, in the array
# code (none: no record); one jq for all (each costs the best part of a
# second under TCG).
codes() {
	local f c r
	code=()
	for ((r = 0; r < np; r++)); do code[$r]=none; done
	while read -r f c; do
		f=${f%.json}
		code[${f##*.}]=$c
	done <<<"$(jq -r '"\(input_filename) \(.exit_code)"' "$1".*.json 2>/dev/null)"
}
# ranks PREFIX [VAR=JQ...]: one jq over every rank's record (a jq start
# and a parse of these records take seconds under TCG): each rank's exit
# code in the array code (none: no record), the median over the ranks of
# each phase's time in median, and each VAR set to JQ (one line) of rank
# 0's record.
ranks() {
	local p=$1 prog l f i=0 names=()
	shift
	code=()
	for ((i = 0; i < np; i++)); do code[$i]=none; done
	i=0
	# shellcheck disable=SC2016
	prog='[inputs | {f: input_filename, c: .exit_code,
		d: .durations_ms, r: .}] as $a |
	    ($a[] | "code \(.f) \(.c)"),
	    ("median " + (["setup", "steps", "teardown"] | map(. as $k |
		($a | map(.d[$k]) | sort | .[length / 2 | floor])
		| "\($k) \(. | round) ms") | join(", ")))'
	for l; do
		names+=("${l%%=*}")
		prog+=", (\$a[] | select(.f == \$r0) | .r | \"var $i \" +
			(${l#*=} | tostring))"
		i=$((i + 1))
	done
	while IFS= read -r l; do
		case $l in
		"code "*)
			l=${l#code }
			f=${l% *}
			f=${f%.json}
			code[${f##*.}]=${l##* } ;;
		"median "*) median=${l#median } ;;
		"var "*)
			l=${l#var }
			printf -v "${names[${l%% *}]}" '%s' "${l#* }" ;;
		esac
	done <<<"$(jq -n -r --arg r0 "$p.0.json" "$prog" "$p".*.json 2>/dev/null)"
}
# outs PREFIX: every rank's text report, PREFIX.RANK.out, in outs.
outs() {
	local r
	outs=()
	for ((r = 0; r < np; r++)); do outs+=("$1.$r.out"); done
}
# ranks_ended PREFIX WANT WHAT [VAR=JQ...]: every rank exited WANT (its
# record says so), tore down in the reverse of creation and leaked
# nothing (one jq reads the 16 reports: scan_nodes); sets what ranks
# sets, and tc, the seconds the checks took.
ranks_ended() {
	local p=$1 want=$2 what=$3 r t0=${EPOCHREALTIME/./} t1 t2
	shift 3
	ranks "$p" "$@"
	t1=${EPOCHREALTIME/./}
	outs "$p"
	scan_nodes '' "${outs[@]}" || fail "$what: could not read the reports"
	for ((r = 0; r < np; r++)); do
		node_scanned "$what rank $r" "$p.$r.out" "$p.$r.err" \
			"${code[$r]}" "$want"
	done
	t2=${EPOCHREALTIME/./}
	keep_rec "$p.0.json" "$want" "$what rank 0"
	tc=$(((${EPOCHREALTIME/./} - t0) / 1000000))
	tc="$tc s (records $(((t1 - t0) / 1000)) ms, reports $(((t2 - t1) / 1000)) ms, keeping rank 0's $(((${EPOCHREALTIME/./} - t2) / 1000)) ms)"
}

if [ "$part" != veth ]; then
# The incast's streams have the engine's default deadline, 10 s, which
# 15 senders into one receiver under TCG passed on a quiet host (steps
# 4-5 s) and not at a load of 10: a copy of incast.yaml with a deadline
# of twice that, scaled by how slow the VM is (slow.sh).  Twice, as 16
# processes on the VM's two CPUs slow down more than the one-process
# reference run says (steps median 13.5 s where it said 1.62 x); the
# deadline is not what is checked here, that the streams pass is.  The
# killed run below uses it too: its nodes must end at the loss of h[7],
# not at a deadline.
slow_bound 20000
incast_said=$slow_said
incast=$tmp/incast.yaml
while IFS= read -r l || [ -n "$l" ]; do
	[[ $l == "  - stream: {"*"}" ]] && l="${l%\}}, deadline_ms: $slow_b}"
	printf '%s\n' "$l"
done <"$scn/cluster/incast.yaml" >"$incast"
[[ $(<"$incast") == *"deadline_ms: $slow_b}"* ]] ||
	fail "incast.yaml: no stream step to give a deadline"

# 1. The mesh and the incast at 16, over the TCP star and over PMIx.
for rdv in tcp pmix; do
	p=$tmp/mesh_$rdv
	mpi "$p" --rendezvous "$rdv" --set n=$np "$scn/cluster/mesh.yaml"
	[ $rc = 0 ] || { cat "$p.mpirun" "$p".0.*; fail "mesh over $rdv: mpirun exit $rc"; }
	# Rank 0's record holds every node's: 120 connections, each on
	# both of its nodes, a write and a verify on each.
	ranks_ended "$p" 0 "mesh over $rdv" runs='[., .node_runs[]] | length' \
		got='[., .node_runs[]] | [
		([.[].objects[] | select(.kind == "connection" and .outcome == "created")] | length),
		([.[].steps[] | select(.type == "write" and .outcome == "passed")] | length),
		([.[].steps[] | select(.type == "verify" and .outcome == "passed")] | length)]
		| join(" ")'
	[ "$runs" = $np ] ||
		fail "mesh over $rdv: rank 0's record holds $runs runs"
	[ "$got" = "240 120 120" ] ||
		fail "mesh over $rdv: connection sides, writes and verifies passed: $got, want 240 120 120"
	ok "mpirun -np $np mesh over $rdv: 120 connections, 120 writes and verifies passed, every node torn down, no leaks ($secs s, checks $tc; median $median)"

	p=$tmp/incast_$rdv
	mpi "$p" --rendezvous "$rdv" --set n=$np --set iterations=200 \
		"$incast"
	[ $rc = 0 ] || { cat "$p.mpirun" "$p".0.*; fail "incast over $rdv: mpirun exit $rc"; }
	ranks_ended "$p" 0 "incast over $rdv" got='[., .node_runs[]] |
		[.[].steps[] | select(.type == "stream" and .outcome == "passed")]
		| length'
	[ "$got" = 15 ] || fail "incast over $rdv: $got streams passed, want 15"
	ok "mpirun -np $np incast over $rdv: 15 streams into h[0] passed, no leaks ($secs s, checks $tc; median $median; stream deadline $incast_said ms)"
done

# 2. A node killed in the middle of the streams: every other node ends
# at once (3, could not run), torn down, naming h[7].  Over the TCP star,
# which hears a lost node at once; mpirun told not to end the job itself
# when a rank dies (Open MPI 4.1's PMIx raises no event for a killed
# process: docs/nodes.md, "PMIx").
p=$tmp/killed
mpirun --allow-run-as-root --oversubscribe --enable-recovery -x RDMASCN_KEY \
	-x RDMASCN_NODES_DEADLINE_MS -np $np sh -c "$per_rank" "$rdmascn" "$p" \
	--check-leaks --rendezvous tcp --set n=$np --set iterations=100000000 \
	"$incast" >"$p.mpirun" 2>&1 &
mpi_pid=$!
# h[7] sends on link[6] (incast's pair 6 is h[7] -> h[0]).
for _ in $(seq 900); do
	grep -q "created.*connection 'link\[6\]'" "$p.7.out" 2>/dev/null && break
	sleep 0.2
done
sleep 3
victim=$(pgrep -f "json $p.7.json") || fail "killed: no rank 7 process"
kill -KILL "$victim"
t0=$SECONDS
wait $mpi_pid
t=$((SECONDS - t0))
t0=$SECONDS
codes "$p"
outs "$p"
scan_nodes "node 'h[7]' was lost" "${outs[@]}" ||
	fail "killed: could not read the reports"
for ((r = 0; r < np; r++)); do
	[ $r = 7 ] && continue
	node_scanned "killed: rank $r" "$p.$r.out" "$p.$r.err" "${code[$r]}" 3
	[ "${sn_need[$p.$r.out]}" = 1 ] ||
		{ cat "$p.$r.out" "$p.$r.err"; fail "killed: rank $r does not name h[7]"; }
done
keep_rec "$p.0.json" 3 "killed rank 0"
ok "h[7] killed mid-stream: the other 15 exit 3 within $t s naming h[7], torn down, no leaks (checks $((SECONDS - t0)) s)"

# 3. A node that never comes: 15 nodes by hand, h[15] missing; each ends
# at the meeting's deadline naming it, having created nothing.  The
# deadline runs from each node's own start, and 15 processes started at
# once on the VM's two CPUs start seconds apart under load: with 5 s, a
# rank that started after the leader had given up met a refused
# connection, not h[15]'s absence (CI, at a slowness of 1.82).  So the
# deadline is 10 s scaled by how slow the VM is (slow.sh), as the
# incast's is; what is checked is unchanged.  Even so a rank reached its
# hello after the leader's deadline once (CI, slowness 1.93: h[12], 15
# starts on two vCPUs beside the other lane's test): the leader, h[0],
# now starts last, and the others wait twice its deadline, so that the
# leader's is the one that ends the meeting, and a rank that starts late
# is still waiting for it.
slow_bound 10000
absent_ms=$slow_b
p=$tmp/absent
pids=()
for r in $(seq 14 -1 0); do
	RDMASCN_NODES_DEADLINE_MS=$((r ? 2 * absent_ms : absent_ms)) \
		"$rdmascn" run --node "h[$r]" \
		--check-leaks --json "$p.$r.json" --set n=$np \
		"$scn/cluster/ring.yaml" >"$p.$r.out" 2>"$p.$r.err" &
	pids[$r]=$!
done
got=()
for r in $(seq 0 14); do
	wait "${pids[$r]}"
	got[$r]=$?
done
t0=$SECONDS
outs=()
for ((r = 0; r < 15; r++)); do outs+=("$p.$r.out"); done
scan_nodes "h[15]" "${outs[@]}" || fail "absent: could not read the reports"
for ((r = 0; r < 15; r++)); do
	[ "${got[$r]}" = 3 ] || { cat "$p.$r.out" "$p.$r.err"; fail "absent: h[$r] exit ${got[$r]}, want 3"; }
	[ "${sn_need[$p.$r.out]}" = 1 ] ||
		{ cat "$p.$r.out" "$p.$r.err"; fail "absent: h[$r] does not name h[15]"; }
	[ "${sn_created[$p.$r.out]}" = 0 ] ||
		{ cat "$p.$r.out"; fail "absent: h[$r] created objects before everyone met"; }
done
said=
for f in "$p.1.err" "$p.1.out"; do
	while IFS= read -r l || [ -n "$l" ]; do
		[[ $l == *"h[15]"* ]] && { said=$l; break 2; }
	done <"$f"
done
ok "h[15] never came: the other 15 exit 3 at the deadline ($absent_ms ms) naming it, nothing created (checks $((SECONDS - t0)) s): $said"
fi
[ "$part" = rxe0 ] && exit 0

# 4. A port mismatch at 16: a[0..7] on rxe_a (veth2 at 4200 bytes,
# active MTU 4096), b[0..7] on rxe_b (veth3 at 1500, 1024), connected
# a[i] to b[i]: every node exits 3 at its connection naming both nodes
# and values.
veth_rxe_up || fail "uniformity: could not set up the veth pair and rxe_a, rxe_b"
ip link set veth2 mtu 4200 && ip link set veth3 mtu 1500 ||
	fail "uniformity: could not set the MTUs"
p=$tmp/mtu
mpi "$p" "$(dirname "$0")/scn/cluster_uniform.yaml"
ranks_ended "$p" 3 "MTU mismatch"
want="connection 'ab[3]': node 'a[3]' (rxe_a port 1) has active MTU 4096, node 'b[3]' (rxe_b port 1) has 1024"
grep -qF "$want" "$p.3.out" "$p.3.err" ||
	{ cat "$p.3.out" "$p.3.err"; fail "MTU mismatch: a[3] does not say: $want"; }
veth_rxe_down
ok "MTU mismatch between 8 nodes on rxe_a and 8 on rxe_b: all 16 exit 3, torn down, no leaks: $want"
