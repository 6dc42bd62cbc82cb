#!/bin/bash
# Runs inside the Soft-RoCE VM: rdmascn devices must show rxe0 as the VM
# set it up.  No device is a failure here, not a skip.
set -u
rdmascn=$1
fail() { echo "FAIL: $*"; exit 1; }

json=$("$rdmascn" devices -j) || fail "rdmascn devices -j exited $?"
q() { jq -r "$1" <<<"$json"; }
[ "$(q '.[] | select(.name == "rxe0") | .name')" = rxe0 ] || fail "no rxe0 in: $json"
dev='.[] | select(.name == "rxe0")'
[ "$(q "$dev | .ports[0].port")" = 1 ] || fail "port 1 missing"
[ "$(q "$dev | .ports[0].state")" = ACTIVE ] || fail "port 1 not ACTIVE"
[ "$(q "$dev | .ports[0].phys_state")" = LINK_UP ] || fail "port 1 not LINK_UP"
[ "$(q "$dev | .ports[0].link_layer")" = Ethernet ] || fail "link layer not Ethernet"
[ "$(q "$dev | .ports[0].gids[] | select(.index == 1) | .gid")" = "::ffff:10.99.0.1" ] ||
	fail "GID index 1 is not ::ffff:10.99.0.1"
[ "$(q "$dev | .ports[0].gids[] | select(.index == 1) | .type")" = "RoCE v2" ] ||
	fail "GID index 1 is not RoCE v2"
[ "$(q "$dev | .ports[0].gids[] | select(.index == 1) | .netdev")" = veth0 ] ||
	fail "GID index 1 not on veth0"
# What the VM notes say rxe has, and lacks.
[ "$(q "$dev | .caps.atomic")" = hca ] || fail "atomic cap not hca"
for f in srq mw_type1 atomics; do
	q "$dev | .features[]" | grep -qx "$f" || fail "feature $f missing"
done
for f in xrc dm flow_steering raw_packet; do
	q "$dev | .features[]" | grep -qx "$f" && fail "rxe claims $f"
done
[ "$(q "$dev | .caps.max_qp")" -gt 1000 ] || fail "max_qp too small"
[ "$(q "$dev | has(\"mlx5\")")" = false ] || fail "mlx5 plugin described rxe0"

# The human table says the same.
table=$("$rdmascn" devices) || fail "rdmascn devices exited $?"
grep -Eq '^  1 +ACTIVE +Ethernet +1024 ' <<<"$table" || fail "table: $table"
grep -Eq ' 1 +::ffff:10\.99\.0\.1 +RoCE v2 +veth0$' <<<"$table" || fail "table: $table"
"$rdmascn" devices -d rxe0 >/dev/null || fail "-d rxe0 exited $?"
"$rdmascn" devices -d nosuch 2>/dev/null; rc=$?
[ $rc = 3 ] || fail "-d nosuch exited $rc, want 3"
echo "rxe0 as expected"
