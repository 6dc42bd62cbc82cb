#!/bin/bash
# tests/rxe/lib.sh's scan_nodes and node_scanned (one jq over many
# nodes' reports, as cluster.sh checks its 16 ranks) say what node_ok
# (bash loops, a rank at a time) says of the same reports: a clean one
# passes; a teardown out of order, an escape byte, a line without the
# node's prefix (in the report or its stderr), no "leaks: none", a
# wrong exit code or a missing report each fail with node_ok's message.
# And what the cluster checks read besides: a line naming something in
# either file (grep -F), the lines that say "created".  Host only.
#
#   rxe_scan.sh RXE-DIR
set -u
rxe=$(cd "$1" && pwd)
rdmascn=/bin/false
. "$rxe/lib.sh"
# lib.sh's EXIT trap checks kept records; none are kept here.
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
d=$tmp/r
mkdir "$d"

# report R NODE: a clean report of node NODE (an empty NODE: none, as
# a run outside a launcher prints) in $d/p.R.{out,err}.
report() {
	local r=$1 n=${2:+[$2] } i
	{
		for i in 1 2 3 4; do echo "${n}created   $i qp 'q$i'   (qpn $i)"; done
		echo "${n}step 1 write 'w' passed"
		for i in 4 3 2 1; do echo "${n}destroyed $i qp 'q$i'"; done
		echo "${n}leaks: none"
	} >"$d/p.$r.out"
	echo "${n}rdmascn: node 'h[7]' was lost" >"$d/p.$r.err"
}
report 0 'h[0]'
report 1 'h[1]'
# 2: teardown out of order; 3: an escape byte; 4: no leaks line; 5: a
# stderr line without the prefix; 6: no prefix at all (clean); 7: a
# line that starts with another node's prefix and has its own further
# on (taken off, as node_ok does); 8: no report (node_ok fails on it
# without a message); 9: nothing naming h[7], and nothing created.
report 2 'h[2]'; sed -i '7{h;d};8{G}' "$d/p.2.out"
report 3 'h[3]'; sed -i $'2s/created/\033[1mcreated/' "$d/p.3.out"
report 4 'h[4]'; sed -i '/leaks: none/d' "$d/p.4.out"
report 5 'h[5]'; echo "a stray line" >>"$d/p.5.err"
report 6 ''
report 7 'h[7]'; sed -i '3s/^\[h\[7\]\] \(.*\)$/[x[1]] \1 [h[7]] /' "$d/p.7.out"
report 9 'h[9]'; sed -i '/created\|destroyed/d' "$d/p.9.out"; : >"$d/p.9.err"

outs=()
for r in 0 1 2 3 4 5 6 7 8 9; do outs+=("$d/p.$r.out"); done
scan_nodes "node 'h[7]' was lost" "${outs[@]}" || bad "scan_nodes failed"
# Each report, and the exit codes 0 (as wanted) and 3 (not).
for r in 0 1 2 3 4 5 6 7 8 9; do
	for got in 0 3; do
		o=$d/p.$r.out e=$d/p.$r.err
		old=$( (node_ok "r$r" "$o" "$e" $got 0; echo passed) 2>/dev/null | tail -1)
		new=$( (node_scanned "r$r" "$o" "$e" $got 0; echo passed) 2>/dev/null | tail -1)
		[ $r = 8 ] && old=${new:-x}
		[ "$old" = "$new" ] ||
			bad "report $r, exit $got: node_ok says '$old', node_scanned '$new'"
	done
done
# The ones that must pass and fail, as node_ok has them.
for r in 0 1 6 7; do
	(node_scanned "r$r" "$d/p.$r.out" "$d/p.$r.err" 0 0) >/dev/null 2>&1 ||
		bad "report $r: a clean report failed"
done
for r in 2 3 4 5 8; do
	(node_scanned "r$r" "$d/p.$r.out" "$d/p.$r.err" 0 0) >/dev/null 2>&1 &&
		bad "report $r: a faulty report passed"
done
[ "${sn_node[$d/p.1.out]}" = "[h[1]] " ] || bad "report 1: node '${sn_node[$d/p.1.out]}'"
[ "${sn_node[$d/p.6.out]}" = "" ] || bad "report 6: node '${sn_node[$d/p.6.out]}'"
[ "${sn_need[$d/p.0.out]} ${sn_need[$d/p.9.out]}" = "1 0" ] ||
	bad "naming h[7]: report 0 ${sn_need[$d/p.0.out]}, report 9 ${sn_need[$d/p.9.out]}"
[ "${sn_created[$d/p.0.out]} ${sn_created[$d/p.6.out]} ${sn_created[$d/p.9.out]}" = "4 4 0" ] ||
	bad "created lines: ${sn_created[$d/p.0.out]} ${sn_created[$d/p.6.out]} ${sn_created[$d/p.9.out]}, want 4 4 0"
# Without NEED, nothing is looked for.
scan_nodes '' "$d/p.0.out"
[ "${sn_need[$d/p.0.out]}" = 0 ] || bad "an empty NEED was found"

[ $fails = 0 ] || exit 1
echo "rxe_scan: scan_nodes and node_scanned say what node_ok says of 10 reports"
