#!/bin/bash
# The CLI contract for bad invocations: usage or a one-line "Unknown ..."
# message on stderr, nothing on stdout, exit 2.
set -u
rdmascn=$1
fails=0 n=0

expect() { # WANT_RC WANT_FIRST_STDERR_LINE ARGS...
	local want_rc=$1 want=$2 out err rc
	shift 2
	n=$((n + 1))
	out=$("$rdmascn" "$@" 2>/tmp/usage.$$)
	rc=$?
	err=$(head -n 1 /tmp/usage.$$)
	rm -f /tmp/usage.$$
	if [ "$rc" != "$want_rc" ] || [ "$err" != "$want" ]; then
		echo "FAIL: rdmascn $*: exit $rc (want $want_rc), stderr '$err' (want '$want')"
		fails=$((fails + 1))
	elif [ "$want_rc" = 2 ] && [ -n "$out" ]; then
		echo "FAIL: rdmascn $*: printed to stdout on a usage error"
		fails=$((fails + 1))
	fi
}

expect 2 "Usage: rdmascn [-v] COMMAND [ARGS]"
expect 2 "Unknown command 'nosuchverb'." nosuchverb
expect 2 "Unknown option '--bogus'." devices --bogus
expect 2 "Unknown option '-x'." devices -x
expect 2 "Option '--device' needs a value." devices --device
expect 2 "Unexpected argument 'extra'." devices extra
expect 2 "Unknown option '--nope'." --nope devices
expect 2 "No scenario file given." validate
expect 2 "No scenario file given." plan
expect 2 "--set needs NAME=VALUE, got 'size'." validate --set size /dev/null
expect 2 "Unknown option '--bogus'." validate --bogus x.yaml
expect 2 "plan takes one scenario file." plan a.yaml b.yaml
expect 2 "nope.yaml: No such file or directory" validate nope.yaml
expect 2 "Unexpected argument 'extra'." schema extra
expect 2 "No scenario file given." graph
expect 2 "Unknown --counters 'some': off, errors or all." run --counters some x.yaml
expect 2 "Unknown --counters '': off, errors or all." run --counters= x.yaml
expect 2 "Unknown option '--bogus'." graph --bogus x.yaml
expect 0 "" --help
expect 0 "" devices --help
expect 0 "" plan --help
expect 0 "" graph --help
expect 0 "" validate --help
expect 0 "" plugins --help
expect 2 "Unexpected argument 'extra'." plugins extra
expect 2 "Unknown option '--bogus'." plugins --bogus

out=$("$rdmascn" --version)
[ "$out" = "rdmascn $2" ] || { echo "FAIL: --version said '$out'"; fails=$((fails + 1)); }
n=$((n + 1))

echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
