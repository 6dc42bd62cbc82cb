#!/bin/bash
# No output is lost without a word: every verb's standard output and
# every output file (--json, --junit, --samples, --graph-out, graph -o)
# is checked to its close, and a write that fails is exit 3 naming the
# path (or "standard output") and errno; a file is written beside itself
# and renamed into place, so a failure keeps the file before and leaves
# no temporary file; two outputs onto one file, or one onto the scenario
# or --deviations, are refused before anything runs (exit 2).  Dry runs:
# no device.
#   outputs.sh RDMASCN SCENARIO_DIR
set -u
rdmascn=$1 dir=$2
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0 n=0
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }
f=$dir/rc_write.yaml
ENOSPC='No space left on device'

# full WHAT WANT ARGS...: rdmascn ARGS exits 3 saying WANT on stderr.
full() {
	local what=$1 want=$2
	shift 2
	n=$((n + 1))
	"$rdmascn" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 3 ] && grep -qxF -- "$want" "$tmp/err" ||
		bad "$what: exit $rc, $(tail -3 "$tmp/err")"
}

# 1. Standard output on /dev/full, each verb.
for verb in "validate $f" "plan $f" "graph $f" "schema" "plugins" "run -n $f"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$rdmascn" $verb >/dev/full 2>"$tmp/err"
	rc=$?
	[ $rc = 3 ] && grep -qxF "rdmascn: standard output: $ENOSPC" "$tmp/err" ||
		bad "$verb >/dev/full: exit $rc, $(tail -2 "$tmp/err")"
done
n=$((n + 1))
"$rdmascn" validate "$f" >&- 2>"$tmp/err"
rc=$?
[ $rc = 3 ] &&
	grep -qxF "rdmascn: standard output: Bad file descriptor" "$tmp/err" ||
	bad "validate with stdout closed: exit $rc, $(cat "$tmp/err")"

# 2. Each output file on /dev/full (written in place: not renamed over).
full "--json /dev/full" "rdmascn: --json /dev/full: $ENOSPC" \
	run -n --json /dev/full "$f"
full "--junit /dev/full" "rdmascn: --junit /dev/full: $ENOSPC" \
	run -n --junit /dev/full "$f"
full "--samples /dev/full" "rdmascn: --samples /dev/full: $ENOSPC" \
	run -n --samples /dev/full "$f"
ln -s /dev/full "$tmp/full.dot"
full "--graph-out a link to /dev/full" "rdmascn: --graph-out $tmp/full.dot: $ENOSPC" \
	run -n --graph-out "$tmp/full.dot" "$f"
n=$((n + 1))
"$rdmascn" run -n --json - "$f" >/dev/full 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && grep -qxF "rdmascn: --json standard output: $ENOSPC" "$tmp/err" ||
	bad "--json - >/dev/full: exit $rc, $(tail -2 "$tmp/err")"
cp "$f" "$tmp/scn.yaml"
full "graph -o a link to /dev/full" "rdmascn: graph -o $tmp/full.dot: $ENOSPC" \
	graph -o "$tmp/full.dot" "$tmp/scn.yaml"
[ -L "$tmp/full.dot" ] || bad "graph -o: the link to /dev/full was replaced"

# 3. Two outputs onto one file, an output onto an input: refused before
# anything runs, naming both.
refused() {
	local what=$1 want=$2
	shift 2
	n=$((n + 1))
	"$rdmascn" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 2 ] && grep -qxF -- "$want" "$tmp/err" &&
		! grep -q 'dry run' "$tmp/out" ||
		bad "$what: exit $rc, $(head -2 "$tmp/err")"
}
refused "--json X --junit X" "--json $tmp/x and --junit $tmp/./x are the same file." \
	run -n --json "$tmp/x" --junit "$tmp/./x" "$f"
[ -e "$tmp/x" ] && bad "--json X --junit X: X was written"
touch "$tmp/y"
ln -s y "$tmp/y.dot"
refused "--samples Y --graph-out a link to Y" "--samples $tmp/y and --graph-out $tmp/y.dot are the same file." \
	run -n --samples "$tmp/y" --graph-out "$tmp/y.dot" "$f"
refused "--json SCENARIO" "--json $tmp/scn.yaml would overwrite the scenario file ($tmp/scn.yaml)." \
	run -n --json "$tmp/scn.yaml" "$tmp/scn.yaml"
cmp -s "$f" "$tmp/scn.yaml" || bad "--json SCENARIO: the scenario changed"
echo "[]" >"$tmp/dev.yaml"
refused "--junit DEVIATIONS" "--junit $tmp/dev.yaml would overwrite --deviations ($tmp/dev.yaml)." \
	run -n --deviations "$tmp/dev.yaml" --junit "$tmp/dev.yaml" "$f"
