#!/bin/bash
# Inside the Soft-RoCE VM: one scenario across two processes (nodes a
# and b of scenarios/nodes/, both on rxe0, meeting on 127.0.0.1), each
# started with --node: both pass with nothing leaked, the leader's record
# holds b's; a params mismatch is refused before anything is created,
# naming the param; a node that never comes ends the other at its
# deadline, named. Then the rest of scenarios/nodes/ with every node
# under --check-leaks: rc_pingpong and write_bw by Open MPI's mpirun
# (roles from OMPI_COMM_WORLD_RANK/SIZE, read back from the records),
# the 4-node UD fan-out by mpirun -np 4, rc_pingpong by Slurm's
# variables set by hand, rdma_cm and the failing bad-rkey one by --node
# (each node exits 1); a 4-node ring (oob, then rdma_cm) whose records
# say one exchange for its connections and only each node's own
# descriptions received. Last, uniformity: two rxe devices on a veth
# pair, equal MTUs pass over it, different ones end both nodes with
# exit 3 at the connection naming both.  PART rxe0 runs all but
# uniformity (on rxe0 only: a lane's test), veth uniformity alone (it
# makes rxe_a and rxe_b); without it, both.
#
#   nodes.sh RDMASCN SCENARIOS [rxe0|veth]
set -u
rdmascn=$1 scn=$2 part=${3:-all}
. "$(dirname "$0")/lib.sh"
pp=$scn/nodes/rc_pingpong.yaml
export RDMASCN_NODES_DEADLINE_MS=20000
# Every run here holds the run's key (docs/nodes.md, "Who can join");
# mpirun passes it on with -x, as it would to other hosts.
RDMASCN_KEY=$(head -c 32 /dev/urandom | base64)
export RDMASCN_KEY

# both NAME-ARGS-A -- NAME-ARGS-B: node b in the background, node a here;
# sets rc (a's) and rc_b.
both() {
	local a=() b=()
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	"$rdmascn" run --node b --json "$tmp/b.json" "${b[@]}" \
		>"$tmp/b.out" 2>"$tmp/b.err" &
	local pid=$!
	run_scn "$tmp/a.out" "$tmp/a.err" --node a "${a[@]}"
	wait $pid
	rc_b=$?
}

if [ "$part" != veth ]; then
# 1. rc_pingpong across the two nodes.
both --check-leaks --set iters=200 "$pp" -- --check-leaks --set iters=200 "$pp"
[ $rc = 0 ] && [ $rc_b = 0 ] || { cat "$tmp"/a.* "$tmp"/b.*; fail "rc_pingpong across nodes: exit a $rc, b $rc_b"; }
# (One jq for the record's values: a jq start is most of a second here.)
recvars -- name='.node.name' others='.node_runs | length' \
	other='.node_runs[0].node.name' \
	made_a='[.objects[].id] | join(" ")' \
	made_b='[.node_runs[0].objects[].id] | join(" ")' \
	pps='"\(.steps[0].outcome) \(.node_runs[0].steps[0].outcome)"' \
	leaks='"\(.leaks.count) \(.node_runs[0].leaks.count)"' \
	avg='.steps[0].figures.latency.avg'
[ "$name" = a ] || fail "a's record: node $name"
[ "$others" = 1 ] || fail "a's record holds $others other records"
[ "$other" = b ] || fail "a's record: the other is not b's"
[ "$made_a" = "ctx_a pd_a buf_a cq_a a ab" ] || fail "a made: $made_a"
[ "$made_b" = "ctx_b pd_b buf_b cq_b b ab" ] || fail "b made: $made_b"
[ "$pps" = "passed passed" ] || fail "pingpong: a and b $pps"
[ "$leaks" = "0 0" ] || fail "leaks: a and b $leaks"
ok "rc_pingpong across nodes a and b: both exit 0, no leaks; a's latency avg $avg usec; b's record in a's"
grep . "$tmp/a.out" | tail -3

