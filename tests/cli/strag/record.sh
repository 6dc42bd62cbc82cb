#!/bin/bash
# SPDX-License-Identifier: MIT
# Records the fixtures tests/cli/stragglers.sh reads, on rxe0 in the
# Soft-RoCE VM, from this directory (so that the records name strag.yaml):
#
#   cd tests/cli/strag && rdmascn softroce -- ./record.sh "$(command -v rdmascn)"
#
# strag.*: each: latency.typical <= 1e6 usec, held by every element (exit 0);
# miss.*: --set each_max=0.001, missed by every element (exit 1).  Each
# run's stdout (.txt), stderr (.err), --json and --junit are kept as the
# run wrote them.
set -u
r=${1:-rdmascn}
"$r" run strag.yaml --json strag.json --junit strag.junit.xml \
	>strag.txt 2>strag.err
echo "strag: exit $?"
"$r" run strag.yaml --set each_max=0.001 --json miss.json \
	--junit miss.junit.xml >miss.txt 2>miss.err
echo "miss: exit $?"
