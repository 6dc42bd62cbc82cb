#!/bin/bash
# Print a valid scenario with N objects (N >= 10): one context, then PDs,
# CQs, MRs and RC QPs in the proportions of a real many-QP set-up (each QP
# with its own CQ and MR), connected pairwise, with one step per pair.
set -eu
n=${1:?usage: gen_scenario.sh N}
# A pair of groups is 2 x (cq, mr, qp) + a connection + a step = 8 nodes;
# PDs (one per 64 groups) take up the rest, so the total is exactly N.
pairs=$(( (n - 1 - n / 256 - 1) / 8 ))
[ "$pairs" -ge 1 ] || pairs=1
groups=$(( pairs * 2 ))
pds=$(( n - 1 - pairs * 8 ))
[ "$pds" -ge 1 ] || { echo "N too small" >&2; exit 2; }
echo "scenario: generated-$n"
echo "contexts: [{id: ctx, device: any}]"
echo "pds:"
for ((i = 0; i < pds; i++)); do echo "  - {id: pd$i, context: ctx}"; done
echo "cqs:"
for ((i = 0; i < groups; i++)); do echo "  - {id: cq$i, context: ctx, cqe: 256}"; done
echo "mrs:"
for ((i = 0; i < groups; i++)); do
	echo "  - {id: mr$i, pd: pd$((i % pds)), length: 4096, access: [local_write, remote_write]}"
done
echo "qps:"
for ((i = 0; i < groups; i++)); do
	echo "  - {id: qp$i, pd: pd$((i % pds)), type: rc, send_cq: cq$i, recv_cq: cq$i, cap: {max_send_wr: 16}}"
done
echo "connections:"
for ((i = 0; i + 1 < groups; i += 2)); do echo "  - {id: c$i, a: qp$i, b: qp$((i + 1))}"; done
echo "steps:"
for ((i = 0; i + 1 < groups; i += 2)); do
	echo "  - write: {qp: qp$i, local: mr$i, remote: mr$((i + 1)), length: 4096}"
done
