#!/bin/bash
# Set-up at raw-verbs speed: N x (a CQ of 16, a 4 KiB MR, an RC QP), the
# QPs in N/2 pairs connected to RTS, then torn down, made by three tools
# in ONE boot of the Soft-RoCE VM, interleaved run by run:
#   c        bench/setup_c (built beside rdmascn): the verbs calls alone
#   pyverbs  bench/setup_pyverbs.py (apt-get install python3-pyverbs)
#   rdmascn  rdmascn run bench/setup.yaml --set n=N
# Each prints its phases the same way: create (device open to the last
# QP), connect (every modify to RTS), teardown (first destroy to device
# close), in ms from its own clock (rdmascn: its run record, create =
# durations_ms.setup less the connections' create_ms), and total is the
# process's wall time as this script sees it (start-up and parsing in).
# Then medians per tool, N and phase, and the ratios rdmascn/c and
# rdmascn/pyverbs of the medians.  A benchmark, not a test.
#
#   bench/setup.sh [RDMASCN]          (boots the VM)
#   N="100 1000 2000" RUNS=5 OUT=quiet bench/setup.sh ...
#
# OUT: where rdmascn's own output goes: quiet (-q, to a file), file (to a
# file), tty (the VM's console, which is the terminal here; with -v too:
# verbose).  TOOLS picks the tools (default "c pyverbs rdmascn"); RDMASCN2
# adds a second rdmascn binary as tool rdmascn2 (a before/after pair).
# JSON=no runs rdmascn without --json (no record file written): then
# only its total is measured, its phases are "-"; JSON2 does the same for
# tool rdmascn_o2 alone (OUT2=quiet JSON2=no: what --json costs, in one
# boot).  OUT2 adds tool
# rdmascn_o2: the same rdmascn with its output going OUT2's way, so two
# outputs are compared in one boot (OUT=file OUT2=quiet: file against -q).
# LOCAL=yes copies the programs (setup_c, and each rdmascn with its lib/
# and libexec/) into the guest's tmpfs first: the share they are on is
# mounted without a page cache, so every exec reads the pages it touches
# over 9p again (rdmascn 183 major faults a run, setup_c 4), where an
# installed program, like the system libraries both load, is cached.
# Tool cq is setup_c --query: C with the read-back a connection's record
# entry makes (one ibv_query_qp() a QP), so rdmascn/cq sets rdmascn
# against a program that asks the device what --json promises to show.
# ASLR=off turns the guest's address randomisation off for the boot:
# qemu 7.2's TCG ties a translated block to its virtual address, so with
# ASLR each process translates again all the code it runs.
# Tool cT (c2, c4, ...) is setup_c --threads T: T threads, each with its
# own context and N/T of the objects (docs/setup-speed.md, Threads):
#   TOOLS="c c2" N="1000 2000" bench/setup.sh ...
set -u
here=$(cd "$(dirname "$0")" && pwd)
ns=${N:-100 1000 2000}
runs=${RUNS:-5}
out=${OUT:-quiet}
json=${JSON:-yes}
tools=${TOOLS:-c pyverbs rdmascn}

if [ "${1:-}" != --in-vm ]; then
	rdmascn=${1:-$here/../build/bin/rdmascn}
	rdmascn=$(cd "$(dirname "$rdmascn")" && pwd)/$(basename "$rdmascn")
	[ -x "$rdmascn" ] || { echo "no rdmascn at $rdmascn" >&2; exit 3; }
	[ -x "$(dirname "$rdmascn")/setup_c" ] ||
		{ echo "no setup_c beside $rdmascn (cmake --build builds it)" >&2; exit 3; }
	case " $tools " in *" pyverbs "*)
		/usr/bin/python3 -c 'import pyverbs' 2>/dev/null ||
			{ echo "needs pyverbs: apt-get install python3-pyverbs" >&2; exit 3; }
	esac
	echo "host: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $(pgrep -c qemu-system) qemu VM(s) running before boot"
	exec "$rdmascn" softroce --timeout 3000 --env "N=$ns" --env "RUNS=$runs" \
		--env "OUT=$out" --env "OUT2=${OUT2:-}" --env "JSON=$json" --env "JSON2=${JSON2:-}" --env "LOCAL=${LOCAL:-no}" --env "ASLR=${ASLR:-on}" --env "TOOLS=$tools" --env "RDMASCN2=${RDMASCN2:-}" \
		-- bash "$here/setup.sh" --in-vm "$rdmascn"
fi

