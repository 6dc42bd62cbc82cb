#!/bin/bash
# Inside the Soft-RoCE VM: the negative scenarios pass because the error
# they expect really happened.  Each `expect:` of a negative scenario is
# flipped in turn to success (and `expect: <error>` is added to a traffic
# step that succeeds): every such run must exit 1, with a message at the
# step's FILE:LINE:COL naming the step, the WR id and opcode and the
# status, the steps after it `not run`, and a clean teardown.  Then a peer
# that never posts a receive (rnr_retry 7, deadline_ms 1000): the send
# ends at its deadline, exit 1, torn down.
set -u
rdmascn=$1
scndir=$2
. "$(dirname "$0")/lib.sh"

negatives=(negative_bad_rkey negative_rnr)


# steps FILE: one line per top-level step of FILE:
#   NUMBER TYPE ID LINE COL EXPECT_LINE EXPECT_VALUE
# LINE:COL is where the step's type key is (`write` in `- write:`): where
# the engine reports a step; EXPECT_LINE is the line of its `expect:`
# (0: none).
steps() {
	awk '
	function flush() {
		if (n) print n, type, id, line, col, eline, eval
	}
	/^steps:/ { in_steps = 1; next }
	!in_steps { next }
	/^  - [a-z_]+:/ {
		flush()
		n++; type = $2; sub(/:$/, "", type); id = "-"; eline = 0
		eval = "-"; line = NR; col = index($0, type ":")
	}
	/^ *#/ || /^ *$/ { next }
	n && match($0, /id: [A-Za-z0-9_]+/) && id == "-" {
		id = substr($0, RSTART + 4, RLENGTH - 4)
	}
	n && match($0, /expect: [a-z_]+/) {
		eline = NR; eval = substr($0, RSTART + 8, RLENGTH - 8)
	}
	END { flush() }' "$1"
}

# opcode TYPE: what a step of TYPE posts, as the messages name it.
opcode() {
	case $1 in
	write) echo rdma_write ;;
	read) echo rdma_read ;;
	send | ud_send) echo send ;;
	atomic) echo '(fetch_add|cmp_swap)' ;;
	bind_mw) echo bind_mw ;;
	invalidate) echo local_inv ;;
	*) echo "[a-z_]+" ;;
	esac
}

