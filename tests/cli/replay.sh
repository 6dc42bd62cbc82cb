#!/bin/bash
# SPDX-License-Identifier: MIT
# rdmascn report: the run records in tests/cli/replay/ were recorded on
# rxe0 (replay.yaml: every figure a core step records and passing gates;
# negative_rnr.yaml; replay.yaml with a gate that misses; rnr's with a
# --check-leaks -v entry of a leaked pd and mr, librdmacm's context and a
# kind the kernel did not list, written by hand; negative_rnr.yaml again
# with the port counters, whose RNR error counters moved; a netem qdisc
# an impair step left, written by hand; scenarios/fabric/blackhole.yaml
# and link_flap.yaml on rxe_a and rxe_b over a veth pair: the netem,
# transport timeout and link figures, and port events a link step
# provoked), beside the
# text report and JUnit the run itself printed.  Told again, each record
# gives the same text report byte for byte, the same errors on stderr,
# and the same JUnit (the failed run's with its error line placed at the
# end of system-out: the record keeps no position for it).  A matrix
# document is told cell by cell; what is not a record is refused (2).
set -u
rdmascn=$1 schema=$2 checker=$3
dir=$(dirname "$0")/replay
tmp=$(mktemp -d) || exit 1
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

for r in replay:0 rnr:0 fail:1 leaks:3 counters:0 blackhole:0 link_flap:0; do
	name=${r%:*} code=${r#*:}
	python3 "$checker" "$schema" "$dir/$name.json" "$code" ||
		fail "$name.json is not a valid run record"
	"$rdmascn" report "$dir/$name.json" >"$tmp/$name.txt" \
		2>"$tmp/$name.err" || fail "report $name.json: exit $?"
	if cmp -s "$dir/$name.txt" "$tmp/$name.txt"; then
		echo "ok $name: the text report is the run's, byte for byte"
	else
		fail "report $name.json: text differs:"
		diff "$dir/$name.txt" "$tmp/$name.txt" | head -n 20
	fi
	if [ -f "$dir/$name.err" ]; then
		cmp -s "$dir/$name.err" "$tmp/$name.err" ||
			fail "report $name.json: stderr differs: $(cat "$tmp/$name.err")"
	elif [ -s "$tmp/$name.err" ]; then
		fail "report $name.json: stderr: $(cat "$tmp/$name.err")"
	fi
	"$rdmascn" report -f junit -o "$tmp/$name.xml" "$dir/$name.json" ||
		fail "report -f junit $name.json: exit $?"
	if [ "$name" = fail ]; then
		# The same lines; the error's moved to the end of system-out.
		cmp -s <(sort "$dir/$name.junit.xml") <(sort "$tmp/$name.xml") ||
			fail "report -f junit $name.json: lines differ"
	elif ! cmp -s "$dir/$name.junit.xml" "$tmp/$name.xml"; then
		fail "report -f junit $name.json: JUnit differs:"
		diff "$dir/$name.junit.xml" "$tmp/$name.xml" | head -n 20
	fi
done
echo "ok JUnit told again as the run wrote it"

# The graph, as --graph-out draws it: each node in its record's outcome.
(cd "$dir" && "$rdmascn" report -f graph -o "$tmp/ok.dot" replay.json) ||
	fail "report -f graph replay.json: exit $?"
for want in 'label="replay: passed"' '"bind" \[.*tooltip="passed"' \
	'"lat" \[.*tooltip="passed"' '"ab" \[.*tooltip="created"'; do
	grep -q -- "$want" "$tmp/ok.dot" || fail "graph replay: no $want"
done
sed 's/{max: 1000000}/{max: 0.001}/' "$dir/replay.yaml" >"$tmp/replay_fail.yaml"
"$rdmascn" report -f graph -s "$tmp/replay_fail.yaml" -o "$tmp/fail.dot" \
	"$dir/fail.json" || fail "report -f graph fail.json: exit $?"
for want in 'label="replay: failed"' '"lat" \[.*tooltip="failed: gate: latency.typical' \
	'"bw" \[.*tooltip="not run"' '"split" \[.*tooltip="passed"'; do
	grep -q -- "$want" "$tmp/fail.dot" || fail "graph fail: no $want"
done
# Another file than the one that ran is refused: its sha256 differs.
"$rdmascn" report -f graph -s "$dir/replay.yaml" -o "$tmp/x.dot" \
	"$dir/fail.json" 2>"$tmp/err"
[ $? = 2 ] && grep -q 'is not the file the record ran' "$tmp/err" ||
	fail "graph of another file: $(cat "$tmp/err")"
"$rdmascn" report -f graph "$dir/fail.json" 2>"$tmp/err"
[ $? = 2 ] && grep -q 'wants -o FILE.dot' "$tmp/err" ||
	fail "graph without -o: $(cat "$tmp/err")"
echo "ok the graph told again, each node in its outcome"

# Every figure group of the table is in the recorded text.
for want in 'rkey 0x' 'bytes equal' 'split: 4 WRs a message, of 4096 B' \
	'latency usec: min' 'MB/s .* Gb/s .* Mpps' "qp 'a' now ERR" \
	'gate latency.typical <= 1e+06 usec: .* held'; do
	grep -q -- "$want" "$tmp/replay.txt" || fail "replay: no '$want'"
done

# The port counters: under a step and after the run, the error ones
# that moved (the RNR NAK's three); with -v every one that moved, the
# error ones marked; JUnit's system-out has the text's lines.
for want in '^  counter rxe0/1 rcvd_rnr_err 1$' '^  counter rxe0/1 send_rnr_err 1$' \
	'^  counter rxe0/1 retry_rnr_exceeded_err 1$' '^counter   run rxe0/1 send_rnr_err 1$'; do
	grep -q -- "$want" "$tmp/counters.txt" || fail "counters: no /$want/"
done
[ "$(grep -c 'counter' "$tmp/counters.txt")" = 6 ] ||
	fail "counters: want the 6 error lines alone: $(grep counter "$tmp/counters.txt")"
"$rdmascn" -v report "$dir/counters.json" >"$tmp/all.txt" ||
	fail "-v report counters.json: exit $?"
for want in '^  counter rxe0/1 rdma_sends 1$' '^  counter rxe0/1 rcvd_rnr_err 1 (error)$' \
	'^counter   run rxe0/1 sent_pkts 4$'; do
	grep -q -- "$want" "$tmp/all.txt" || fail "-v report counters: no /$want/"
done
grep -q 'counter .* 0$' "$tmp/all.txt" && fail "-v report counters: a counter that did not move"
grep -q 'counter rxe0/1 rcvd_rnr_err 1' "$tmp/counters.xml" ||
	fail "counters: not in JUnit's system-out"
echo "ok the counters that moved, the error ones or with -v all"

# A matrix document: each cell told again, in order.
sed 's/^requires:/params: {size: {default: 64}}\nrequires:/; s/size: 64,/size: "${size}",/' \
	"$dir/replay.yaml" >"$tmp/m.yaml"
"$rdmascn" run --dry-run -q --matrix size=64,128 "$tmp/m.yaml" \
	--json "$tmp/m.json" >/dev/null 2>"$tmp/err" ||
	fail "dry-run matrix: exit $?: $(cat "$tmp/err")"
"$rdmascn" report "$tmp/m.json" >"$tmp/m.txt" 2>&1 ||
	fail "report matrix: exit $?"
[ "$(grep -c '^dry run replay' "$tmp/m.txt")" = 2 ] ||
	fail "report matrix: want two cells: $(cat "$tmp/m.txt")"

# A run interrupted here says so on stderr after its report, from its
# record (interrupted_by), told again as the run said it.
jq '.verdict = "interrupted" | .exit_code = 130 |
	.interrupted_by = "SIGINT"' "$dir/rnr.json" >"$tmp/int.json"
python3 "$checker" "$schema" "$tmp/int.json" 130 ||
	fail "interrupted_by: not a valid run record"
"$rdmascn" report "$tmp/int.json" >/dev/null 2>"$tmp/err"
[ "$(cat "$tmp/err")" = "rdmascn: interrupted by SIGINT; torn down" ] ||
	fail "interrupted_by: stderr: $(cat "$tmp/err")"

# A leader that could not gather the other nodes' records says why on
# stderr after its report, from its record (node_runs_error).
jq '.node_runs_error = "node 1: connection reset"' "$dir/rnr.json" \
	>"$tmp/gather.json"
python3 "$checker" "$schema" "$tmp/gather.json" 0 ||
	fail "node_runs_error: not a valid run record"
"$rdmascn" report "$tmp/gather.json" >/dev/null 2>"$tmp/err"
[ "$(cat "$tmp/err")" = "rdmascn: nodes: the other nodes' records: node 1: connection reset" ] ||
	fail "node_runs_error: stderr: $(cat "$tmp/err")"

# Not a record, no file, a wrong format: invalid, one clear line.
echo '{"steps": 1}' >"$tmp/bad.json"
"$rdmascn" report "$tmp/bad.json" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'bad.json: not a run record' "$tmp/err" ||
	fail "not a record: $(cat "$tmp/err")"
"$rdmascn" report "$tmp/none.json" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q 'none.json: No such file' "$tmp/err" ||
	fail "no file: $(cat "$tmp/err")"
"$rdmascn" report -f pdf "$dir/rnr.json" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -q "Unknown format 'pdf'" "$tmp/err" ||
	fail "unknown format: $(cat "$tmp/err")"
"$rdmascn" report -o "$tmp/nodir/x.txt" "$dir/rnr.json" 2>"$tmp/err"
[ $? = 3 ] || fail "unwritable output: exit $?: $(cat "$tmp/err")"

[ "$fails" = 0 ] || exit 1
echo "ok: report tells recorded runs again"
