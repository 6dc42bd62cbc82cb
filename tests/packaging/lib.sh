# Shared by the packaging tests: counted checks, a scratch directory.
# shellcheck shell=bash
set -u
fails=0 n=0
# fail TEXT: a check failed; the test goes on to the next.
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# finish: the closing line CI reads; nonzero when a check failed or none ran.
finish() {
	echo "$((n - fails)) passed, $fails failed"
	[ $n -gt 0 ] && [ $fails -eq 0 ]
}
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
