#!/bin/bash
# SPDX-License-Identifier: MIT
# Records nodes.yaml's fixtures for tests/cli/stragglers.sh on rxe0 in
# the Soft-RoCE VM, nodes a and b as two processes meeting on 127.0.0.1,
# from this directory:
#
#   cd tests/cli/strag && rdmascn softroce -- ./record_nodes.sh "$(command -v rdmascn)"
#
# nodes.*: every each: gate held (exit 0 on both); nodes_miss.*: --set
# back_max=0.001, missed by every element of back, which runs on b (exit
# 1 on both).  Kept: the leader's (a's) stdout, stderr, --json, --junit.
set -u
r=${1:-rdmascn}
RDMASCN_KEY=$(head -c 32 /dev/urandom | base64)
export RDMASCN_KEY RDMASCN_NODES_DEADLINE_MS=60000
for name in nodes nodes_miss; do
	set=()
	[ "$name" = nodes_miss ] && set=(--set back_max=0.001)
	"$r" run --node b "${set[@]}" nodes.yaml >/dev/null 2>&1 &
	pid=$!
	"$r" run --node a "${set[@]}" nodes.yaml --json "$name.json" \
		--junit "$name.junit.xml" >"$name.txt" 2>"$name.err"
	echo "$name: exit a $?"
	wait $pid
	echo "$name: exit b $?"
done
