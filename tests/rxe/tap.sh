# Sourced by every device test: each check says so as it ends, numbered
# in the order they pass, in TAP's form ("ok 3 - what", "not ok 4 -
# what").  `softroce --in` copies the script's output as it is written,
# so `ctest -V` shows a device test's checks as they pass, and
# --output-on-failure how far a failed one got.  Each is one echo, a
# write(2) of its own: nothing waits in a buffer.  Each line ends with
# the seconds since the one before (TAP's comment, "# 12 s"), so a log
# says which checks take a device test's time.
# shellcheck shell=bash
nok=0
tap_last=$SECONDS
ok() {
	nok=$((nok + 1))
	echo "ok $nok - $* # $((SECONDS - tap_last)) s"
	tap_last=$SECONDS
}
fail() { echo "not ok $((nok + 1)) - $*"; exit 1; }