# 2. Different params: refused at the meeting, nothing created.
both --set size=64 "$pp" -- --set size=128 "$pp"
[ $rc = 2 ] && [ $rc_b = 2 ] || { cat "$tmp"/a.* "$tmp"/b.*; fail "params mismatch: exit a $rc, b $rc_b"; }
grep -q "size" "$tmp/a.err" "$tmp/a.out" || { cat "$tmp"/a.*; fail "params mismatch: the param is not named"; }
[ "$(rec '[.objects[] | select(.outcome != "pending")] | length')" = 0 ] || fail "params mismatch: something was created"
ok "params mismatch refused before anything was created: $(grep -h 'size' "$tmp/a.err" "$tmp/a.out" | head -1)"

# 3. Node b never comes: a ends at its deadline, naming b.
t0=$(date +%s)
RDMASCN_NODES_DEADLINE_MS=3000 run_scn "$tmp/a.out" "$tmp/a.err" --node a "$pp"
t=$(($(date +%s) - t0))
[ $rc = 3 ] || { cat "$tmp"/a.*; fail "lonely a: exit $rc, want 3"; }
grep -q "'b'" "$tmp/a.err" "$tmp/a.out" || { cat "$tmp"/a.*; fail "lonely a: b is not named"; }
slow_within $t 15 || fail "lonely a: took $t s, $slow_said s"
ok "node b never came: a exit 3 after $t s ($slow_said s): $(grep -h "'b'" "$tmp/a.err" "$tmp/a.out" | head -1)"

# 4. A step fails on a (a remote access error): b, which has no half in
# it, hears of it; both exit 1, each torn down, b naming a's failure.
fl=$(dirname "$0")/scn/nodes_fail.yaml
both --check-leaks "$fl" -- --check-leaks "$fl"
[ $rc = 1 ] && [ $rc_b = 1 ] || { cat "$tmp"/a.* "$tmp"/b.*; fail "failing step: exit a $rc, b $rc_b, want 1 and 1"; }
grep -q "node 'a' failed: step 2 (write) 'w'" "$tmp/b.err" "$tmp/b.out" || { cat "$tmp"/b.*; fail "failing step: b does not name a's failure"; }
[ "$(destroyed "$tmp/b.out" | wc -l)" = 6 ] || { cat "$tmp/b.out"; fail "failing step: b did not tear down its 6 objects"; }
ok "a failing step on a ends both with exit 1: b says $(grep -h "node 'a' failed" "$tmp/b.err" "$tmp/b.out" | head -1)"

# 5. Node b killed in the middle of a step: a ends at once, naming b,
# torn down, nothing left.
# 10^6 round trips take far longer than the test (and than pp's deadline,
# 120 s); 10^8 made the pingpong's start allocate and touch 800 MB of
# samples, some 40 s under TCG in which a hears nothing of b.
"$rdmascn" run --node b --set iters=1000000 "$fl" >"$tmp/b.out" 2>"$tmp/b.err" &
pid_b=$!
run_bg ab --check-leaks --node a --set iters=1000000 "$fl"
pid_a=$pid
sleep 2
t0=$(date +%s.%N)
kill -9 $pid_b
wait $pid_b 2>/dev/null
tb=$(date +%s.%N)
# When a's report says its step ended, and its teardown began and ended
# (the text report flushes each line).
t_step= t_td= t_down=
while kill -0 $pid_a 2>/dev/null; do
	now=$(date +%s.%N)
	[ -z "$t_step" ] && grep -q "^step 1 .*failed" "$tmp/out" && t_step=$now
	[ -z "$t_td" ] && grep -q "^destroyed" "$tmp/out" && t_td=$now
	[ -z "$t_down" ] && grep -q "^destroyed .*context" "$tmp/out" && t_down=$now
	sleep 0.1
