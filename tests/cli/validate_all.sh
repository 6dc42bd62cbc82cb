#!/bin/bash
# `validate` reports every error it finds in one pass, up to 20 (the
# bad-input corpus holds one defect a file; this holds several): wrong
# ids, references and each object's own checks all come, in that order;
# past 20 it stops; a libcyaml error (a field's type, an unknown field)
# stops the pass at that one line.  Each: exit 2, nothing on stdout,
# exactly the expected lines on stderr.
set -u
rdmascn=$1
fails=0 n=0
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

expect() { # FILE WANT_STDERR (lines)
	local f=$1 want=$2 rc
	n=$((n + 1))
	"$rdmascn" validate "$f" >out 2>err
	rc=$?
	if [ $rc -ne 2 ] || [ -s out ] || [ "$(cat err)" != "$want" ]; then
		echo "FAIL $f: exit $rc (want 2)"
		echo "--- want"; echo "$want"
		echo "--- got"; cat out err
		fails=$((fails + 1))
	else
		echo "ok $f: $(wc -l <err) lines"
	fi
}

# Two bad CQs: two messages.
cat >two_cqs.yaml <<'YAML'
scenario: two-bad-cqs
contexts: [{id: ctx, device: any}]
cqs:
  - {id: cq1, context: ctx, cqe: 0}
  - {id: cq2, context: ctx, cqe: 16, mode: events}
YAML
expect two_cqs.yaml "two_cqs.yaml:4:34: cq 'cq1': cqe: must be at least 1
two_cqs.yaml:5:44: cq 'cq2': mode: 'events' needs 'channel: true'"

# A duplicate id, a reference to nothing and checks of objects and steps:
# all of them, ids and references first.
cat >mixed.yaml <<'YAML'
scenario: mixed
contexts: [{id: ctx, device: any}]
pds: [{id: pd, context: ctx}, {id: pd, context: ctx}]
cqs: [{id: cq, context: ctxx, cqe: 0}]
mrs: [{id: m, pd: pd, length: 64}]
steps:
  - verify: {mr: m, equals: m, pattern: zero}
YAML
expect mixed.yaml "mixed.yaml:3:36: pd 'pd': id: 'pd' already names a pd (at 3:12)
mixed.yaml:4:25: cq 'cq': context: no object with id 'ctxx', did you mean 'ctx'?
mixed.yaml:4:36: cq 'cq': cqe: must be at least 1
mixed.yaml:7:41: step 1 (verify): pattern: exclusive with 'equals'"

# 25 bad CQs: the first 20.
{
	echo "scenario: many"
	echo "contexts: [{id: ctx, device: any}]"
	echo "cqs:"
	for i in $(seq 1 25); do
		echo "  - {id: cq$i, context: ctx, cqe: 0}"
	done
} >many.yaml
want=$(for i in $(seq 1 20); do
	col=$((34 + ${#i} - 1))
	echo "many.yaml:$((i + 3)):$col: cq 'cq$i': cqe: must be at least 1"
done)
expect many.yaml "$want"

# A libcyaml error ends the pass: the bad CQ after it is not reached.
cat >schema.yaml <<'YAML'
scenario: schema-stops
contexts: [{id: ctx, device: any}]
cqs:
  - {id: cq1, context: ctx, cqe: x}
  - {id: cq2, context: ctx, cqe: 0}
YAML
expect schema.yaml "schema.yaml:4:34: cq 'cq1': cqe: expected an integer, got 'x'"

# A valid file's counts agree with their nouns: one object, one step.
cat >one.yaml <<'YAML'
scenario: one
contexts: [{id: ctx, device: any}]
steps:
  - sleep: {ms: 1}
YAML
n=$((n + 1))
got=$("$rdmascn" validate one.yaml 2>&1)
if [ "$got" != "one.yaml: valid (1 object, 1 step)" ]; then
	echo "FAIL one.yaml: got '$got'"
	fails=$((fails + 1))
else
	echo "ok one.yaml: $got"
fi

echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
