#!/bin/bash
# A device test's run records are checked on the host (tests/rxe/in_vm.sh):
# a script that sources tests/rxe/lib.sh and keeps two records (dry
# runs, here on the host, under a stand-in for `softroce --in` that runs
# the command as it is) has them and their JUnit files checked after it,
# and passes; one whose record does not hold fails, saying which; one
# whose check failed fails with its own status, records unchecked.
#
#   rxe_records.sh RDMASCN RXE-DIR SCENARIOS
set -u
rdmascn=$(cd "$(dirname "$1")" && pwd)/${1##*/}
rxe=$(cd "$2" && pwd) scn=$(cd "$3" && pwd)
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
cd "$tmp" || exit 1

cat >vm <<EOF2
#!/bin/bash
# rdmascn softroce --timeout T --in VM -- CMD...: CMD, here.
[ "\$1" = softroce ] || exec "$rdmascn" "\$@"
while [ "\$1" != -- ]; do shift; done
shift
exec "\$@"
EOF2
cat >t.sh <<EOF2
#!/bin/bash
rdmascn=\$1
. "$rxe/lib.sh"
for f in rc_pingpong rc_write; do
	run_scn "\$tmp/o" "\$tmp/e" --dry-run "$scn/\$f.yaml"
	[ \$rc = 0 ] || fail "\$f: exit \$rc"
	ok "\$f"
done
[ -n "\${SPOIL:-}" ] && echo '{}' >"\$tmp/recs/1.json"
[ -z "\${FAIL:-}" ] || fail "told to"
EOF2
chmod +x vm t.sh

"$rxe/in_vm.sh" ./vm vm 60 t ./t.sh "$rdmascn" >out 2>&1
rc=$?
[ $rc = 0 ] || { cat out; bad "two good records: exit $rc"; }
grep -q '^ok 3 - 2 run records: .*(on the host)' out ||
	{ cat out; bad "two good records: no host check of the records"; }
grep -q '^ok 4 - 2 JUnit files: .*(on the host)' out ||
	{ cat out; bad "two good records: no host check of the JUnit files"; }
[ ! -e rxe-records/t ] || bad "two good records: rxe-records/t left behind"

SPOIL=1 "$rxe/in_vm.sh" ./vm vm 60 t ./t.sh "$rdmascn" >out 2>&1
rc=$?
[ $rc = 1 ] || { cat out; bad "a spoilt record: exit $rc, want 1"; }
if ! grep -q '^not ok 3 - run records' out || ! grep -q 'schema' out; then
	cat out
	bad "a spoilt record: not said"
fi

FAIL=1 "$rxe/in_vm.sh" ./vm vm 60 t ./t.sh "$rdmascn" >out 2>&1
rc=$?
[ $rc = 1 ] || { cat out; bad "a failed check: exit $rc, want 1"; }
grep -q 'run records' out && { cat out; bad "a failed check: records checked"; }

[ $fails = 0 ] || exit 1
echo "PASS: records checked on the host: pass, a spoilt record, a failed check"
