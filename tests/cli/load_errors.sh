#!/bin/bash
# Loader errors the bad-input corpus cannot hold: values from --set and
# the environment (bytes a YAML file may not carry), and the commands
# other than validate that load a scenario.  Each: exit 2, nothing on
# stdout, exactly the one expected line on stderr.
set -u
rdmascn=$1
fails=0 n=0
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
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

# Every bad ${} of a file, in one pass: in a param (its uses say nothing
# more), two in one scalar, one unterminated.
cat >forms.yaml <<'YAML'
scenario: forms
params: {a: 1, b: "${a}${zz}${a +}"}
contexts:
  - {id: "c${", device: any}
  - id: d${nope}x${a/0}
    device: any
  - {id: "e${b}", device: any}
YAML
expect "forms.yaml:2:19: params.b: unknown param 'zz' (expected one of: a, b)
forms.yaml:2:19: params.b: '\${a +}': expected a number, a name or '(' at the end
forms.yaml:4:10: context 'c\${': id: unterminated '\${' (write '\$\${' for a literal)
forms.yaml:5:10: context 'd\${nope}x\${a/0}': id: unknown param 'nope' (expected one of: a, b)
forms.yaml:5:18: context 'd\${nope}x\${a/0}': id: '\${a/0}': 1 / 0: division by zero" \
	validate forms.yaml
# Every bad node address, from params or written.
cat >addr.yaml <<'YAML'
scenario: addresses
params: {far: "${near"}
nodes:
  - {id: a, address: "host:99999"}
  - {id: b, address: "::1"}
  - {id: c, address: "${far}"}
  - {id: d, address: "${nowhere}"}
YAML
expect "addr.yaml:2:15: params.far: unterminated '\${' (write '\$\${' for a literal)
addr.yaml:7:22: nodes[3].address: unknown param 'nowhere' (expected one of: far)" validate addr.yaml
sed -i '2d; s/"${far}"/"[::1"/; s/"${nowhere}"/"a b"/' addr.yaml
expect "addr.yaml:3:22: node 'a': address: 'host:99999' has a port out of range (1 to 65535)
addr.yaml:4:22: node 'b': address: '::1' holds an IPv6 address without [ ]: write [ADDRESS] or [ADDRESS]:PORT
addr.yaml:5:22: node 'c': address: '[::1' has no closing ']' after an IPv6 address
addr.yaml:6:22: node 'd': address: 'a b' is not a host name or an IP address" validate addr.yaml

# --matrix past the most combinations a matrix may run: at the option.
printf 'scenario: m\nparams: {a: 1, b: 1}\ncontexts: [{id: ctx, device: any}]\n' >m.yaml
expect "m.yaml:1:1: --matrix b: 1000000 cells (2 params), over the limit of 10000; fix some params with --set, or split the matrix" \
	run -n --matrix a="$(seq -s, 1 1000)" --matrix b="$(seq -s, 1 1000)" m.yaml

echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
