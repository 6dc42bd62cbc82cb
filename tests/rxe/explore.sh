#!/bin/bash
# Inside the Soft-RoCE VM, on rxe0: rdmascn explore's two searches of
# scenarios/explore/, each on two seeds.  The inline threshold (the
# largest max_inline_data rxe creates an RC QP with): found from the
# failing corner by the file's bisect (seed 1) and by the annealing walk
# (seed 2), both shrunk to the same value, depth back to its default; the
# reproducer run alone fails the same way.  The write-throughput knee
# over size: within 20 cells on both seeds (bisect seed 1, anneal seed
# 2), judged on rounds of cells (each value's median ratio to the best
# of its rounds); whether both name the same knee is said, not asserted
# (docs/explore.md).  --find gate: the largest write
# that is one packet (a counter gate missed past the MTU), shrunk, the
# reproducer missing the same gate.  Every document is checked against
# the record's schema.
set -u
rdmascn=$1
ex=$2/explore
. "$(dirname "$0")/lib.sh"
t_all=$SECONDS

# search NAME ARGS...: rdmascn explore -q ARGS, the document to
# $tmp/NAME.json (checked at the end with the run records), the report
# to $tmp/NAME.out; sets $rc.
search() {
	local name=$1
	shift
	"$rdmascn" explore -q --json "$tmp/$name.json" "$@" \
		>"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	[ -e "$tmp/$name.json" ] &&
		echo "$tmp/$name.json:$rc explore $*" >>"$tmp/recs/list"
}
doc() { local f=$1; shift; jq -r "$@" "$tmp/$f.json"; }

# The shrunk case of a threshold search: inline's value in it, depth's,
# and whether inline one less passed (it is the threshold, then).
shrunk() {
	doc "$1" '.cells[.matrix.explore.shrunk.cell - 1].cell.params as $p |
		($p.inline | tonumber) as $v |
		"\($v) \($p.depth) \([.cells[] | select(.cell.params.inline ==
			"\($v - 1)" and .verdict == "passed")] | length > 0)"'
}

# 1. The threshold, the file's way (bisect, seed 1), shrunk and written.
search t1 "$ex/inline_threshold.yaml" --shrink-out "$tmp/repro.yaml"
[ $rc = 0 ] || { cat "$tmp/t1.out" "$tmp/t1.err"; fail "threshold, seed 1: exit $rc"; }
read -r thr1 depth1 below1 <<<"$(shrunk t1)"
[ "$depth1" = 16 ] && [ "$below1" = true ] &&
	[ "$(doc t1 '.matrix.explore | [.found != null, .shrunk.fails_the_same_way,
		.stopped, .budget.cells] | join(",")')" = "true,true,done,16" ] &&
	grep -q "^reproducer: $tmp/repro.yaml: run alone, fails the same way$" "$tmp/t1.out" ||
	{ cat "$tmp/t1.out"; fail "threshold, seed 1: shrunk to inline=$thr1 depth=$depth1 (one less passed: $below1)"; }
ok "threshold, bisect, seed 1: inline $thr1 fails, $((thr1 - 1)) passes, depth back to 16; $(doc t1 '.matrix.explore.boundary.inline | "boundary \(.passes)..\(.fails)"'), $(doc t1 '.cells | length') cells"

# 2. The same threshold by the annealing walk on another seed.
search t2 "$ex/inline_threshold.yaml" --strategy anneal --seed 2
read -r thr2 depth2 below2 <<<"$(shrunk t2)"
[ $rc = 0 ] && [ "$thr2" = "$thr1" ] && [ "$depth2" = 16 ] &&
	[ "$below2" = true ] &&
	grep -q "^explore: .*: fail, strategy anneal, seed 2, budget 16 cells, 600 s$" "$tmp/t2.out" ||
	{ cat "$tmp/t2.out" "$tmp/t2.err"; fail "threshold, anneal seed 2: exit $rc, inline $thr2 (seed 1: $thr1)"; }
ok "threshold, anneal, seed 2: the same inline $thr2, $(doc t2 '.cells | length') cells"

# 3. The reproducer alone: could not run, the QP's create refused.
run_scn "$tmp/out" "$tmp/err" "$tmp/repro.yaml"
[ $rc = 3 ] &&
	grep -q "qp 'qp': ibv_create_qp: Invalid argument (max_inline_data $thr1 exceeds device limit $((thr1 - 1))" "$tmp/err" &&
	grep -q "^  inline: {default: $thr1, " "$tmp/repro.yaml" &&
	grep -q "^#   objective: find fail; strategy bisect, seed 1; " "$tmp/repro.yaml" ||
	{ cat "$tmp/err"; head -8 "$tmp/repro.yaml"; fail "reproducer: exit $rc"; }
