# Shared by the device tests: run a scenario and read its report.
# shellcheck shell=bash
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"
# Wall-clock bounds scaled by how slow the VM is (slow_within, slow_bound).
. "$(dirname "${BASH_SOURCE[0]}")/slow.sh"

# jq is gojq, jq's Go implementation, the same language: under TCG a
# jq 1.6 start takes 250-480 ms (it compiles its builtins every time), a
# gojq start 40-60 ms, and a device test runs dozens.  (gojq does not
# keep an object's key order: compare values, not JSON text.)
jq() { gojq "$@"; }
# status N: returns N; the EXIT trap hands the script's own status on
# with it to what reads $? (records_ok, veth_rxe_down), after the test
# that keeps the trap to the script itself, which set $? to 0: a failed
# check then passed the test.
status() { return "$1"; }
# Scratch space for the reports, gone when the test ends.
tmp=$(mktemp -d)
mkdir "$tmp/recs"
trap 'st_=$?; [ "$BASHPID" = $$ ] || exit $st_; status $st_; records_ok; rc_=$?; rm -rf "$tmp"; exit $rc_' EXIT

# The run record's schema, and what checks a record against it and its
# promises (exit code, verdict, teardown the reverse of creation).
rec_schema=$(dirname "$0")/../../schemas/rdmascn-run.schema.json
rec_check=$(dirname "$0")/../schema/run_record.py
# The JUnit XSD, and what checks a JUnit file against it and its record.
junit_xsd=$(dirname "$0")/../junit/junit.xsd
junit_check=$(dirname "$0")/../junit/check.py

nrec=0
# keep_file SRC DST: a copy of SRC at DST with builtins alone (a text
# file: records and JUnit XML hold no NUL byte); cp is a process, and
# every process start costs under TCG (fork, exec, the loader).
keep_file() {
	local x
	IFS= read -r -d '' x <"$1"
	printf '%s' "$x" >"$2"
}
# run_scn OUT ERR ARGS...: rdmascn run ARGS, stdout to OUT, stderr to ERR,
# its record to $tmp/rec.json and its JUnit XML to $tmp/rec.xml (kept, to
# be checked when the test ends: one python under TCG takes seconds to
# start); sets $rc.
run_scn() {
	local out=$1 err=$2
	shift 2
	# Emptied, not removed (rm is a process: a tenth of a second under
	# TCG): a run that writes a record replaces them.
	: >"$tmp/rec.json"
	: >"$tmp/rec.xml"
	"$rdmascn" run --json "$tmp/rec.json" --junit "$tmp/rec.xml" "$@" \
		>"$out" 2>"$err"
	rc=$?
	if [ -s "$tmp/rec.json" ]; then
		nrec=$((nrec + 1))
		keep_file "$tmp/rec.json" "$tmp/recs/$nrec.json"
		echo "$tmp/recs/$nrec.json:$rc run $*" >>"$tmp/recs/list"
		if [ -s "$tmp/rec.xml" ]; then
			keep_file "$tmp/rec.xml" "$tmp/recs/$nrec.xml"
			echo "$tmp/recs/$nrec.xml $tmp/recs/$nrec.json" \
				>>"$tmp/recs/junit"
		fi
	fi
}
# A test that passed has every run's record checked: the schema, its
# exit code, verdict and teardown (tests/schema/run_record.py); and its
# JUnit file: the XSD, a testcase per step (tests/junit/check.py).
# With RDMASCN_RXE_RECORDS (tests/rxe/in_vm.sh sets it: a directory the
# host shares), they are copied there and checked on the host after the
# test: one python with jsonschema takes most of a minute to start under
# TCG on a loaded host, seconds on the host.
records_ok() {
	local st=$?
	[ $st = 0 ] && [ -s "$tmp/recs/list" ] || return $st
	if [ -n "${RDMASCN_RXE_RECORDS:-}" ]; then
		records_to_host
		return
	fi
	/usr/bin/python3 "$rec_check" "$rec_schema" "$tmp/recs/list" ||
		{ echo "not ok $((nok + 1)) - run records (see above)"; return 1; }
	ok "$(wc -l <"$tmp/recs/list") run records: schema, exit code, verdict, teardown"
	[ -s "$tmp/recs/junit" ] || return 0
	/usr/bin/python3 "$junit_check" "$junit_xsd" "$tmp/recs/junit" ||
		{ echo "not ok $((nok + 1)) - JUnit files (see above)"; return 1; }
	ok "$(wc -l <"$tmp/recs/junit") JUnit files: the XSD, a testcase per step"
}
# records_to_host: the kept records and JUnit files, and their lists
# with the paths the copies have, into a new directory of
# RDMASCN_RXE_RECORDS, with the number of the last check (nok) for the
# host's lines to follow; builtins but mktemp.
records_to_host() {
	local d l f n=0 x j
	local -A as=()
	d=$(mktemp -d "$RDMASCN_RXE_RECORDS/recs.XXXXXX") || return 1
	while IFS= read -r l; do
		f=${l%%:*}
		n=$((n + 1))
		keep_file "$f" "$d/$n.json" || return 1
		as[$f]=$d/$n.json
		printf '%s\n' "$d/$n.json:${l#*:}"
	done <"$tmp/recs/list" >"$d/list"
	if [ -s "$tmp/recs/junit" ]; then
		while read -r x j; do
			n=$((n + 1))
			keep_file "$x" "$d/$n.xml" || return 1
			if [ -z "${as[$j]:-}" ]; then
				keep_file "$j" "$d/$n.json" || return 1
				as[$j]=$d/$n.json
			fi
			printf '%s\n' "$d/$n.xml ${as[$j]}"
		done <"$tmp/recs/junit" >"$d/junit"
	fi
	echo "$nok" >"$d/nok"
}
# rec JQ: a value of the last run's record.
rec() { jq -r "$@" "$tmp/rec.json"; }
# recvars [JQ_OPTION...] -- VAR=EXPR...: one jq over the last run's
# record for all of a check's values (a jq start is most of a second
# under TCG): each EXPR's value in shell variable VAR, a string as it is,
# anything else as compact JSON (as `rec -c` would print it).
recvars() {
	local opts=() prog='' names=() vals=() v i
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	for v in "$@"; do
		names+=("${v%%=*}")
		prog+="${prog:+, }(${v#*=} | if type == \"string\" then . else tojson end), \"\\u0000\""
	done
	# (A file, not <(...): the VM has no /dev/fd; and $(...) drops NULs.)
	jq -j "${opts[@]}" "$prog" "$tmp/rec.json" >"$tmp/recvars"
	mapfile -d '' vals <"$tmp/recvars"
	for i in "${!names[@]}"; do
		printf -v "${names[$i]}" '%s' "${vals[$i]:-}"
	done
}

