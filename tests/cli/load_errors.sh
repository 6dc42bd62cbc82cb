#!/bin/bash
# Loader errors the bad-input corpus cannot hold: values from --set and
# the environment (bytes a YAML file may not carry), and the commands
# other than validate that load a scenario.  Each: exit 2, nothing on
# stdout, exactly the one expected line on stderr.
set -u
rdmascn=$1
fails=0 n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

cat >s.yaml <<'YAML'
scenario: outside-values
params: {n: 4096, e: {default: local_write, env: RDMASCN_TEST_ACCESS}}
contexts: [{id: ctx, device: any}]
pds: [{id: pd, context: ctx}]
mrs: [{id: buf, pd: pd, length: "${n}", access: ["${e}"]}]
YAML
cat >empty.yaml <<'YAML'
scenario: empty-enum
contexts: [{id: ctx, device: any, async_events: }]
YAML

expect() { # WANT_STDERR_LINE COMMAND-ARGS...
	local want=$1 rc
	shift
	n=$((n + 1))
	"$rdmascn" "$@" >out 2>err
	rc=$?
	if [ $rc -ne 2 ]; then
		echo "FAIL: rdmascn $*: exit $rc, want 2"
	elif [ -s out ]; then
		echo "FAIL: rdmascn $*: stdout not empty: $(head -n 1 out)"
	elif [ "$(cat err)" != "$want" ]; then
		echo "FAIL: rdmascn $*: got '$(tr '\n' '|' <err)', want '$want'"
	else
		return
	fi
	fails=$((fails + 1))
}

# shellcheck disable=SC2086 # $cmd unquoted: "run -n" is two words
for cmd in validate plan graph "run -n"; do
	expect "s.yaml:2:10: --set n=...: the value holds U+007F at byte 3, which YAML does not allow" \
		$cmd --set n=40$'\x7f' s.yaml
	expect "empty.yaml:2:35: context 'ctx': async_events: unknown value '' (expected one of: false, true, no, yes, off, on)" \
		$cmd empty.yaml
done
expect "s.yaml:2:10: --set n=...: the value holds U+0085 at byte 1, which YAML does not allow" \
	validate --set n=$'\xc2\x85' s.yaml
expect "s.yaml:2:10: --set n=...: the value is not UTF-8 (byte 5 is 0xff)" \
	validate --set n=4096$'\xff' s.yaml
export RDMASCN_TEST_ACCESS=$'local_write\xc3'
expect "s.yaml:2:50: param 'e': environment variable RDMASCN_TEST_ACCESS: the value is not UTF-8 (byte 12 is 0xc3)" \
	validate s.yaml
RDMASCN_TEST_ACCESS=$'\x9b'
expect "s.yaml:2:50: param 'e': environment variable RDMASCN_TEST_ACCESS: the value is not UTF-8 (byte 1 is 0x9b)" \
	plan s.yaml

echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
