#!/bin/bash
# Each built man page renders: man(1) prints it at 80 columns with groff's
# warnings on and says nothing on stderr, and its NAME section is one that
# mandb can index (lexgrog reads "name - description").
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

for page in "$@"; do
	n=$((n + 1))
	name=$(basename "$page")
	MANWIDTH=80 man --warnings -l "$page" >"$tmp/out" 2>"$tmp/err"
	if [ -s "$tmp/err" ]; then
		fail "$name: man says:"
		cat "$tmp/err"
	elif [ ! -s "$tmp/out" ]; then
		fail "$name: rendered nothing"
	elif ! grep -q '^SYNOPSIS$' "$tmp/out"; then
		fail "$name: no SYNOPSIS section"
	elif grep -n '\*\*' "$tmp/out"; then
		fail "$name: Markdown left unrendered (above)"
	elif ! lexgrog "$page" >"$tmp/whatis" 2>&1; then
		fail "$name: no NAME section mandb can read: $(cat "$tmp/whatis")"
	else
		echo "ok $name: $(wc -l <"$tmp/out") lines; $(cat "$tmp/whatis")"
	fi
done

finish
