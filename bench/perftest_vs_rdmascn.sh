#!/bin/bash
# rdmascn beside perftest on the same workloads, in one boot of the
# Soft-RoCE VM (rxe0, both ends on it, loopback): ib_send_lat and
# ib_write_lat 2 B (typical and p99), ib_send_bw 4 KiB, ib_write_bw 64 KiB
# and 64 B (MB/s and Mpps), rdmascn in both completion modes (busy and
# events; perftest polls, or sleeps on events with -e where it has it).
# Each figure is the median of REPS runs (TCG is noisy), of REPS x
# LAT_ROUNDS runs (default 5) for latency; each ratio is the median of
# as many per-run ratios, a run beside the other tool's run of the same
# round.  Targets: latency rdmascn/perftest <= 1.05; bandwidth
# and message rate rdmascn/perftest >= 0.95.
#
#   bench/perftest_vs_rdmascn.sh [RDMASCN] [REPS [LAT_ROUNDS]]
#
# The work runs in bench/perftest_vs_rdmascn_vm.sh inside the VM; this
# script boots it and says how loaded the host was (the VM's 2 vCPUs are
# emulated threads of a host that may be running other work).  On a host
# of 2 CPUs it also runs placement_probe (built beside rdmascn) for the
# whole boot, so that each run can be told apart by where the host's
# hypervisor had put those 2 CPUs: see the probe's header.
set -u
here=$(cd "$(dirname "$0")" && pwd)
rdmascn=${1:-$here/../build/bin/rdmascn}
reps=${2:-3}
lat_rounds=${3:-5}
rdmascn=$(cd "$(dirname "$rdmascn")" && pwd)/$(basename "$rdmascn")
[ -x "$rdmascn" ] || { echo "no rdmascn at $rdmascn" >&2; exit 3; }
command -v ib_send_lat >/dev/null || { echo "needs perftest: apt-get install perftest" >&2; exit 3; }

load() { cut -d' ' -f1-3 /proc/loadavg; }
# Is PID a descendant of this script (our own VM)?
ours() {
	local p=$1
	while [ "$p" -gt 1 ]; do
		[ "$p" = $$ ] && return 0
		p=$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null) || return 1
	done
	return 1
}
# Other VMs (other people's work) running now.
others() {
	local n=0 p
	for p in $(pgrep qemu-system); do ours "$p" || n=$((n + 1)); done
	echo $n
}
samples=$(mktemp)
pdir=$(mktemp -d)
trap 'rm -rf "$samples" "$pdir"' EXIT
echo "host: $(nproc) CPUs, load average $(load) before; $(others) other qemu VM(s) running"
(while sleep 5; do others; done >"$samples") &
sampler=$!
probe=$(dirname "$rdmascn")/placement_probe
prober= share=() parg=()
if [ "$(nproc)" != 2 ]; then
	echo "host: no placement probe (it reads the VM's 2 CPUs only on a host of 2)"
elif [ ! -x "$probe" ]; then
	echo "host: no placement probe at $probe (cmake --build builds it)"
else
	"$probe" "$pdir" 25 0 1 &
	prober=$!
	share=(--share "$pdir")
	parg=("$pdir")
fi
t0=$SECONDS
rc=0
# About 70 s per run and 20 s per latency round, with room to spare.
"$rdmascn" softroce --timeout $((600 + reps * (120 + 30 * lat_rounds))) \
	"${share[@]}" -- \
	bash "$here/perftest_vs_rdmascn_vm.sh" \
	"$rdmascn" "$here/../scenarios" "$reps" "$lat_rounds" "${parg[@]}" ||
	rc=$?
kill $sampler $prober 2>/dev/null
wait $sampler $prober 2>/dev/null
echo "host: load average $(load) after; $((SECONDS - t0)) s in all;" \
	"other VMs running in $(awk '$1 > 0 { n++ } END { print n + 0 }' "$samples")" \
	"of $(wc -l <"$samples") 5-second samples (figures taken while" \
	"another VM ran are not to be trusted: the host has $(nproc) CPUs)"
exit $rc