# --- in the VM ---------------------------------------------------------------
rdmascn=$2
setup_c=$(dirname "$rdmascn")/setup_c
rdmascn2=${RDMASCN2:-}
[ -n "$rdmascn2" ] && tools="$tools rdmascn2"
[ -n "${OUT2:-}" ] && tools="$tools rdmascn_o2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "${LOCAL:-no}" = yes ]; then
	# PREFIX/bin/rdmascn finds its plugins and helpers under PREFIX.
	local_copy() { # RDMASCN DEST: prints the copy's rdmascn
		local p; p=$(dirname "$(dirname "$1")")
		mkdir -p "$2" && cp -a "$p/bin" "$2/" &&
			for d in lib libexec; do
				[ -d "$p/$d" ] && cp -a "$p/$d" "$2/"
			done
		echo "$2/bin/$(basename "$1")"
	}
	rdmascn=$(local_copy "$rdmascn" "$tmp/a")
	setup_c=$(dirname "$rdmascn")/setup_c
	[ -n "$rdmascn2" ] && rdmascn2=$(local_copy "$rdmascn2" "$tmp/b")
fi
# OUT=tty|verbose: rdmascn prints where this script's output goes (the
# console), not into the $(one ...) that reads the figures.
exec {console}>&1
say() { echo "$*" >&2; }
now() { date +%s.%N; }

# One run of TOOL at N: "create connect teardown total" (ms) on stdout.
one() {
	local tool=$1 n=$2 bin=$rdmascn t0 t1 o q=() j=(--json "$tmp/rec.json") how=$out js=$json
	case $tool in
	c|cq|c[0-9]*)
		local a=()
		case $tool in
		cq) a=(--query) ;;
		c[0-9]*) a=(--threads "${tool#c}") ;;
		esac
		t0=$(now); o=$("$setup_c" "${a[@]}" "$n" 2>"$tmp/err") || { say "setup_c ${a[*]} $n failed: $(cat "$tmp/err")"; return 1; }; t1=$(now) ;;
	pyverbs) t0=$(now); o=$(/usr/bin/python3 "$here/setup_pyverbs.py" "$n" 2>"$tmp/err") || { say "pyverbs $n failed: $(cat "$tmp/err")"; return 1; }; t1=$(now) ;;
	rdmascn*)
		[ "$tool" = rdmascn2 ] && bin=$rdmascn2
		[ "$tool" = rdmascn_o2 ] && how=$OUT2 && js=${JSON2:-$json}
		case $how in
		quiet) q=(-q) ;;
		verbose) q=(-v) ;;
		esac
		rm -f "$tmp/rec.json"
		[ "$js" = no ] && j=()
		t0=$(now)
		if [ "$how" = tty ] || [ "$how" = verbose ]; then
			"$bin" run "${q[@]}" "${j[@]}" "$here/setup.yaml" --set n="$n" >&"$console" 2>"$tmp/err"
		else
			"$bin" run "${q[@]}" "${j[@]}" "$here/setup.yaml" --set n="$n" >"$tmp/out" 2>"$tmp/err"
		fi || { say "$tool $n failed: $(tail -3 "$tmp/err")"; return 1; }
		t1=$(now)
		if [ "$js" = no ]; then
			o="create_ms - connect_ms - teardown_ms -"
		else o=$(jq -r '([.objects[] | select(.kind == "connection") | .create_ms] | add) as $k |
			"create_ms \(.durations_ms.setup - $k) connect_ms \($k) teardown_ms \(.durations_ms.teardown)"' "$tmp/rec.json")
		fi ;;
	esac
	awk -v t0="$t0" -v t1="$t1" 'function f(v) { return v == "-" ? v : sprintf("%.1f", v) }
		{ print f($2), f($4), f($6), sprintf("%.1f", (t1 - t0) * 1000) }' <<<"$o"
}

if [ "${ASLR:-on}" = off ]; then
	echo 0 >/proc/sys/kernel/randomize_va_space || exit 3