done
wait $pid_a
rc=$?
t=$(printf '%.0f' "$(echo "$(date +%s.%N) - $t0" | bc)")
since() { [ -n "$1" ] && printf '%.1f' "$(echo "$1 - $t0" | bc)" || echo '?'; }
echo "b killed: reaped after $(since "$tb") s; a's step failed after $(since "$t_step") s, teardown from $(since "$t_td") to $(since "$t_down") s, a exited after $t s"
[ $rc != 0 ] || fail "b killed: a exit 0"
grep -q "node 'b'" "$tmp/err" "$tmp/out" 2>/dev/null || { cat "$tmp"/out "$tmp"/err; fail "b killed: a does not name b"; }
# The loss ended it, within seconds (b's exit under TCG takes 1-5 s), not
# the step's deadline (120 s).
slow_within $t 20 || fail "b killed: a took $t s to end, $slow_said s"
[ "$(destroyed "$tmp/out" | wc -l)" = 6 ] || { cat "$tmp/out"; fail "b killed: a did not tear down its 6 objects"; }
ok "node b killed in the pingpong: a exit $rc after $t s ($slow_said s), torn down: $(grep -h "node 'b'" "$tmp/err" "$tmp/out" | head -1)"
grep -h "^step\|failed" "$tmp/out" | head -3

# 5b. A node's device: (its contexts say any): b's is one that does not
# exist, so b cannot run, naming it, and a ends with it (3), nothing made.
dv=$(dirname "$0")/scn/nodes_device.yaml
"$rdmascn" run --node b --set dev_b=nosuch0 "$dv" >"$tmp/b.out" 2>"$tmp/b.err" &
pid_b=$!
run_scn "$tmp/a.out" "$tmp/a.err" --node a --set dev_b=nosuch0 "$dv"
wait $pid_b
rc_b=$?
[ $rc = 3 ] && [ $rc_b = 3 ] || { cat "$tmp"/a.* "$tmp"/b.*; fail "node device: exit a $rc, b $rc_b, want 3 and 3"; }
grep -q nosuch0 "$tmp/b.out" "$tmp/b.err" || { cat "$tmp"/b.*; fail "node device: b does not name nosuch0"; }
[ "$(rec '[.objects[] | select(.outcome != "pending")] | length')" = 0 ] || fail "node device: a created something"
ok "a node's device: b opened its node's nosuch0, not any: both exit 3: $(grep -h nosuch0 "$tmp/b.err" "$tmp/b.out" | head -1)"

# --- the rest of scenarios/nodes/, and the launchers ---------------------
# (tests/rxe/pair.sh runs rc_pingpong and write_bw across two VMs.)
scn=$scn/nodes
unset OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE SLURM_PROCID SLURM_NTASKS \
	PMI_RANK PMI_SIZE PMIX_RANK

# Each rank: rdmascn ARGS with its output in PREFIX.RANK.{out,err}; its
# record, where it writes one, in PREFIX.RANK.json.
# shellcheck disable=SC2016
per_rank='r=$OMPI_COMM_WORLD_RANK p=$1; shift
	for a; do shift; [ "$a" = "$p.json" ] && a=$p.$r.json; set -- "$@" "$a"; done
	exec "$0" run "$@" >"$p.$r.out" 2>"$p.$r.err"'

# 6. mpirun: rank i plays the i-th node, two ranks on one rxe0.
# Straight into a file, as a user would: Open MPI gives each rank a pty,
# yet the file gets no escape byte, and every line names its node.
mpirun --allow-run-as-root --oversubscribe -x RDMASCN_KEY -np 2 \
	"$rdmascn" run --set iters=200 "$scn/rc_pingpong.yaml" \
	>"$tmp/merged.out" 2>"$tmp/merged.err"
rc=$?
[ $rc = 0 ] || { cat "$tmp/merged.out" "$tmp/merged.err"; fail "mpirun > file: exit $rc"; }
if grep -q $'\033' "$tmp/merged.out" || grep -qv '^\[[ab]\] ' "$tmp/merged.out" ||
   [ "$(grep -c '^\[[ab]\] passed: ' "$tmp/merged.out")" != 2 ]; then
	cat -A "$tmp/merged.out" | head -40
	fail "mpirun > file: an escape byte, a line without [a] or [b], or not two verdicts"
