#!/bin/bash
# Inside the Soft-RoCE VM: every seed in scenarios/seeds/ (one per example
# of the pyverbs README, python-rdma's verbs guide and tinygrad's IB
# transport) runs on rxe0 with --check-leaks and passes with teardown the
# reverse of creation, or, when LACKS names it, is skipped (77) naming the
# capability rxe lacks, with nothing created; some also show what they
# did (seed_says: PSNs exchanged, AHs made, the expected error, the
# rdma_cm connection).  Then what the seeds of
# imports, dma-buf MRs and a device by index say on rxe0 beyond their
# verdicts.
set -u
rdmascn=$1
seeddir=$2
lacks_file=$3
. "$(dirname "$0")/lib.sh"

declare -A lacks=()
while read -r name cap; do
	case $name in '#'* | '') continue ;; esac
	lacks[$name]=$cap
done <"$lacks_file"

# seed_says NAME: what a seed that passed must also have done, beyond
# its verdict, read from its report and record.
seed_says() {
	local s='.. | objects | select(.kind? == "connection" and .id? == "ab") | .facts.settings'
	case $1 in
	pyrdma_rc_no_cm)
		# The PSNs each side was handed out of band are the device's.
		[ "$(rec "$s | \"\(.a.sq_psn) \(.a.rq_psn) \(.b.sq_psn) \(.b.rq_psn)\"")" = "4096 8192 8192 4096" ] ||
			fail "$1: psns $(rec -c "$s")"
		ok "$1: psns a 4096/8192 b 8192/4096 as exchanged" ;;
	pyrdma_ud_multi_dest)
		# Three AHs, one per destination, not one shared.
		[ "$(created "$tmp/out" | grep -c "^ah 'to\[[0-2]\]'")" = 3 ] ||
			{ cat "$tmp/out"; fail "$1: not 3 AHs created"; }
		ok "$1: 3 AHs created, one per destination" ;;
	pyrdma_wc_error)
		# It passed by the refused write's expected status, and the
		# flush after it.
		grep -q "^step .*'refused' .*passed" "$tmp/out" &&
		grep -q "^step .*'flushed' .*passed" "$tmp/out" ||
			{ cat "$tmp/out"; fail "$1: the refused write or the flush did not pass"; }
		ok "$1: $(grep "^step .*'refused'" "$tmp/out" | tr -s ' ')" ;;
	pyverbs_cmid)
		grep -q "connection 'ab' .*via rdma_cm" "$tmp/out" ||
			{ cat "$tmp/out"; fail "$1: the connection was not made by rdma_cm"; }
		ok "$1: $(grep "connection 'ab' .*via rdma_cm" "$tmp/out" | tr -s ' ')" ;;
	esac
}

n=0
for f in "$seeddir"/*.yaml; do
	[ -e "$f" ] || continue
	name=${f##*/}
	name=${name%.yaml}
	pass_or_skip "$name" "${lacks[$name]:-}" "$f"
	[ -n "${lacks[$name]:-}" ] || seed_says "$name"
	n=$((n + 1))
done
echo "all $n seeds as expected"

# Beyond the verdicts: what the seeds of issue 18's objects say on rxe0.
# A context opened by index: the record names the device and the index;
# an index past the list is an error (exit 3) naming how many devices
# there are, before anything is created.
f=$seeddir/pyverbs_device_list.yaml
run_scn "$tmp/out" "$tmp/err" --check-leaks "$f"
[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "device_list: exit $rc"; }
[ "$(rec -c '.objects[] | select(.id == "ctx") | .facts | [.device, .index]')" = '["rxe0",0]' ] ||
	fail "device_list: the context's facts: $(rec -c '.objects[0].facts')"
ndev=$(ls /sys/class/infiniband | wc -l)
run_scn "$tmp/out" "$tmp/err" --set index="$ndev" "$f"
[ $rc = 3 ] || { cat "$tmp/out" "$tmp/err"; fail "index $ndev: exit $rc, want 3"; }
grep -q "context 'ctx': index: $ndev is out of range: $ndev device.* here (rxe0" "$tmp/err" ||
	{ cat "$tmp/err"; fail "index $ndev: the error does not name the devices"; }
grep -q '^created' "$tmp/out" && fail "index $ndev: created objects"
ok "index 0 opens rxe0 (facts device, index); index $ndev: $(head -n1 "$tmp/err")"

# Imports: every importing object is named by the trial's verdict, and
# the verdict comes from libibverbs (EOPNOTSUPP: rxe has no
# import_context), not from a guess.
run_scn "$tmp/out" "$tmp/err" "$seeddir/pyverbs_import_pd_mr.yaml"
for o in "context 'imported_ctx'" "pd 'imported_pd'" "mr 'imported_mr'"; do
	grep -q "$o: rxe0 has no context import (a trial ibv_import_device: Operation not supported)" "$tmp/err" ||
		{ cat "$tmp/err"; fail "import: $o not named by the trial"; }
done
[ "$(rec -r '[.objects[] | select(.outcome == "created")] | length')" = 0 ] ||
	fail "import: objects created before the skip"
# An imported context is its original's device: an unmet requires: is
# said once, not once more for the import.
sed 's/^contexts:$/requires: {qp_types: [xrc_send]}\ncontexts:/' \
	"$seeddir/pyverbs_import_pd_mr.yaml" >"$tmp/req.yaml"
run_scn "$tmp/out" "$tmp/err" "$tmp/req.yaml"
[ $rc = 77 ] || { cat "$tmp/out" "$tmp/err"; fail "import + requires: exit $rc, want 77"; }
[ "$(grep -c 'requires.qp_types' "$tmp/err")" = 1 ] ||
	{ cat "$tmp/err"; fail "import + requires: not said once"; }
ok "imports: the trial names the 3 importing objects, nothing created; requires: said once for ctx and its import"

# dma-buf: the device's trial speaks first; /dev/udmabuf is reported as
# it is here.
run_scn "$tmp/out" "$tmp/err" "$seeddir/pyverbs_dmabuf_mr.yaml"
grep -q "mr 'dst': rxe0 has no dmabuf" "$tmp/err" ||
	{ cat "$tmp/err"; fail "dmabuf: the skip does not name mr 'dst'"; }
ok "dmabuf: $(grep -m1 'has no' "$tmp/err"); /dev/udmabuf: $([ -e /dev/udmabuf ] && echo present || echo absent)"
