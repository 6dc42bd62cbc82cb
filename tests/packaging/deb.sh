#!/bin/bash
# The .deb as Debian policy and its own man pages want it: built with
# cpack into a scratch directory (never installed), then read with
# dpkg-deb.  Its man pages are gzipped and nothing else of them is there;
# its Depends has no version that constrains nothing ("(>= 0.0.0)") and
# names the two libraries dlopen()ed (libxml2, nettle); every file a man page's SEE ALSO names is in
# the package.  Skipped (77) without dpkg-deb, dpkg-shlibdeps or pandoc.
#   deb.sh BUILD-DIR
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
build=$1

for t in cpack dpkg-deb dpkg-shlibdeps gzip man; do
	command -v "$t" >/dev/null ||
		{ echo "SKIP: no $t"; exit 77; }
done
[ -d "$build/share/man" ] || { echo "SKIP: no man pages (no pandoc)"; exit 77; }

if ! cpack -G DEB --config "$build/CPackConfig.cmake" -B "$tmp/deb" \
	>"$tmp/cpack.log" 2>&1; then
	cat "$tmp/cpack.log"
	fail "cpack -G DEB"
	finish
	exit
fi
deb=$(echo "$tmp"/deb/rdmascn_*.deb)
dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./||' >"$tmp/list"
dpkg-deb -x "$deb" "$tmp/root"

# Man pages: manN/NAME.N.gz only, each the build tree's page.
n=$((n + 1))
grep '^usr/share/man/man[1-9]/.' "$tmp/list" >"$tmp/man"
if [ ! -s "$tmp/man" ]; then
	fail "no man page in the .deb"
elif grep -v '\.gz$' "$tmp/man" >"$tmp/plain"; then
	fail "man pages not gzipped: $(tr '\n' ' ' <"$tmp/plain")"
else
	echo "ok man pages gzipped: $(tr '\n' ' ' <"$tmp/man")"
fi
for page in "$build"/share/man/man*/*; do
	n=$((n + 1))
	rel=usr/share/man/$(basename "$(dirname "$page")")/$(basename "$page")
	if ! gzip -t "$tmp/root/$rel.gz" 2>/dev/null; then
		fail "$rel.gz: not in the .deb, or not gzip"
	elif ! zcat "$tmp/root/$rel.gz" | cmp -s - "$page"; then
		fail "$rel.gz is not the build tree's $page"
	else
		echo "ok $rel.gz"
	fi
done

# Depends: from dpkg-shlibdeps, with real versions or none.
n=$((n + 1))
depends=$(dpkg-deb -f "$deb" Depends)
if [ -z "$depends" ]; then
	fail "no Depends"
elif grep -Eo '[a-z0-9.+-]+ \(>= [0.:~-]+\)' <<<"$depends" >"$tmp/zero"; then
	fail "Depends with a version that constrains nothing:" \
	     "$(tr '\n' ' ' <"$tmp/zero")"
elif ! grep -Eq '(^|, )libnettle8 \| libnettle8t64(,|$)' <<<"$depends"; then
	# dlopen()ed when nodes meet: dpkg-shlibdeps cannot see it.
	fail "Depends has no libnettle8: $depends"
elif ! grep -Eq '(^|, )libxml2(-16)?(,|$)' <<<"$depends"; then
	# dlopen()ed for --junit: dpkg-shlibdeps cannot see it.
	fail "Depends has no libxml2: $depends"
else
	echo "ok Depends: $depends"
fi
# CPack's scratch debian/ is not the package's.
n=$((n + 1))
if grep -E '^(debian|DEBIAN)(/|$)' "$tmp/list"; then
	fail "the .deb holds the scratch debian/ (above)"
else
	echo "ok no debian/ in the .deb"
fi

# seealso FILE: the paths a rendered page's SEE ALSO names, one a line.
seealso() {
	MANWIDTH=300 man -l "$1" 2>/dev/null | col -bx |
		sed -n '/^SEE ALSO$/,/^[A-Z]/p' | grep -Eo '[^ ,()]*/[^ ,()]*'
}
# missing PATHS: those of PATHS (PREFIX/...) not in the package.
missing() {
	local p
	while read -r p; do
		case $p in
		PREFIX/*) grep -qxF -- "usr/${p#PREFIX/}" "$tmp/list" ||
			grep -qxF -- "usr/${p#PREFIX/}/" "$tmp/list" ||
			echo "$p" ;;
		*) echo "$p (not under PREFIX)" ;;
		esac
	done
}

while read -r gz; do
	n=$((n + 1))
	name=$(basename "$gz" .gz)
	seealso "$tmp/root/$gz" >"$tmp/paths"
	missing <"$tmp/paths" >"$tmp/missing"
	if [ ! -s "$tmp/paths" ]; then
		fail "$name: SEE ALSO names no file"
	elif [ -s "$tmp/missing" ]; then
		fail "$name: SEE ALSO names what the .deb lacks:" \
		     "$(tr '\n' ' ' <"$tmp/missing")"
	else
		echo "ok $name: SEE ALSO's $(wc -l <"$tmp/paths") paths are" \
		     "in the .deb"
	fi
done <"$tmp/man"

# ... and a page naming the source tree, as they did, is told.
n=$((n + 1))
printf '%s\n' '.TH BAD 1' '.SH SEE ALSO' \
	'docs/scenario.md, PREFIX/share/doc/rdmascn/nowhere.md' >"$tmp/bad.1"
seealso "$tmp/bad.1" | missing >"$tmp/missing"
if [ "$(wc -l <"$tmp/missing")" -ne 2 ]; then
	fail "a broken SEE ALSO was not told: $(tr '\n' ' ' <"$tmp/missing")"
else
	echo "ok a broken SEE ALSO is told"
fi

finish