# scan_out FILE: what a text report says, read with builtins (no sed,
# tac or grep process per check): the objects created, in order, in the
# array made ("kind 'id'"), those destroyed, in order, in gone; how many
# were failed and not created in nfailed, nmissing, how many lines start
# "created" in ncreated; leaks_none 1 when it says "leaks: none"; its
# last line in last.
scan_out() {
	local l re_c="^created *[0-9]* ([a-z_0-9]* '[^']*')" \
		re_d="^destroyed [0-9]* (.*)$"
	made=() gone=() nfailed=0 nmissing=0 ncreated=0 leaks_none=0 last=''
	while IFS= read -r l || [ -n "$l" ]; do
		last=$l
		case $l in
		created*)
			ncreated=$((ncreated + 1))
			[[ $l =~ $re_c ]] && made+=("${BASH_REMATCH[1]}") ;;
		destroyed*) [[ $l =~ $re_d ]] && gone+=("${BASH_REMATCH[1]}") ;;
		"failed "*) nfailed=$((nfailed + 1)) ;;
		"not created "*) nmissing=$((nmissing + 1)) ;;
		"leaks: none"*) leaks_none=1 ;;
		esac
	done <"$1"
}
# reversed: after scan_out, gone is made in reverse.
reversed() {
	local i n=${#made[@]}
	[ "$n" = "${#gone[@]}" ] || return 1
	for ((i = 0; i < n; i++)); do
		[ "${made[$i]}" = "${gone[$((n - 1 - i))]}" ] || return 1
	done
}

# The objects a report says were created, in order, one per line.
created() { local made gone nfailed nmissing ncreated leaks_none last; scan_out "$1"; [ ${#made[@]} = 0 ] || printf '%s\n' "${made[@]}"; }
# ... and destroyed, in the order they were.
destroyed() { local made gone nfailed nmissing ncreated leaks_none last; scan_out "$1"; [ ${#gone[@]} = 0 ] || printf '%s\n' "${gone[@]}"; }

# assert_clean OUT ERR WHAT [VAR=EXPR...]: teardown was the exact
# reverse of creation, and nothing leaked.  Sets what scan_out sets, and
# each VAR to its EXPR of the record as recvars does, in the same jq.
assert_clean() {
	local out=$1 err=$2 what=$3 leaks leaks_ok
	shift 3
	scan_out "$out"
	if ! reversed; then
		echo "--- created:"; created "$out"
		echo "--- destroyed:"; destroyed "$out"
		fail "$what: teardown is not the reverse of creation"
	fi
	[ "$leaks_none" = 1 ] || { cat "$out" "$err"; fail "$what: leak check did not pass"; }
	# A matrix's record has a record per cell (scenarios/rc_sweep.yaml).
	recvars -- leaks_ok='[if .cells then .cells[] else . end |
		  .leaks.checked and .leaks.count == 0] | all' \
		leaks='[if .cells then .cells[] else . end | .leaks]' "$@"
	[ "$leaks_ok" = true ] || fail "$what: the record's leaks: $leaks"
}

# expect NAME WANT_RC FILE [ARGS]: run it with --check-leaks into
# $tmp/out and $tmp/err, check the exit code and a clean teardown.
expect() {
	local name=$1 want=$2
	shift 2
	run_scn "$tmp/out" "$tmp/err" --check-leaks "$@"
	[ $rc = "$want" ] || { cat "$tmp/out" "$tmp/err"; fail "$name: exit $rc, want $want"; }
	assert_clean "$tmp/out" "$tmp/err" "$name"
	ok "$name: exit $rc, teardown the reverse of creation, no leaks"
}
# pass_or_skip NAME CAP FILE: run FILE with --check-leaks.  With CAP (what
# rxe lacks) it must be skipped (77) naming it, with nothing created;
# without, it must pass with a clean teardown.
pass_or_skip() {
	local name=$1 cap=$2 f=$3 l said=
	run_scn "$tmp/out" "$tmp/err" --check-leaks "$f"
	if [ -n "$cap" ]; then
		[ $rc = 77 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: exit $rc, want 77"; }
		while IFS= read -r l || [ -n "$l" ]; do
			[[ $l == *"has no $cap"* ]] && { said=$l; break; }
		done <"$tmp/err"
		[ -n "$said" ] || { cat "$tmp/err"; fail "$name: the skip does not name $cap"; }
		scan_out "$tmp/out"
		[ "$ncreated" = 0 ] || fail "$name: skipped after creating objects"
		# The first line that says what it lacks (it names $cap).
		while IFS= read -r l || [ -n "$l" ]; do
			[[ $l == *"has no"* ]] && { said=$l; break; }
		done <"$tmp/err"
		ok "$name: skipped: $said"
	else
		[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: exit $rc, want 0"; }
		assert_clean "$tmp/out" "$tmp/err" "$name"
		ok "$name: $last"
	fi
}
# has NAME FILE REGEX: the output says it.
has() {
	grep -Eq -- "$3" "$2" || { cat "$tmp/out" "$tmp/err"; fail "$1: no /$3/"; }
}

# run_bg CONN ARGS...: rdmascn run ARGS in the background into $tmp/out
# and $tmp/err, back once connection CONN is up and the steps have had
# 0.3 s to start; sets $pid.
run_bg() {
	local conn=$1 i
	shift
	# Its own record: assert_clean reads $tmp/rec.json.
	: >"$tmp/rec.json"
	"$rdmascn" run --json "$tmp/rec.json" "$@" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	for i in $(seq 1 400); do
		grep -q "^created.*connection '$conn'" "$tmp/out" 2>/dev/null && break
		sleep 0.05
	done
	grep -q "^created.*connection '$conn'" "$tmp/out" ||
		{ kill -KILL $pid; cat "$tmp/out" "$tmp/err"; fail "never got to the step"; }
	sleep 0.3
}

# node_ok NAME OUT ERR RC WANT: one node's run ended with WANT, torn down
# in reverse, nothing left behind (the run's --check-leaks).
# Under a launcher every line of a node's output starts with "[NODE] "
# and has no escape byte: checked, then the prefix is taken off for the
# checks below.
node_ok() {
	local what=$1 out=$2 err=$3 got=$4 want=$5 node='' l f \
		re='^(\[[a-z_0-9]*(\[[0-9]*\])?\] )'
	[ "$got" = "$want" ] || { cat "$out" "$err"; fail "$what: exit $got, want $want"; }
	IFS= read -r l <"$out"
	[[ $l =~ $re ]] && node=${BASH_REMATCH[1]}
	if [ -n "$node" ]; then
		for f in "$out" "$err"; do
			while IFS= read -r l || [ -n "$l" ]; do
				[[ $l == *"$node"* && $l != *$'\033'* ]] && continue
				cat "$out" "$err"; fail "$what: a line without '$node', or an escape byte"
			done <"$f"
		done
		while IFS= read -r l || [ -n "$l" ]; do
			[[ $l =~ $re ]] && l=${l:${#BASH_REMATCH[1]}}
			printf '%s\n' "$l"
		done <"$out" >"$out.plain"
		out=$out.plain
	fi
	scan_out "$out"
	reversed || { cat "$out"; fail "$what: teardown is not the reverse of creation"; }
	[ "$leaks_none" = 1 ] || { cat "$out" "$err"; fail "$what: leak check did not pass"; }
}
# scan_nodes NEED OUT...: what node_ok reads of each OUT and its ERR
# (OUT with .err for .out), and whether either has a line with NEED in
# it (grep -F; none asked when NEED is empty), by one jq for them all:
# bash's regex loops over 16 ranks' reports took some 40 s under TCG,
# this one process a second or two.  Into arrays by OUT: sn_node (the
# node prefix of OUT's first line, "[h[3]] "), sn_bad (1: a line of OUT
# or ERR without it, or with an escape byte), sn_rev (1: OUT's objects
# destroyed in the reverse of their creation), sn_leaks (1: OUT says
# "leaks: none"), sn_created (its lines that start "created", a node
# prefix taken off), sn_need (1: NEED is there).  A missing file reads
# as empty.
scan_nodes() {
	local need=$1 o l f=() outs=''
	shift
	for o; do
		outs+=$o$'\n'
		[ -e "$o" ] && f+=("$o")
		[ -e "${o%.out}.err" ] && f+=("${o%.out}.err")
	done
	declare -gA sn_node=() sn_bad=() sn_rev=() sn_leaks=() sn_created=() \
		sn_need=()
	# shellcheck disable=SC2016
	local prog='
	def node_re: "^\\[[a-z_0-9]*(\\[[0-9]*\\])?\\] ";
	def b: if . then 1 else 0 end;
	(reduce inputs as $l ({}; .[input_filename] += [$l])) as $f
	| $outs | split("\n")[] | select(. != "") as $o
	| ($f[$o] // []) as $out | ($f[$o | sub("\\.out$"; ".err")] // []) as $err
	| ((($out[0] // "") | capture("^(?<n>\\[[a-z_0-9]*(\\[[0-9]*\\])?\\] )").n) // "") as $n
	| (if $n == "" then $out else [$out[] |
		if startswith($n) then .[($n | length):]
		elif test(node_re) then sub(node_re; "") else . end] end) as $s
	| [$s[] | select(startswith("created")) |
		capture("^created *[0-9]* (?<o>[a-z_0-9]* '"'"'[^'"'"']*'"'"')").o] as $made
	| [$s[] | select(startswith("destroyed")) |
		capture("^destroyed [0-9]* (?<o>.*)$").o] as $gone
	| [$o,
	   ($n != "" and any(($out + $err)[];
		index($n) == null or index("\u001b") != null) | b),
	   ($made == ($gone | reverse) | b),
	   (any($s[]; startswith("leaks: none")) | b),
	   ([$s[] | select(startswith("created"))] | length),
	   ($need != "" and any(($out + $err)[]; index($need) != null) | b),
	   $n]
	| map(tostring) | join("\t")'
	jq -n -R -r --arg outs "$outs" --arg need "$need" "$prog" \
		${f[@]+"${f[@]}"} >"$tmp/scan_nodes" || return 1
	# (The prefix last: it may be empty, and read folds empty fields
	# between tabs.)
	local bad rev leaks created has node
	while IFS=$'\t' read -r o bad rev leaks created has node; do
		sn_bad[$o]=$bad sn_rev[$o]=$rev sn_leaks[$o]=$leaks
		sn_created[$o]=$created sn_need[$o]=$has sn_node[$o]=$node
	done <"$tmp/scan_nodes"
}
# node_scanned WHAT OUT ERR RC WANT: node_ok, from what scan_nodes read
# of OUT and ERR.
node_scanned() {
	local what=$1 out=$2 err=$3 got=$4 want=$5
	[ "$got" = "$want" ] || { cat "$out" "$err"; fail "$what: exit $got, want $want"; }
	[ -n "${sn_rev[$out]:-}" ] || fail "$what: $out was not scanned"
	[ "${sn_bad[$out]}" = 0 ] ||
		{ cat "$out" "$err"; fail "$what: a line without '${sn_node[$out]}', or an escape byte"; }
	[ "${sn_rev[$out]}" = 1 ] ||
		{ cat "$out"; fail "$what: teardown is not the reverse of creation"; }
	[ "${sn_leaks[$out]}" = 1 ] ||
		{ cat "$out" "$err"; fail "$what: leak check did not pass"; }
}
# keep_rec JSON RC WHAT: have the record checked when the test ends.
keep_rec() {
	[ -s "$1" ] || fail "$3: no record $1"
	nrec=$((nrec + 1))
	keep_file "$1" "$tmp/recs/$nrec.json"
	echo "$tmp/recs/$nrec.json:$2 $3" >>"$tmp/recs/list"
}
# by_hand FILE WANT NODE... -- ARGS: one process per NODE (--node), the
# last started first node last, each with --check-leaks and its own
# output in $tmp/NODE.{out,err,json}; each must exit WANT.
by_hand() {
	local f=$1 want=$2 n pids=() nodes=()
	shift 2
	while [ "$1" != -- ]; do nodes+=("$1"); shift; done
	shift
	for n in "${nodes[@]}"; do
		"$rdmascn" run --node "$n" --check-leaks --json "$tmp/$n.json" \
			"$@" "$f" >"$tmp/$n.out" 2>"$tmp/$n.err" &
		pids+=($!)
	done
	for i in "${!nodes[@]}"; do
		wait "${pids[$i]}"
		node_ok "${f##*/} node ${nodes[$i]}" "$tmp/${nodes[$i]}.out" \
			"$tmp/${nodes[$i]}.err" $? "$want"
	done
}

# veth_rxe_up: two rxe devices on the two ends of a veth pair, rxe_a on
# veth2 (10.98.0.1) and rxe_b on veth3 (10.98.0.2), the traffic between
# the two local addresses sent over the veth rather than lo (a routing
# table each way ahead of the local one, the far end accepting a local
# source); veth_rxe_down: the VM as the other tests know it (rxe0 only,
# the local table first).  Run again by a trap, down keeps the status it
# came with.
veth_rxe_up() {
	ip link add veth2 type veth peer name veth3 &&
	ip addr add 10.98.0.1/24 dev veth2 && ip addr add 10.98.0.2/24 dev veth3 &&
	ip link set veth2 up && ip link set veth3 up &&
	ip route add 10.98.0.2/32 dev veth2 src 10.98.0.1 table 100 &&
	ip route add 10.98.0.1/32 dev veth3 src 10.98.0.2 table 101 &&
	ip rule add pref 10 iif lo to 10.98.0.2 lookup 100 &&
	ip rule add pref 11 iif lo to 10.98.0.1 lookup 101 &&
	ip rule add pref 100 lookup local && ip rule del pref 0 lookup local &&
	sysctl -qw net.ipv4.conf.veth2.accept_local=1 net.ipv4.conf.veth3.accept_local=1 \
		net.ipv4.conf.veth2.rp_filter=0 net.ipv4.conf.veth3.rp_filter=0 \
		net.ipv4.conf.all.rp_filter=0 &&
	ip neigh add 10.98.0.2 lladdr "$(cat /sys/class/net/veth3/address)" dev veth2 nud permanent &&
	ip neigh add 10.98.0.1 lladdr "$(cat /sys/class/net/veth2/address)" dev veth3 nud permanent &&
	rdma link add rxe_a type rxe netdev veth2 && rdma link add rxe_b type rxe netdev veth3
}
veth_rxe_down() {
	local st=$?
	[ -e /sys/class/net/veth2 ] || return $st
	rdma link delete rxe_a 2>/dev/null
	rdma link delete rxe_b 2>/dev/null
	ip link delete veth2 2>/dev/null
	ip rule del pref 10 2>/dev/null
	ip rule del pref 11 2>/dev/null
	ip rule add pref 0 lookup local 2>/dev/null
	ip rule del pref 100 lookup local 2>/dev/null
	return $st
}
