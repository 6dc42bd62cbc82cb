#!/bin/bash
# On the host: a device test, SCRIPT ARGS run in the fixture's VM
# (`rdmascn softroce --timeout TIMEOUT --in VM`), then the run records
# and JUnit files its checks kept, checked here (lib.sh's records_ok
# copies them into rxe-records/NAME/ under the current directory, which
# the VM shares): tests/schema/run_record.py and tests/junit/check.py
# start in a second or two on the host, in most of a minute under TCG on
# a loaded one.  Its exit status is the script's, or 1 when a record or
# JUnit file does not hold; the directory is kept then, removed on a
# pass.
#
#   in_vm.sh RDMASCN VM TIMEOUT NAME SCRIPT ARGS...
set -u
rdmascn=$1 vm=$2 timeout=$3 name=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
dir=$PWD/rxe-records/$name
rm -rf "$dir"
mkdir -p "$dir" || exit 3

RDMASCN_RXE_RECORDS=$dir "$rdmascn" softroce --timeout "$timeout" \
	--in "$vm" -- "$@"
rc=$?
[ $rc = 0 ] || exit $rc

t0=$SECONDS
for d in "$dir"/recs.*; do
	[ -s "$d/list" ] || continue
	nok=$(cat "$d/nok")
	/usr/bin/python3 "$here/../schema/run_record.py" \
		"$here/../../schemas/rdmascn-run.schema.json" "$d/list" ||
		{ echo "not ok $((nok + 1)) - run records (see above; kept in $d)"; exit 1; }
	echo "ok $((nok + 1)) - $(wc -l <"$d/list") run records: schema, exit code, verdict, teardown (on the host) # $((SECONDS - t0)) s"
	t0=$SECONDS
	[ -s "$d/junit" ] || continue
	/usr/bin/python3 "$here/../junit/check.py" "$here/../junit/junit.xsd" \
		"$d/junit" ||
		{ echo "not ok $((nok + 2)) - JUnit files (see above; kept in $d)"; exit 1; }
	echo "ok $((nok + 2)) - $(wc -l <"$d/junit") JUnit files: the XSD, a testcase per step (on the host) # $((SECONDS - t0)) s"
	t0=$SECONDS
done
rm -rf "$dir"
