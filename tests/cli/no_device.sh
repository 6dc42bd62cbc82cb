#!/bin/bash
# On a host without RDMA devices `rdmascn devices` says so, tells how to
# get one, and exits 3 (could not run).  Skipped (77) where the host does
# have a device, since then there is nothing to check.
set -u
rdmascn=$1
if [ -n "$(ls -A /sys/class/infiniband 2>/dev/null)" ]; then
	echo "SKIP: this host has RDMA devices: $(ls /sys/class/infiniband)"
	exit 77
fi
err=$("$rdmascn" devices 2>&1 >/dev/null)
rc=$?
[ $rc = 3 ] || { echo "FAIL: exit $rc, want 3"; exit 1; }
grep -qx 'rdmascn: no RDMA device found.' <<<"$err" || { echo "FAIL: no explanation: $err"; exit 1; }
grep -q 'rdmascn softroce -- rdmascn devices' <<<"$err" || { echo "FAIL: no way out offered: $err"; exit 1; }
err=$("$rdmascn" devices -d mlx5_9 2>&1 >/dev/null)
rc=$?
[ $rc = 3 ] || { echo "FAIL: -d mlx5_9: exit $rc, want 3"; exit 1; }
echo "devices without a device ok"
# run: the same explanation, offering to run the scenario in the VM.
scn=$(dirname "$0")/../../scenarios/rc_write.yaml
out=$("$rdmascn" run "$scn" 2>"${TMPDIR:-/tmp}/rdmascn-nodev.$$")
rc=$?
err=$(cat "${TMPDIR:-/tmp}/rdmascn-nodev.$$"); rm -f "${TMPDIR:-/tmp}/rdmascn-nodev.$$"
[ $rc = 3 ] || { echo "FAIL: run: exit $rc, want 3"; exit 1; }
grep -qx 'rdmascn: no RDMA device found.' <<<"$err" || { echo "FAIL: run: no explanation: $err"; exit 1; }
grep -q "rdmascn run --softroce $scn" <<<"$err" || { echo "FAIL: run: no way out offered: $err"; exit 1; }
grep -q '^created' <<<"$out" && { echo "FAIL: run created something: $out"; exit 1; }
echo "run without a device ok"
# The explanation is the record's (advice), so the record told again
# says it too, below the error, as the run did (stderr compared: replay
# tells objects the probe never reached as created, a limit of its own).
tmp=$(mktemp -d) || exit 1
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
"$rdmascn" run --json "$tmp/r.json" "$scn" >"$tmp/out" 2>"$tmp/err"
jq -e '.advice | startswith("rdmascn: no RDMA device found.\n")' \
	"$tmp/r.json" >/dev/null || { echo "FAIL: no advice in the record: $(cat "$tmp/r.json")"; exit 1; }
"$rdmascn" report "$tmp/r.json" >"$tmp/out2" 2>"$tmp/err2"
cmp -s "$tmp/err" "$tmp/err2" ||
	{ echo "FAIL: report: stderr: $(diff "$tmp/err" "$tmp/err2")"; exit 1; }
echo "the advice is the record's, told again the same"