flips=0
for name in "${negatives[@]}"; do
	f=$scndir/$name.yaml
	[ -f "$f" ] || fail "$name: no $f"
	# As written: passes because its errors happened.
	expect "$name" 0 "$f"
	ok "$name as written: $(grep -c '^step .* passed' "$tmp/out") steps passed"
	# (Files, not <(...): the VM has no /dev/fd.)
	steps "$f" >"$tmp/steps"
	nsteps=$(wc -l <"$tmp/steps")
	had_error=0 added=0
	while read -r -u 3 no type id line col eline eval; do
		[ "$id" != - ] || fail "$name: step $no has no id"
		label="step $no \\($type\\) '$id'"
		copy=$tmp/$name.yaml
		if [ "$eline" != 0 ] && [ "$eval" != success ]; then
			# 1. The expected error, flipped to success.
			sed "${eline}s/expect: $eval/expect: success/" "$f" >"$copy"
			cmp -s "$f" "$copy" && fail "$name: step $no: nothing flipped"
			expect "$name: $id expecting success" 1 "$copy"
			has "$name $id" "$tmp/err" "^([^:]*/)?$name\\.yaml:$line:$col: $label: $(opcode "$type") wr 0x[0-9a-f]+ \\(#[0-9]+\\) completed with $eval \\([^)]+\\), vendor_err 0x[0-9a-f]+, qp_num 0x[0-9a-f]+; expected success$"
			has "$name $id" "$tmp/out" "^step $no +$type +'$id' +failed "
			for ((k = no + 1; k <= nsteps; k++)); do
				has "$name $id" "$tmp/out" "^step $k +[a-z_]+ +'[a-z_0-9]+' +not run$"
			done
			ok "$name: $id expecting success fails: $(grep -m1 "completed with" "$tmp/err" | sed 's/^[^ ]*: step/step/; s/ vendor_err.*//')"
			had_error=1 flips=$((flips + 1))
		elif [ "$eline" = 0 ] && [[ $type =~ ^(write|send|read|atomic|ud_send)$ ]] &&
			[ $added = 0 ]; then
			# 2. A traffic step that succeeds, told to expect an
			# error: all its WRs succeeding fails it.
			want=rem_access_err
			[ "$name" = negative_rnr ] && want=rnr_retry_exc_err
			awk -v n="$line" -v w="$want" '
			NR == n && /\{/ { sub(/\{/, "{expect: " w ", ") }
			NR == n && !/\{/ { match($0, /[^ ]/); print substr($0, 1, RSTART - 1) "expect: " w }
			{ print }' "$f" >"$copy"
			grep -q "expect: $want" "$copy" || fail "$name: $id: expect not added"
			run_scn "$tmp/out" "$tmp/err" --check-leaks "$copy"
			[ $rc = 1 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: $id expecting $want: exit $rc, want 1"; }
			assert_clean "$tmp/out" "$tmp/err" "$name: $id expecting $want"
			# Successes are fine while the error may still come:
			# the step fails at its end, at its `expect:`.
			has "$name $id" "$tmp/err" "^([^:]*/)?$name\\.yaml:$line:[0-9]+: $label: expect: expected $want, but all [0-9]+ WRs completed with success$"
			has "$name $id" "$tmp/out" "^step $no +$type +'$id' +failed "
			ok "$name: $id expecting $want fails: $(grep -m1 "expected $want" "$tmp/err" | sed 's/^[^ ]*: step/step/; s/ vendor_err.*//')"
			added=1 flips=$((flips + 1))
		fi
	done 3<"$tmp/steps"
	[ $had_error = 1 ] || fail "$name: no expect: of an error to flip"
	[ $added = 1 ] || fail "$name: no succeeding traffic step to add an expect to"
done

# 3. A peer that never posts a receive: rnr_retry 7 retries for ever, so
# the send waits until its deadline, then fails; teardown is clean.
f=$scndir/negative_rnr.yaml
id=no_recv
steps "$f" | awk -v id=$id '$3 == id' >"$tmp/steps"
read -r no type _ line col eline _ <"$tmp/steps"
[ -n "${no:-}" ] && [ "$eline" != 0 ] || fail "negative_rnr: no step '$id' with an expect:"
sed "${eline}d" "$f" >"$tmp/negative_rnr.yaml"
[ "$(steps "$tmp/negative_rnr.yaml" | awk -v id=$id '$3 == id { print $6 }')" = 0 ] ||
	fail "deadline: expect: not removed"
t0=$(date +%s%N)
expect "deadline" 1 "$tmp/negative_rnr.yaml" --set rnr_retry=7 --set deadline_ms=1000
ms=$((($(date +%s%N) - t0) / 1000000))
has deadline "$tmp/err" "^([^:]*/)?negative_rnr\\.yaml:$line:$col: step $no \\(send\\) '$id': deadline 1000 ms passed with 0 of 1 completions, 0 of 1 receives at qp 'b'$"
has deadline "$tmp/out" "^step $no +send +'$id' +failed +[0-9]+\\.[0-9] ms"
# At its 1000 ms and under 1000 more (scaled by how slow the VM is:
# slow.sh).
took=$(grep -Eom1 "^step $no +send +'$id' +failed +[0-9]+\\.[0-9] ms" "$tmp/out")
took=${took% ms}
slow_took "the send" "${took##* }" 1000 1000 || fail "deadline: $slow_said"
has deadline "$tmp/out" "^step $((no + 1)) +send +'flushed' +not run$"
grep -q 'still open' "$tmp/err" && fail "deadline: a loop handle stayed open"
# A guard against a hang (rnr_retry 7 retries for ever), not a timing:
# under TCG on a loaded machine the run has taken 26 s.
slow_within $ms 120000 || fail "deadline: the run took $ms ms, $slow_said ms"
ok "a send nobody receives (rnr_retry 7) ends at its 1000 ms deadline ($ms ms in all, $slow_said ms), torn down, no leaks"

# 4. Successes before the expected error are fine: one receive posted,
# two sends expecting rnr_retry_exc_err (the first is received, the
# second finds no receive): the step passes, and says both completed.
awk '/id: received,/ { next }
	/id: no_recv/ { print; print "      iterations: 2"; next } { print }' \
	"$scndir/negative_rnr.yaml" >"$tmp/first_ok.yaml"
grep -q "iterations: 2" "$tmp/first_ok.yaml" || fail "first_ok: iterations not set"
expect "success then the expected error" 0 "$tmp/first_ok.yaml"
has first_ok "$tmp/out" "^step 2 +send +'no_recv' +passed .* 2 wr"
ok "a send step whose first WR succeeds and second meets its expected error passes"
echo "all $flips flipped expectations fail as they should"

# 5. A matrix (tests/rxe/matrix.yaml): 3 sizes x RC/UC, 64 KiB on UC left
# out, five cells; the 64 KiB send on RC does not fit its 4 KiB receive,
# so that one cell fails and the four others pass: exit 1, five records
# and five testsuites (checked with every record when the test ends).
mx=$(dirname "$0")/matrix.yaml
run_scn "$tmp/out" "$tmp/err" "$mx"
[ $rc = 1 ] || fail "matrix: exit $rc, want 1; $(tail -8 "$tmp/out")"
recvars -- verdicts='[.cells[].verdict] | join(",")' \
	cells='[.cells[] | [.cell.name, .verdict]]' \
	o4='.cells[4].steps[1].outcome' \
	m4='.cells[4].steps[1].message // "" | test("rem_op_err|rem_inv_req_err")' \
	steps4='[.cells[4].steps[] | {outcome, message}]'
[ "$verdicts" = passed,passed,passed,passed,failed ] ||
	fail "matrix: cells $cells"
[ "$o4" = failed ] && [ "$m4" = true ] ||
	fail "matrix: the failing cell's steps say $steps4"
has matrix "$tmp/out" '^  size=65536,qp_type=rc +failed$'
has matrix "$tmp/out" '^verdict: failed \(exit 1\)$'
[ "$(xmllint --xpath 'count(//testsuite)' "$tmp/rec.xml")" = 5 ] &&
[ "$(xmllint --xpath 'count(//testcase/failure)' "$tmp/rec.xml")" = 1 ] ||
	fail "matrix: JUnit $(grep -c '<testsuite ' "$tmp/rec.xml") suites"
ok "a 3x2 matrix less one: four cells pass, the one that does not fit fails, exit 1"
run_scn "$tmp/out" "$tmp/err" --jobs 2 "$mx"
recvars -- verdicts='[.cells[].verdict] | join(",")' \
	cells='[.cells[] | [.cell.name, .verdict]]'
[ $rc = 1 ] && [ "$verdicts" = passed,passed,passed,passed,failed ] ||
	fail "matrix --jobs 2: exit $rc, $cells"
ok "the same matrix two cells at a time: the same verdicts"
run_scn "$tmp/out" "$tmp/err" --matrix size=64,4096 "$mx"
[ $rc = 0 ] && [ "$(rec '.cells | length')" = 4 ] ||
	fail "matrix of 64 and 4096: exit $rc, $(tail -8 "$tmp/out")"
ok "--matrix size=64,4096: four cells, all pass"

# 6. Known deviations (--deviations FILE): the send that does not fit is
# known to fail on rxe, so its cell is skipped with the reason and the matrix
# passes; --strict counts it again; a deviation that says skip does not
# run the step at all.
cat >"$tmp/deviations.yaml" <<'EOD'
deviations:
  - provider: rxe
    scenario: matrix
    steps: [send]
    reason: a 64 KiB send into a 4 KiB receive (on purpose)
EOD
run_scn "$tmp/out" "$tmp/err" --deviations "$tmp/deviations.yaml" "$mx"
[ $rc = 0 ] || fail "deviation: exit $rc, want 0; $(tail -8 "$tmp/out")"
recvars -- o4='.cells[4].steps[1].outcome' \
	r4='.cells[4].steps[1].deviation.reason // "" | test("on purpose")' \
	m4='.cells[4].steps[1].message // "" | test("^known deviation: .* \\(it failed: .*(rem_op_err|rem_inv_req_err)")' \
	o0='.cells[0].steps[1].outcome' p0='.cells[0].devices[0].provider' \
	all='[.cells[] | .steps[1] | {outcome, message}]'
[ "$o4" = skipped ] && [ "$r4" = true ] && [ "$m4" = true ] &&
[ "$o0" = passed ] && [ "$p0" = rxe ] ||
	fail "deviation: $all"
has deviation "$tmp/out" "^step 2 +send +'send' +skipped .*known deviation: a 64 KiB send"
[ "$(xmllint --xpath 'count(//testcase/skipped[contains(@message, "known deviation")])' "$tmp/rec.xml")" = 1 ] ||
	fail "deviation: the JUnit testcase is not skipped with the reason"
ok "a known deviation turns the failing cell's write into a skip with its reason"
run_scn "$tmp/out" "$tmp/err" --strict --deviations "$tmp/deviations.yaml" "$mx"
recvars -- o4='.cells[4].steps[1].outcome' all='[.cells[] | .verdict]'
[ $rc = 1 ] && [ "$o4" = failed ] || fail "--strict: exit $rc, $all"
ok "--strict: the deviation is not applied, the cell fails again"
sed 's/    reason:/    known: skip\n    reason:/' "$tmp/deviations.yaml" \
	>"$tmp/skip.yaml"
run_scn "$tmp/out" "$tmp/err" --deviations "$tmp/skip.yaml" \
	--matrix size=65536 --set qp_type=rc "$mx"
recvars -- o0='.cells[0].steps[1].outcome' \
	d0='.cells[0].steps[1] | has("duration_ms") and .duration_ms == 0' \
	all='.cells[0].steps'
[ $rc = 0 ] && [ "$o0" = skipped ] && [ "$d0" = true ] ||
	fail "known: skip: exit $rc, $all"
ok "known: skip does not run the step"

# 4. A connection's knobs on the device (scenarios/conn_knobs.yaml): b's
# QP allows remote writes only, so a write into it passes and a read from
# it is refused by b's responder, whatever the MR allows.  First the
# status rxe gives the refusal is measured (the read told to expect
# success fails, naming it); it must be one a QP access violation may
# give, and the scenario's `read_expect` default must be it.  Then the
# record shows the device holds the psns, traffic class, flow label and
# access asked, oob, on the link-local GID and via rdma_cm.
f=$scndir/conn_knobs.yaml
run_scn "$tmp/out" "$tmp/err" --check-leaks "$f" --set read_expect=success
[ $rc = 1 ] || { cat "$tmp/out" "$tmp/err"; fail "conn_knobs: a read from a remote_write-only qp: exit $rc, want 1"; }
refused=$(sed -nE "s/.*step 2 \(read\) 'read': rdma_read wr .* completed with ([a-z_]+) .*/\1/p" "$tmp/err")
case $refused in
rem_access_err | rem_inv_req_err) ;;
*) cat "$tmp/err"; fail "conn_knobs: the read's status is '$refused'" ;;
esac
assert_clean "$tmp/out" "$tmp/err" "conn_knobs expecting success"
ok "conn_knobs: rxe refuses a read from a remote_write-only qp with $refused"
# knobs WHAT: the record's settings of connection 'ab' are the file's,
# but for the hop limit: every rxe GID is RoCE v2, and for RoCE v2 the
# kernel (ib_resolve_eth_dmac()) puts the IP route's hop limit, 64 here,
# in the AV whatever the modify said, to a link-local GID too (measured:
# gid_index 0, fe80::, holds 64 as well).
knobs() {
	local s='.. | objects | select(.kind? == "connection" and .id? == "ab") | .facts.settings'
	local gid psns grh acc_a acc_b rate all hop=64
	# (One jq for all of them: a jq start is most of a second here.)
	recvars -- \
		gid='.. | objects | select(.kind? == "context" and .id? == "ctx") | .facts.gid' \
		psns="$s | \"\(.a.sq_psn) \(.a.rq_psn) \(.b.sq_psn) \(.b.rq_psn)\"" \
		grh="[$s | .a, .b] | map(.global and .hop_limit == $hop and .traffic_class == 32 and .flow_label == 74565) | all" \
		acc_a="$s | .a.access" acc_b="$s | .b.access" \
		rate="$s | .a.static_rate" all="$s"
	[ "$psns" = "291 11259375 11259375 291" ] || fail "$1: psns $all"
	[ "$grh" = true ] ||
		fail "$1: GRH fields (gid $gid, hop_limit $hop: the route's) $all"
	[ "$acc_b" = remote_write ] && [[ $acc_a == *remote_read* ]] ||
		fail "$1: access a '$acc_a' b '$acc_b'"
	ok "$1: gid $gid: the device holds psns 291/11259375, hop_limit $hop (asked 1: RoCE v2 takes the route's), traffic_class 32, flow_label 74565, access a $acc_a b $acc_b, static_rate $rate"
}
expect conn_knobs 0 "$f"
[ "$(grep -c "^step .* passed" "$tmp/out")" = 4 ] || { cat "$tmp/out"; fail "conn_knobs: not 4 steps passed"; }
knobs "conn_knobs oob"
sed 's/^  - {id: ctx, device: "${device}", port: 1}$/  - {id: ctx, device: "${device}", port: 1, gid_index: 0}/' "$f" >"$tmp/conn_knobs_ll.yaml"
grep -q 'gid_index: 0' "$tmp/conn_knobs_ll.yaml" || fail "conn_knobs: gid_index not added"
expect "conn_knobs gid 0" 0 "$tmp/conn_knobs_ll.yaml"
knobs "conn_knobs oob, gid_index 0"
sed 's/^    a: a$/    via: rdma_cm\n    a: a/' "$f" >"$tmp/conn_knobs_cm.yaml"
grep -q 'via: rdma_cm' "$tmp/conn_knobs_cm.yaml" || fail "conn_knobs: via not added"
expect "conn_knobs rdma_cm" 0 "$tmp/conn_knobs_cm.yaml"
knobs "conn_knobs rdma_cm"
