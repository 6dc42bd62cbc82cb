#!/bin/bash
# Inside the Soft-RoCE VM, on rxe0 in loopback: gates on the port
# counters a step and the run moved.  A write stream whose counter gates
# hold passes; one that cannot hold (sent_pkts: {max: 0}) fails naming
# the counter, the port, the bound and the value at the bound's
# FILE:LINE:COL; a counter rxe lacks is "not measured" (a failure), or
# with missing: skip, a skipped step; the run's gates: judge the run's
# totals; requires.counters skips (77) a device that lacks one; and
# scenarios/fabric/interference.yaml keeps its ratio (printed; the
# default `ratio` was chosen from six runs, docs/counters.md).
set -u
rdmascn=$1
scndir=$2
. "$(dirname "$0")/lib.sh"

# scn NAME GATE [TOP]: a write stream on rxe0 with gate GATE (a flow
# mapping), TOP before the objects; into $tmp/NAME.yaml.
scn() {
	cat >"$tmp/$1.yaml" <<EOT
scenario: $1
${3:-}
contexts: [{id: ctx, device: rxe0, port: 1}]
pds: [{id: pd, context: ctx}]
cqs: [{id: cq, context: ctx, cqe: 64}]
mrs:
  - {id: src, pd: pd, length: 4096, access: [local_write], fill: pattern}
  - {id: dst, pd: pd, length: 4096, access: [local_write, remote_write], fill: zero}
qps:
  - {id: a, pd: pd, type: rc, send_cq: cq, cap: {max_send_wr: 32, max_recv_wr: 1}}
  - {id: b, pd: pd, type: rc, send_cq: cq, cap: {max_send_wr: 1, max_recv_wr: 1}}
connections: [{id: ab, a: a, b: b}]
steps:
  - stream: {id: w, qp: a, op: write, local: src, remote: dst, size: 4096, iterations: 200, depth: 16, gate: $2}
EOT
}

# Held: sent_pkts moved, nothing retried; every packet rxe0 sent in
# loopback it received; the run's gates hold, rxe's missing *discard*
# counters skipped.
scn held "{counters.sent_pkts: {min: 200}, counters.retry_exceeded_err: {max: 0}, counters.rxe0/1.rcvd_pkts: {equals_counter: sent_pkts}}" \
	"gates: {counters.*discard*: {max: 0, missing: skip}, counters.retry_exceeded_err: {max: 0}}"
expect held 0 "$tmp/held.yaml"
# (One jq for the check: a jq start is most of a second here.)
recvars -- passed='[.steps[0].gates[].passed] | all' sg='.steps[0].gates' \
	ngates='.gates | length' skipped='.gates[0].skipped' \
	passed1='.gates[1].passed' gates='.gates' \
	sent='.steps[0].gates[0].value' rcvd='.steps[0].gates[2].value'
[ "$passed" = true ] || fail "held: $sg"
[ "$ngates" = 2 ] && [ "$skipped" = true ] && [ "$passed1" = true ] ||
	fail "held: the run's gates $gates"
has held "$tmp/out" '^run gate counters.retry_exceeded_err <= 0: 0 held'
ok "held: sent_pkts $sent, rcvd_pkts $rcvd, the run's *discard* not measured and skipped"

# Cannot hold: named, with port, value and bound, at the bound.
scn missed "{counters.sent_pkts: {max: 0}}"
expect missed 1 "$tmp/missed.yaml"
has missed "$tmp/err" "missed.yaml:14:[0-9]+: step 1 \(stream\) 'w': gate: counters.sent_pkts is [1-9][0-9]* \(rxe0/1 [1-9][0-9]*\), above max 0"
ok "missed: $(grep -m1 'gate:' "$tmp/err")"

# Not measured: a named failure; with missing: skip, a skipped step.
scn unmeasured "{counters.no_such_counter: {max: 0}}"
expect unmeasured 1 "$tmp/unmeasured.yaml"
has unmeasured "$tmp/err" "gate: counters.no_such_counter: not measured: rxe0/1 has no such counter"
scn skipped "{counters.no_such_counter: {max: 0, missing: skip}}"
expect skipped 0 "$tmp/skipped.yaml"
recvars -- outcome='.steps[0].outcome' message='.steps[0].message' \
	step='.steps[0]'
[ "$outcome" = skipped ] || fail "skipped: $step"
ok "not measured: a failure, or with missing: skip, step $outcome: $message"

# The run's gates: a miss fails the run, named.
scn run_missed "{counters.sent_pkts: {min: 1}}" "gates: {counters.sent_pkts: {max: 0}}"
expect run_missed 1 "$tmp/run_missed.yaml"
has run_missed "$tmp/err" "run_missed.yaml:2:[0-9]+: gates: counters.sent_pkts is [1-9][0-9]* \(rxe0/1 [1-9][0-9]*\), above max 0"
ok "run gates: $(grep -m1 'gates:' "$tmp/err")"

# requires.counters: rxe has sent_pkts, not no_such_counter.
scn req_has "{counters.sent_pkts: {min: 1}}" "requires: {counters: [sent_pkts, rcvd_pkts]}"
expect req_has 0 "$tmp/req_has.yaml"
scn req_lacks "{counters.sent_pkts: {min: 1}}" "requires: {counters: [sent_pkts, no_such_counter]}"
run_scn "$tmp/out" "$tmp/err" --check-leaks "$tmp/req_lacks.yaml"
[ $rc = 77 ] || { cat "$tmp/out" "$tmp/err"; fail "req_lacks: exit $rc, want 77"; }
has req_lacks "$tmp/err" "rxe0 has no counter no_such_counter \(requires.counters"
grep -q '^created' "$tmp/out" && fail "req_lacks: skipped after creating objects"
ok "requires.counters: $(grep -m1 'has no counter' "$tmp/err")"

# Interference: the victim beside the attackers keeps its ratio.
expect interference 0 "$scndir/fabric/interference.yaml"
ok "interference: victim $(rec '.steps[] | select(.id == "victim") | .gates[0] | "\(.value) MB/s = \(.ratio) x \(.of_value) MB/s alone"')"