ok "the reproducer alone: exit 3, max_inline_data $thr1 refused"

# 4. --find gate: the largest write that is one packet.  A cell misses
# the step's gate on counters.sent_pkts (512 writes and their acks at
# most 1024 packets) once a write is more than one MTU; the boundary is
# bisected, the failing cell shrunk to one byte over the MTU, and the
# reproducer alone misses the same gate (exit 1).
search g1 "$ex/write_packets.yaml" --shrink-out "$tmp/mtu.yaml"
read -r gsize <<<"$(doc g1 '.cells[.matrix.explore.shrunk.cell - 1].cell.params.size')"
mtu=$((gsize - 1))
[ $rc = 0 ] && [ "$(doc g1 '.matrix.explore | [.objective.goal, .found != null,
		.shrunk.fails_the_same_way, .boundary.size.passes,
		.boundary.size.fails] | join(",")')" = "gate,true,true,$mtu,$((mtu * 2))" ] &&
	[ "$(doc g1 "[.cells[] | select(.cell.params.size == \"$mtu\" and
		.cell.search.fails == false)] | length")" -ge 1 ] &&
	grep -q "^found: cell [0-9]*: size=[0-9]*: failed: step 'w': gate counters.sent_pkts: " "$tmp/g1.out" ||
	{ cat "$tmp/g1.out" "$tmp/g1.err"; fail "gate, seed 1: exit $rc, shrunk to size $gsize"; }
run_scn "$tmp/out" "$tmp/err" "$tmp/mtu.yaml"
[ $rc = 1 ] && grep -q "^  size: {default: $gsize, " "$tmp/mtu.yaml" &&
	grep -q "gate: counters.sent_pkts is .*, above max 1024" "$tmp/out" "$tmp/err" ||
	{ cat "$tmp/out" "$tmp/err"; fail "gate reproducer: exit $rc"; }
ok "find gate: a write of $gsize bytes is the first to miss the packets gate (boundary $mtu..$((mtu * 2)), $(doc g1 '.cells | length') cells); the reproducer alone misses it, exit 1"

# 5. The knee, on two seeds, within 20 cells (last: a busy host may
# fail it): the smallest size whose score (the median of its ratios to
# the best of each round of cells it ran in) reaches 80% of the
# plateau's (the file's knee: 20).
knee() {
	local n=$1
	doc "$n" '.matrix.explore.knee.size |
		def r2: . * 100 | round / 100;
		"\(.value // "none") \(.score // 0 | r2) \(.short.value // "-") \(.short.score // 0 | r2)"'
}
search k1 "$ex/write_knee.yaml"
read -r knee1 score1 short1 sscore1 <<<"$(knee k1)"
[ $rc = 0 ] && [ "$knee1" != none ] && [ "$(doc k1 '.cells | length')" -le 20 ] &&
	[ "$(doc k1 '[.cells[] | select(.cell.search.phase == "repeat")] | length')" -ge 2 ] ||
	{ cat "$tmp/k1.out" "$tmp/k1.err"; fail "knee, seed 1: exit $rc, knee $knee1"; }
search k2 "$ex/write_knee.yaml" --strategy anneal --seed 2
read -r knee2 score2 short2 sscore2 <<<"$(knee k2)"
[ $rc = 0 ] && [ "$knee2" != none ] && [ "$(doc k2 '.cells | length')" -le 20 ] ||
	{ cat "$tmp/k2.out" "$tmp/k2.err"; fail "knee, anneal seed 2: exit $rc, knee $knee2"; }
# Whether both seeds name the same knee is said, not asserted: under
# TCG a cell's throughput swings two- to tenfold with the host's load
# (docs/explore.md, "The knee on rxe"), and five device runs named the
# same knee three times.  Issue 34 stays open on it.
if [ "$knee2" = "$knee1" ]; then
	same="the same on both seeds"
else
	echo "# knee, seed 1:"; sed 's/^/# /' "$tmp/k1.out"
	echo "# knee, seed 2:"; sed 's/^/# /' "$tmp/k2.out"
	same="NOT the same on both seeds (not asserted: see docs/explore.md)"
fi
ok "knee of write throughput within 20 cells, $same: $knee1 (bisect, seed 1: $(doc k1 '.cells | length') cells, score $score1, $short1: $sscore1) and $knee2 (anneal, seed 2: $(doc k2 '.cells | length') cells, score $score2, $short2: $sscore2)"

ok "explore on rxe0: $((SECONDS - t_all)) s"