refused "graph -o SCENARIO" "-o $tmp/scn.yaml is the scenario file itself." \
	graph -o "$tmp/scn.yaml" "$tmp/scn.yaml"
cmp -s "$f" "$tmp/scn.yaml" || bad "graph -o SCENARIO: the scenario changed"
n=$((n + 1))
"$rdmascn" run -n -q --json /dev/null --junit /dev/null "$f" >/dev/null 2>&1 ||
	bad "--json /dev/null --junit /dev/null: exit $?"

# 4. A write that fails half-way (the file size limit: EFBIG) keeps the
# file before and leaves no temporary file; one that succeeds replaces
# it, a link's target rather than the link, with the mode it had.
echo old >"$tmp/rec.json"
chmod 640 "$tmp/rec.json"
n=$((n + 1))
( trap '' XFSZ; ulimit -f 64; exec "$rdmascn" run -n -q --json "$tmp/rec.json" \
	"$dir/rc_many.yaml" ) >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && [ "$(cat "$tmp/rec.json")" = old ] &&
	grep -qxF "rdmascn: --json $tmp/rec.json: File too large" "$tmp/err" &&
	[ -z "$(find "$tmp" -name '.rec.json.*')" ] ||
	bad "EFBIG half-way: exit $rc, $(cat "$tmp/rec.json" | head -c 40), $(ls -a "$tmp" | tr '\n' ' ') $(cat "$tmp/err")"
n=$((n + 1))
ln -s rec.json "$tmp/rec.link"
"$rdmascn" run -n -q --json "$tmp/rec.link" --samples "$tmp/s.csv" \
	--graph-out "$tmp/g.dot" "$f" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && [ -L "$tmp/rec.link" ] &&
	[ "$(jq -r .verdict "$tmp/rec.json")" = passed ] &&
	[ "$(stat -c %a "$tmp/rec.json")" = 640 ] &&
	[ "$(head -1 "$tmp/s.csv")" = cell,step,iteration,usec ] &&
	grep -q '^digraph' "$tmp/g.dot" &&
	[ -z "$(find "$tmp" -name '.*.*')" ] ||
	bad "written in place of a link: exit $rc, $(ls -la "$tmp") $(cat "$tmp/err")"

# 5. A file (written beside itself, in 256 KiB pieces) holds the bytes
# standard output is given, but for the clock's (the start, in seconds
# since the epoch, and the phases' durations); a directory that is not
# there is said once, on one line.
clockless() {
	sed -E 's/"start": ("[^"]*"|[0-9]+)/"start": 0/; s/"(setup|steps|teardown|total)": [0-9.e-]+/"\1": 0/' "$1"
}
n=$((n + 1))
"$rdmascn" run -n -q --json "$tmp/one.json" "$dir/rc_many.yaml" >/dev/null 2>"$tmp/err"
rc=$?
"$rdmascn" run -n -q --json - "$dir/rc_many.yaml" >"$tmp/one.out" 2>>"$tmp/err"
rc2=$?
[ $rc = 0 ] && [ $rc2 = 0 ] && [ "$(jq '.objects | length' "$tmp/one.json")" -gt 100 ] &&
	cmp -s <(clockless "$tmp/one.json") <(clockless "$tmp/one.out") ||
	bad "--json FILE against --json -: exit $rc and $rc2, $(cmp <(clockless "$tmp/one.json") <(clockless "$tmp/one.out")) $(cat "$tmp/err")"
n=$((n + 1))
"$rdmascn" run -n -q --json "$tmp/nodir/r.json" "$f" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && [ "$(cat "$tmp/err")" = "rdmascn: --json $tmp/nodir/r.json: No such file or directory" ] ||
	bad "--json into no directory: exit $rc, $(cat "$tmp/err")"

# 6. A matrix's samples: one header, whatever --jobs.
for jobs in 1 2; do
	n=$((n + 1))
	"$rdmascn" run -n -q --jobs $jobs --matrix size=64,128,256 \
		--samples "$tmp/m.csv" "$f" >/dev/null 2>"$tmp/err"
	rc=$?
	[ $rc = 0 ] && [ "$(grep -c '^cell,step' "$tmp/m.csv")" = 1 ] ||
		bad "matrix --samples, --jobs $jobs: exit $rc, $(head -3 "$tmp/m.csv")"
done

echo "$((n - fails)) of $n output checks passed"
[ $fails = 0 ]
