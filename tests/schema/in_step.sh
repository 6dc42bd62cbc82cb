#!/bin/bash
# schemas/rdmascn.schema.json is what `rdmascn schema` prints, byte for
# byte: a change to the libcyaml tables must regenerate it.
set -u
rdmascn=$1
checked_in=$2
out=$(mktemp)
trap '[ "$BASHPID" = $$ ] || exit; rm -f "$out"' EXIT

if ! "$rdmascn" schema >"$out"; then
	echo "FAIL: rdmascn schema exited $?"
	exit 1
fi
if ! cmp -s "$out" "$checked_in"; then
	diff -u "$checked_in" "$out" | head -n 60
	echo "FAIL: $checked_in is not what 'rdmascn schema' prints."
	echo "Regenerate it and commit the result:"
	echo "  $rdmascn schema > $checked_in"
	exit 1
fi
echo "ok: $checked_in is in step with 'rdmascn schema'"
