#!/bin/bash
# Where a whole process's time goes outside the verbs window: each tool
# run under strace (only execve, openat, close, fsync, rename and
# exit_group stop it, by seccomp), its timestamps cut into segments, ms:
#   load   exec to the scenario file's open (dynamic loading, registry,
#          plugins; C: exec to its first open of the device)
#   check  the file's open to the device's first open (parse, check,
#          plan)
#   verbs  the device's first open to its last close (the three phases)
#   free   the last close to the --json file's open (the run freed)
#   write  the --json file's open to its rename (writer, fsync)
#   end    the rename (or the last close) to exit_group, and exit_group
#          to the process gone (frees at exit; the kernel's own exit)
# Medians of RUNS interleaved runs.  In the guest, e.g.
#   rdmascn softroce --in DIR -- bench/setup_segments.sh BIN1 BIN2 ...
# with N, RUNS, JSON (yes/no); setup_c is taken from beside BIN1.
# The programs are copied into the guest's tmpfs first (LOCAL=yes's
# reason: the 9p share has no page cache).  A measurement, not a test.
set -u
here=$(cd "$(dirname "$0")" && pwd)
n=${N:-1000}
runs=${RUNS:-5}
json=${JSON:-yes}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools=(c)
k=0
for b in "$@"; do
	p=$(dirname "$(dirname "$b")")
	mkdir -p "$tmp/b$k"
	cp -a "$p/bin" "$tmp/b$k/"
	for d in lib libexec; do
		[ -d "$p/$d" ] && cp -a "$p/$d" "$tmp/b$k/"
	done
	tools+=("$tmp/b$k/bin/rdmascn")
	k=$((k + 1))
done
setup_c=$tmp/b0/bin/setup_c

# One traced run: the segments on stdout.
one() {
	local t=$1 j=() log=$tmp/log
	[ "$json" = yes ] && j=(--json "$tmp/rec.json")
	rm -f "$tmp/rec.json"
	if [ "$t" = c ]; then
		strace -f -ttt --seccomp-bpf -o "$log" -e \
			trace=execve,openat,close,fsync,rename,exit_group \
			"$setup_c" "$n" >/dev/null 2>&1
	else
		strace -f -ttt --seccomp-bpf -o "$log" -e \
			trace=execve,openat,close,fsync,rename,exit_group \
			"$t" run -q "${j[@]}" "$here/setup.yaml" --set n="$n" \
			>/dev/null 2>&1
	fi
	awk '
	function ts(s) { return s + 0 }
	$3 ~ /^execve\(/ && !t0 { t0 = ts($2) }
	/setup.yaml/ && /openat/ && !tf { tf = ts($2) }
	/openat\(.*\/dev\/infiniband\/uverbs/ {
		split($0, a, "= "); fd[a[2] + 0] = 1; if (!td) td = ts($2) }
	$3 ~ /^close\(/ { c = $3; sub(/^close\(/, "", c); sub(/\).*/, "", c)
		if (c + 0 in fd) { tc = ts($2); delete fd[c + 0] } }
	/openat\(.*rec\.json/ && !tw { tw = ts($2) }
	$3 ~ /^rename\(/ { tr = ts($2) }
	$3 ~ /^exit_group\(/ { te = ts($2) }
	/\+\+\+ exited/ { tx = ts($2) }
	END {
		if (!tf) tf = td
		if (!tw) tw = tc
		if (!tr) tr = tw
		printf "%.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f\n",
			(tf - t0) * 1000, (td - tf) * 1000, (tc - td) * 1000,
			(tw - tc) * 1000, (tr - tw) * 1000, (te - tr) * 1000,
			(tx - te) * 1000, (tx - t0) * 1000
	}' "$log"
}

for t in "${tools[@]}"; do one "$t" >/dev/null; done  # warm
for ((r = 0; r < runs; r++)); do
	for ((i = 0; i < ${#tools[@]}; i++)); do
		t=${tools[$(( (i + r) % ${#tools[@]} ))]}
		one "$t" >>"$tmp/seg.$(( (i + r) % ${#tools[@]} ))"
	done
done
median() {
	sort -g | awk '{ v[NR] = $1 }
		END { if (NR % 2) print v[(NR + 1) / 2]
		      else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
echo "N=$n --json=$json, medians of $runs traced runs, ms (load $(cut -d' ' -f1-3 /proc/loadavg) in the guest)"
printf '%-6s %8s %8s %8s %8s %8s %8s %8s %8s\n' tool load check verbs \
	free write end exit total
for ((i = 0; i < ${#tools[@]}; i++)); do
	row=$([ $i = 0 ] && echo c || echo "bin$i")
	for col in 1 2 3 4 5 6 7 8; do
		row="$row $(awk -v c=$col '{ print $c }' "$tmp/seg.$i" | median)"
	done
	printf '%-6s %8s %8s %8s %8s %8s %8s %8s %8s\n' $row
done
