# Sourced by every device test: each check says so as it ends, numbered
# in the order they pass, in TAP's form ("ok 3 - what", "not ok 4 -
# what").  `softroce --in` copies the script's output as it is written,
# so `ctest -V` shows a device test's checks as they pass, and
# --output-on-failure how far a failed one got.  Each is one echo, a
# write(2) of its own: nothing waits in a buffer.
# shellcheck shell=bash
nok=0
ok() { nok=$((nok + 1)); echo "ok $nok - $*"; }
fail() { echo "not ok $((nok + 1)) - $*"; exit 1; }
