#!/bin/bash
# Below the includes, by symbol: no layer's code calls or reads a symbol
# that a higher layer defines (nor kinds one of steps', or the reverse).
# includes.sh cannot see these: a declaration in a lower layer's header
# of a function defined above it builds, and links only because the
# engine is linked whole.  Each argument is LAYER=OBJ:OBJ:...
#   symbols.sh base=... scenario=... exec=... kinds=... steps=... ...
set -u
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fail=0 n=0

. "$(dirname "$0")/rank.sh"

# Edges allowed for now, each "from>to:symbol"; each must still be there.
todo=""

layers=()
for arg in "$@"; do
	layer=${arg%%=*}
	IFS=: read -ra objs <<<"${arg#*=}"
	[ ${#objs[@]} -gt 0 ] || { echo "FAIL: no objects for $layer"; exit 1; }
	nm --defined-only "${objs[@]}" | awk '$2 ~ /^[TDRBVW]$/ { print $3 }' |
		sort -u >"$tmp/def.$layer"
	nm --undefined-only "${objs[@]}" | awk 'NF == 2 { print $2 }' |
		sort -u >"$tmp/und.$layer"
	layers+=("$layer")
done

seen=""
for from in "${layers[@]}"; do
	for to in "${layers[@]}"; do
		[ "$from" = "$to" ] && continue
		[ "$(rank "$to")" -lt "$(rank "$from")" ] && continue
		n=$((n + 1))
		while read -r sym; do
			edge="$from>$to:$sym"
			case " $todo " in
			*" $edge "*) seen="$seen $edge"; continue ;;
			esac
			echo "FAIL: $from uses $sym, which $to defines"
			fail=1
		done < <(comm -12 "$tmp/und.$from" "$tmp/def.$to")
	done
done
for edge in $todo; do
	case " $seen " in *" $edge "*) continue ;; esac
	echo "FAIL: $edge is allowed but gone: take it off the list"
	fail=1
done
echo "$n pairs of layers checked"
exit $fail
