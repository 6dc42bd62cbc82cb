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
	echo "ok $name as written: $(grep -c '^step .* passed' "$tmp/out") steps passed"
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
			echo "ok $name: $id expecting success fails: $(grep -m1 "completed with" "$tmp/err" | sed 's/^[^ ]*: step/step/; s/ vendor_err.*//')"
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
			echo "ok $name: $id expecting $want fails: $(grep -m1 "expected $want" "$tmp/err" | sed 's/^[^ ]*: step/step/; s/ vendor_err.*//')"
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
has deadline "$tmp/out" "^step $no +send +'$id' +failed +1[0-9]{3}\\.[0-9] ms"
has deadline "$tmp/out" "^step $((no + 1)) +send +'flushed' +not run$"
grep -q 'still open' "$tmp/err" && fail "deadline: a loop handle stayed open"
[ $ms -lt 20000 ] || fail "deadline: the run took $ms ms"
echo "ok a send nobody receives (rnr_retry 7) ends at its 1000 ms deadline ($ms ms in all), torn down, no leaks"

# 4. Successes before the expected error are fine: one receive posted,
# two sends expecting rnr_retry_exc_err (the first is received, the
# second finds no receive): the step passes, and says both completed.
awk '/id: received,/ { next }
	/id: no_recv/ { print; print "      iterations: 2"; next } { print }' \
	"$scndir/negative_rnr.yaml" >"$tmp/first_ok.yaml"
grep -q "iterations: 2" "$tmp/first_ok.yaml" || fail "first_ok: iterations not set"
expect "success then the expected error" 0 "$tmp/first_ok.yaml"
has first_ok "$tmp/out" "^step 2 +send +'no_recv' +passed .* 2 wr"
echo "ok a send step whose first WR succeeds and second meets its expected error passes"
echo "all $flips flipped expectations fail as they should"
