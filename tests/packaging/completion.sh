#!/bin/bash
# The bash completion, through bash's own machinery: source it, set
# COMP_WORDS/COMP_CWORD as readline would, call the function `complete`
# names, read COMPREPLY.  The commands and each command's options must be
# those `rdmascn --help` and `rdmascn CMD --help` print, so the two cannot
# drift apart.
#   completion.sh COMPLETION-FILE RDMASCN-BINARY
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
completion=$1 rdmascn=$2

# shellcheck source=/dev/null
source "$completion"
func=$(complete -p rdmascn 2>/dev/null | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
[ -n "$func" ] ||
	{ echo "FAIL: $completion registers no function for rdmascn"; exit 1; }

# comp WORD...: the words of the line, the last the one being completed;
# prints COMPREPLY sorted, a line each.
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	"$func" rdmascn "${COMP_WORDS[COMP_CWORD]}" \
		"${COMP_WORDS[COMP_CWORD - 1]}"
	[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort -u
}

# expect WANT WORD...: WANT is the sorted replies, space-separated.
expect() {
	local want=$1 got
	shift
	n=$((n + 1))
	got=$(comp "$@" | tr '\n' ' ')
	got=${got% }
	if [ "$got" != "$want" ]; then
		fail "rdmascn ${*:2}<TAB>: got '$got', want '$want'"
	else
		echo "ok rdmascn ${*:2}<TAB>: $got"
	fi
}

# A directory to complete file names in.
mkdir "$tmp/d" "$tmp/d/scdir"
touch "$tmp/d/scn.yaml" "$tmp/d/scn2.yml" "$tmp/d/scratch.txt"
cd "$tmp/d" || exit 1
PATH=$(dirname "$rdmascn"):$PATH

expect "report run" rdmascn r
expect "run" rdmascn ru
expect "plan plugins" rdmascn -v pl
expect "--verbose --version" rdmascn --ver
expect "--json" rdmascn run --js
expect "--dry-run" rdmascn run --dr
expect "scdir scn.yaml scn2.yml" rdmascn run sc
expect "scdir scn.yaml scn2.yml" rdmascn -v validate --set a=1 sc
expect "scdir scn.yaml scn2.yml" rdmascn plan -s x=y sc
expect "scdir scn.yaml scn2.yml scratch.txt" rdmascn run --json sc
expect "scdir scn.yaml scn2.yml scratch.txt" rdmascn run --json = sc
expect "--color --counters" rdmascn run --co
expect "--counters" rdmascn run --cou
expect "all errors off" rdmascn run --counters =
expect "off" rdmascn run --counters o
expect "always auto" rdmascn run --color a
expect "never" rdmascn run --color = n
expect "pmix" rdmascn run --rendezvous p
expect "tcp" rdmascn run --rendezvous t
expect "" rdmascn run --rendezvous 10.
expect "" rdmascn run --set s
# --set NAME=: the params of the scenario on the line, block or flow
# mapping; a value's ", x:" or a deeper line is not a name.
cat >"$tmp/d/scdir/block.yaml" <<'END'
scenario: block
params:
  # a comment, and a blank line below
  size: {default: 4096, description: "bytes, per: send"}

  iters: {default: 1000,
    description: sends}
  depth: 16
pds: []
END
# shellcheck disable=SC2016 # ${...} is the scenario's, not the shell's
printf '%s\n' 'scenario: flow' \
	'params: {n: 100, cqe: "${min(1, 2)}", d: {default: 3, x: "a, b: c"},' \
	'  tail: 1}  # more' 'pds: []' >"$tmp/d/scdir/flow.yml"
expect "depth= iters= size=" rdmascn run scdir/block.yaml --set ""
expect "iters=" rdmascn run -v scdir/block.yaml -s i
expect "size=" rdmascn plan scdir/block.yaml --set = s
expect "cqe= d= n= tail=" rdmascn validate scdir/flow.yml --set ""
expect "tail=" rdmascn run scdir/flow.yml --set a=1 --set t
expect "" rdmascn run scdir/nowhere.yaml --set ""
expect "scdir scn.yaml scn2.yml scratch.txt" rdmascn run --graph-out sc
expect "dot png svg" rdmascn graph --format ""
expect "scdir scn.yaml scn2.yml scratch.txt" rdmascn graph -o sc
expect "" rdmascn devices --json sc
expect "" rdmascn schema sc
expect "--share" rdmascn softroce --sh
expect "scdir" rdmascn softroce --share sc
expect "rdmascn" rdmascn softroce --keep -- rdmasc

expect "latency.p99 latency.p99.9" rdmascn compare --figure latency.p9
expect "throughput.MB/s throughput.Mpps" rdmascn compare -f throughput.M
expect "" rdmascn compare -t l
# compare's figure names: those its usage error lists.
n=$((n + 1))
want=$("$rdmascn" compare --figure x a b 2>&1 | sed -n '1s/.*(figures: \(.*\))\.$/\1/p' |
	tr -d ',' | tr ' ' '\n' | sort)
got=$(comp rdmascn compare --figure "")
if [ -z "$want" ] || [ "$got" != "$want" ]; then
	fail "rdmascn compare --figure <TAB>: got '$got', compare lists '$want'"
else
	echo "ok rdmascn compare --figure <TAB>: the figures compare knows"
fi

# The commands: those the usage lists.
n=$((n + 1))
verbs=$("$rdmascn" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z]\+\) .*/\1/p')
got=$(comp rdmascn "" | tr '\n' ' ')
want=$(sort <<<"$verbs" | tr '\n' ' ')
if [ -z "$verbs" ] || [ "$got" != "$want" ]; then
	fail "rdmascn <TAB>: got '$got', rdmascn --help lists '$want'"
else
	echo "ok rdmascn <TAB>: the commands of rdmascn --help"
fi

# Each command's options: those its --help lists (an option line starts
# with "-x, --long" or "--long"), no more, no fewer.  "--" before
# softroce's command line is not an option.
for verb in $verbs; do
	n=$((n + 1))
	"$rdmascn" "$verb" --help >"$tmp/help" 2>&1
	sed -n 's/^ \+\(-[^ ,]*\(, -[^ ,]*\)*\).*/\1/p' "$tmp/help" |
		tr -s ' ,' '\n' | sort -u >"$tmp/want"
	comp rdmascn "$verb" - | grep -vx -- -- >"$tmp/got"
	if [ ! -s "$tmp/want" ]; then
		fail "rdmascn $verb --help lists no options"
	elif ! diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then
		fail "rdmascn $verb -<TAB> is not rdmascn $verb --help:" \
			"(- help, + completion)"
		cat "$tmp/diff"
	else
		echo "ok rdmascn $verb -<TAB>: $(tr '\n' ' ' <"$tmp/got")"
	fi
done

finish