fi
ok "mpirun -np 2 > file: no escape byte, every line [a] or [b] ($(wc -l <"$tmp/merged.out") lines)"
for f in rc_pingpong write_bw; do
	roles=(a b)
	[ $f = write_bw ] && roles=(c s)
	rm -f "$tmp"/mpi.*
	mpirun --allow-run-as-root --oversubscribe -x RDMASCN_KEY -np 2 sh -c "$per_rank" \
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
	ok "mpirun -np 2 $f: both ranks passed, torn down, no leaks"
done

# 8. Slurm's variables, set by hand as srun would.
SLURM_PROCID=1 SLURM_NTASKS=2 "$rdmascn" run --check-leaks "$scn/rc_pingpong.yaml" \
	--set iters=100 >"$tmp/s1.out" 2>"$tmp/s1.err" & p1=$!
SLURM_PROCID=0 SLURM_NTASKS=2 "$rdmascn" run --check-leaks "$scn/rc_pingpong.yaml" \
	--set iters=100 >"$tmp/s0.out" 2>"$tmp/s0.err"
rc=$?
wait $p1
node_ok "SLURM_PROCID=1" "$tmp/s1.out" "$tmp/s1.err" $? 0
node_ok "SLURM_PROCID=0" "$tmp/s0.out" "$tmp/s0.err" $rc 0
ok "SLURM_PROCID/SLURM_NTASKS: both nodes passed"

# 9. --node by hand: the rdma_cm connection, and the failing scenario
# (both nodes end with its verdict, 1, and tear down).
by_hand "$scn/fail_bad_rkey.yaml" 1 b a --
grep -q "bad_write.*rem_access_err" "$tmp/a.out" "$tmp/a.err" ||
	{ cat "$tmp/a.out" "$tmp/a.err"; fail "fail_bad_rkey: bad_write did not fail with rem_access_err"; }
keep_rec "$tmp/a.json" 1 "fail_bad_rkey node a"
ok "--node: fail_bad_rkey ended 1 on both nodes, torn down, no leaks"

# 10. rdma_cm between nodes: b listens at its GID's IPv4 address (rxe0's,
# 10.99.0.1 here) on a port the rendezvous carries to a, a connects.
by_hand "$scn/rdma_cm.yaml" 0 b a -- --set iters=50
grep -q "rdma_accept" "$tmp/b.out" "$tmp/b.err" 2>/dev/null ||
	[ "$(jq -r '[.objects[] | select(.id == "ab") | .outcome] | join(",")' "$tmp/b.json")" = created ] ||
	{ cat "$tmp/b.out"; fail "rdma_cm: b's connection was not created"; }
[ "$(jq -r '.steps[0].outcome' "$tmp/a.json")" = passed ] ||
	fail "rdma_cm: a's pingpong $(jq -r '.steps[0].outcome' "$tmp/a.json")"
keep_rec "$tmp/a.json" 0 "rdma_cm node a"
ok "--node: rdma_cm across two processes passed on both: a's latency avg $(jq -r '.steps[0].figures.latency.avg' "$tmp/a.json") usec"

# 11. The UD fan-out: four nodes, four ranks; tx sends to QPs on r1..r3
# with the QPNs and Q_Keys they published, each receiver counts its
# datagrams and checks its byte.
rm -f "$tmp"/mpi.*
mpirun --allow-run-as-root --oversubscribe -x RDMASCN_KEY -np 4 sh -c "$per_rank" \
	"$rdmascn" "$tmp/mpi" --check-leaks --set iters=32 \
	--json "$tmp/mpi.json" "$scn/ud_fanout.yaml" >"$tmp/mpirun.out" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$tmp/mpirun.out" "$tmp"/mpi.*.out "$tmp"/mpi.*.err; fail "mpirun ud_fanout: exit $rc"; }
for r in 0 1 2 3; do
	node_ok "mpirun ud_fanout rank $r" "$tmp/mpi.$r.out" "$tmp/mpi.$r.err" 0 0