fi
say "$(uname -r), $(nproc) vCPUs; ASLR: $(cat /proc/sys/kernel/randomize_va_space); N: $ns; $runs runs each; tools: $tools; rdmascn output: $out${OUT2:+ (rdmascn_o2: $OUT2${JSON2:+, --json: $JSON2})}; --json: $json; programs in the guest's tmpfs: ${LOCAL:-no}"
# One untimed run of each first: the first run after boot pays for
# loading the programs and libraries from the host's file system.
# (cT: 2T objects, each thread a pair.)
for t in $tools; do
	case $t in c[0-9]*) one "$t" $((2 * ${t#c})) ;; *) one "$t" 10 ;; esac >/dev/null
done
for n in $ns; do
	for ((r = 1; r <= runs; r++)); do
		# Turn the order round each run: no tool always goes first.
		set -- $tools
		order=("$@")
		k=$(( (r - 1) % $# ))
		for ((i = 0; i < $#; i++)); do
			t=${order[$(( (i + k) % $# ))]}
			v=$(one "$t" "$n") && echo "$v $r" >>"$tmp/$t.$n"
		done
	done
	say "N=$n done"
done

median() { # FILE COLUMN
	[ -s "$1" ] || { echo -; return; }
	awk -v c="$2" '$c != "-" { print $c }' "$1" | sort -g |
		awk '{ v[NR] = $1 } END { if (!NR) print "-"; else if (NR % 2) print v[(NR + 1) / 2];
			else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f\n", a / b }'; }
# paired FILE REF: the total's ratio run by run (a tool's run against the
# reference's run of the same round, one after the other: what the host
# did to both in that minute cancels), as "median [lowest quartile -
# highest quartile]" of those ratios: how far one reading can be trusted.
paired() {
	[ -s "$1" ] && [ -s "$2" ] || { echo -; return; }
	awk 'NR == FNR { ref[$5] = $4; next } ($5 in ref) && ref[$5] > 0 { print $4 / ref[$5] }' "$2" "$1" |
		sort -g | awk '{ v[NR] = $1 } END { if (!NR) { print "-"; exit }
			m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			printf "%.2f [%.2f-%.2f]\n", m, v[int((NR + 3) / 4)], v[NR + 1 - int((NR + 3) / 4)] }'
}

echo
echo "set-up on rxe0 (Soft-RoCE under TCG): N x (CQ 16 + MR 4 KiB + RC QP), N/2 pairs to RTS, teardown"
echo "medians of $runs interleaved runs, ms; rdmascn output: $out${OUT2:+ (rdmascn_o2: $OUT2${JSON2:+, --json: $JSON2})}; --json: $json; programs in the guest's tmpfs: ${LOCAL:-no}"
printf '%-6s %-9s %10s %10s %10s %10s %5s\n' N tool create connect teardown total runs
for n in $ns; do
	for t in $tools; do
		f=$tmp/$t.$n
		printf '%-6s %-9s %10s %10s %10s %10s %5s\n' "$n" "$t" "$(median "$f" 1)" \
			"$(median "$f" 2)" "$(median "$f" 3)" "$(median "$f" 4)" \
			"$( [ -s "$f" ] && wc -l <"$f" || echo 0)"
	done
done
echo
echo "ratios of the medians (total; create connect teardown in brackets; paired: the median of the run-by-run ratios of the total [its quartiles]); target rdmascn/c <= 1.3 at N >= 1000 (issue 33), rdmascn/pyverbs < 1"
for n in $ns; do
	for t in rdmascn rdmascn2 rdmascn_o2; do
		case " $tools " in *" $t "*) ;; *) continue ;; esac
		for ref in c cq pyverbs rdmascn; do
			[ $ref = $t ] && continue
			[ $ref = rdmascn ] && [ $t = rdmascn ] && continue
			case " $tools " in *" $ref "*) ;; *) continue ;; esac
			f=$tmp/$t.$n g=$tmp/$ref.$n
			printf 'N=%-5s %s/%-8s %6s  (%s %s %s)  paired %s\n' "$n" "$t" "$ref" \
				"$(ratio "$(median "$f" 4)" "$(median "$g" 4)")" \
				"$(ratio "$(median "$f" 1)" "$(median "$g" 1)")" \
				"$(ratio "$(median "$f" 2)" "$(median "$g" 2)")" \
				"$(ratio "$(median "$f" 3)" "$(median "$g" 3)")" \
				"$(paired "$f" "$g")"
		done
	done
done
for n in $ns; do
	for t in $tools; do
		case $t in cq|c[0-9]*) ;; *) continue ;; esac
		case " $tools " in *" c "*) ;; *) continue ;; esac
		f=$tmp/$t.$n g=$tmp/c.$n
		printf 'N=%-5s %s/%-8s %6s  (%s %s %s)\n' "$n" "$t" c \
			"$(ratio "$(median "$f" 4)" "$(median "$g" 4)")" \
			"$(ratio "$(median "$f" 1)" "$(median "$g" 1)")" \
			"$(ratio "$(median "$f" 2)" "$(median "$g" 2)")" \
			"$(ratio "$(median "$f" 3)" "$(median "$g" 3)")"
	done
done