done
# Each receiver ran its half of its ud_send (inside the parallel step).
got=
for r in 1 2 3; do
	got="$got to$r@r$r=$(jq -r "[.. | objects | select(.id? == \"to$r\" and has(\"outcome\")) | .outcome] | first" "$tmp/mpi.$r.json")"
done
[ "$got" = " to1@r1=passed to2@r2=passed to3@r3=passed" ] ||
	{ cat "$tmp"/mpi.[123].out; fail "ud_fanout: the receivers' halves:$got"; }
keep_rec "$tmp/mpi.0.json" 0 "mpirun ud_fanout rank 0"
ok "mpirun -np 4 ud_fanout: one sender, three receivers, each counted its datagrams and its byte: $got"

# 11b. The exchange grows with what is needed: four nodes in a ring, four
# connections, oob and then via rdma_cm (four listeners, each connected
# to in the order of the plan after the one exchange).  Each rank's
# record (node.exchanges) says: one exchange for all the connections
# ("create phase 1"), in which it sent and received two descriptions
# (its own two connections' far sides: 368 bytes each oob, 376 via
# rdma_cm, which carries b's port), and one for the remote MRs, in which
# it received one (the buffer it writes into, 56 bytes) and sent one;
# the numbers are the record's.
for via in oob rdma_cm; do
	rm -f "$tmp"/mpi.*
	mpirun --allow-run-as-root --oversubscribe -x RDMASCN_KEY -np 4 sh -c "$per_rank" \
		"$rdmascn" "$tmp/mpi" --check-leaks --set via=$via --json "$tmp/mpi.json" \
		"$(dirname "$0")/scn/nodes_ring4.yaml" >"$tmp/mpirun.out" 2>&1
	rc=$?
	[ $rc = 0 ] || { cat "$tmp/mpirun.out" "$tmp"/mpi.*.out "$tmp"/mpi.*.err; fail "mpirun ring4 $via: exit $rc"; }
	d=368
	[ $via = rdma_cm ] && d=376
	got= want=
	for r in 0 1 2 3; do
		node_ok "mpirun ring4 $via rank $r" "$tmp/mpi.$r.out" "$tmp/mpi.$r.err" 0 0
		want="$want n$r:create phase 1=2/2,$((2 * d))/$((2 * d));remote objects=1/1,56/56"
	done
	# The four records in one jq, a line each, in rank order (no <(...):
	# the VM has no /dev/fd).
	mapfile -t lines <<<"$(jq -r '.node.name + ":" + ([.node.exchanges[] | "\(.phase)=\(.sent)/\(.received),\(.sent_bytes)/\(.received_bytes)"] | join(";"))' "$tmp"/mpi.[0-3].json)"
	for l in "${lines[@]}"; do
		got="$got $l"
	done
	[ "$got" = "$want" ] || { jq -c '.node' "$tmp"/mpi.[0-3].json; fail "ring4 $via: exchanges (count sent/received, bytes sent/received)$got, want$want"; }
	keep_rec "$tmp/mpi.0.json" 0 "mpirun ring4 $via rank 0"
	ok "mpirun -np 4 ring4 $via: one exchange for the four connections, each node sent and received only its own:$got"
done

# 12. SIGINT on node b in the middle of a long pingpong: b aborts with
# 130 and a hears it at once (not at its step's deadline): both end
# with 130, torn down.
"$rdmascn" run --node b --check-leaks --set iters=100000000 "$pp" \
	>"$tmp/b.out" 2>"$tmp/b.err" & pid_b=$!
"$rdmascn" run --node a --check-leaks --set iters=100000000 "$pp" \
	>"$tmp/a.out" 2>"$tmp/a.err" & pid_a=$!
# Both nodes' QPs in RTS: the two processes', not any on rxe0 (a test
# in the other lane makes its own).
for i in $(seq 600); do
	q=$(rdma res show qp 2>/dev/null)
	n=0
	while IFS= read -r l; do
		[[ $l == *"state RTS"* ]] &&
			[[ $l == *" pid $pid_a "* || $l == *" pid $pid_b "* ]] &&
			n=$((n + 1))
	done <<<"$q"
	[ $n -ge 2 ] && break
	sleep 0.1
done
sleep 1
kill -INT $pid_b
t0=$(date +%s)
wait $pid_b; rc_b=$?
wait $pid_a; rc_a=$?
t=$(($(date +%s) - t0))
[ $rc_b = 130 ] && [ $rc_a = 130 ] || { cat "$tmp"/a.* "$tmp"/b.*; fail "SIGINT on b: exit a $rc_a, b $rc_b (want 130 both)"; }
slow_within $t 15 || fail "SIGINT on b: the nodes took $t s to end, $slow_said s"
grep -q "node 'b' failed: interrupted by SIGINT" "$tmp/a.out" "$tmp/a.err" ||
	{ cat "$tmp"/a.*; fail "SIGINT on b: a does not say why"; }
grep -q "leaks: none" "$tmp/a.out" && grep -q "leaks: none" "$tmp/b.out" ||
	{ cat "$tmp"/a.* "$tmp"/b.*; fail "SIGINT on b: a leak check did not say none"; }
ok "SIGINT on node b mid-step: both exit 130 within $t s ($slow_said s), a names b's interruption, no leaks"
fi
[ "$part" = rxe0 ] && exit 0

# 13. Uniformity: two rxe devices on the two ends of a veth pair, node a
# on rxe_a (veth2, 10.98.0.1), node b on rxe_b (veth3, 10.98.0.2), the
# traffic between the two local addresses sent over the veth rather than
# lo (a routing table each way ahead of the local one, the far end
# accepting a local source).  Equal netdev MTUs: a real pingpong over
# the veth.  4200 on veth2 (active MTU 4096) and 1500 on veth3 (1024):
# both nodes exit 3 at the connection, naming both nodes and values,
# nothing leaked.
un=$(dirname "$0")/scn/nodes_uniform.yaml
un_t0=$(date +%s)
trap 'st_=$?; [ "$BASHPID" = $$ ] || exit $st_; status $st_; veth_rxe_down; records_ok; rc_=$?; rm -rf "$tmp"; exit $rc_' EXIT
veth_rxe_up || fail "uniformity: could not set up the veth pair and rxe_a, rxe_b"
tx0=$(cat /sys/class/net/veth2/statistics/tx_packets)
by_hand "$un" 0 b a -- --set iters=20
tx=$(($(cat /sys/class/net/veth2/statistics/tx_packets) - tx0))
[ $tx -ge 20 ] || fail "uniformity: equal MTUs passed but veth2 sent $tx packets"
keep_rec "$tmp/a.json" 0 "uniform node a"
ok "equal MTUs on rxe_a and rxe_b: a pingpong over the veth passed on both nodes ($tx packets out of veth2), no leaks"

ip link set veth2 mtu 4200 && ip link set veth3 mtu 1500 ||
	fail "uniformity: could not set the MTUs"
want="connection 'ab': node 'a' (rxe_a port 1) has active MTU 4096, node 'b' (rxe_b port 1) has 1024"
by_hand "$un" 3 b a -- --set iters=20
for n in a b; do
	grep -qF "$want" "$tmp/$n.out" "$tmp/$n.err" ||
		{ cat "$tmp/$n.out" "$tmp/$n.err"; fail "MTU mismatch: node $n does not say: $want"; }
	[ "$(jq -r '[.objects[] | select(.kind == "connection") | .outcome] | join(",")' "$tmp/$n.json")" = failed ] ||
		fail "MTU mismatch: node $n's connection: $(jq -c '[.objects[] | select(.kind == "connection")]' "$tmp/$n.json")"
	[ "$(jq -r '.steps[0].outcome' "$tmp/$n.json")" != passed ] ||
		fail "MTU mismatch: node $n ran the step"
done
keep_rec "$tmp/a.json" 3 "uniform mismatch node a"
veth_rxe_down
ok "MTU mismatch (veth2 4200, veth3 1500): both nodes exit 3 at the connection, no leaks: $want (uniformity checks: $(($(date +%s) - un_t0)) s)"
