#!/bin/bash
# The docs agree with the tool: docs.sh RDMASCN DOCDIR [MANPAGE...]
#
# What the registry knows (`rdmascn schema`: every top-level key, section
# and step type; `rdmascn plugins -j`: the plugins' kinds and steps) is
# checked against docs/scenario.md (its Contents, its key table, a heading
# per section and step type, the fields every kind and every step has)
# and docs/rdmascn-scenario.5.md (an entry per section and step type, each
# a paragraph of its own).  Then each built man page is rendered and its
# text searched for emphasis marks pandoc left as text: "@*NODE",
# "node.NODE*", "value.h*", "<op*>" (the required-field mark "id*", the
# globs "a[*]" and "*.yaml" and C's "*ret" are not those).  Each check
# also runs once on a copy broken on purpose, to show it can fail.
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

if [ $# -lt 2 ]; then
	echo "usage: $0 RDMASCN DOCDIR [MANPAGE...]" >&2
	exit 2
fi
RDMASCN=$1
DOCDIR=$2
shift 2

n=$((n + 1))
if ! "$RDMASCN" schema >"$tmp/schema.json" ||
   ! "$RDMASCN" plugins -j >"$tmp/plugins.json"; then
	fail "rdmascn schema or plugins -j failed"
	finish
	exit
fi

# lint SCENARIO_MD SCENARIO_5_MD: one line per disagreement, none when
# they agree with the registry.
lint() {
	python3 - "$tmp/schema.json" "$tmp/plugins.json" "$1" "$2" <<'EOF'
import json, re, sys

schema = json.load(open(sys.argv[1]))
plugins = json.load(open(sys.argv[2]))
md = open(sys.argv[3]).read()
man5 = open(sys.argv[4]).read()
top = schema["properties"]
steps = list(schema["$defs"]["step"]["properties"])

def items(k):
	it = top[k].get("items", {})
	return it.get("properties", {}) if isinstance(it, dict) else {}

# An object kind's section: a list whose entries can be counted and
# placed on a node (`nodes:` entries are counted too, but not placed).
sections = [k for k in top if "count" in items(k) and "node" in items(k)]
for p in plugins:
	for k in p["kinds"]:
		if k["section"] not in sections:
			print(f"plugin {p['name']}: section {k['section']} is not "
			      "in the schema")
	steps += [s if isinstance(s, str) else s["name"]
		  for s in p.get("steps", []) if s not in steps]
if not sections or not steps or not plugins:
	print("the registry lists no sections, steps or plugins")

def part(text, head):
	"""From the heading @head to the next heading of its level."""
	m = re.search(r"^(#+) " + re.escape(head) + r".*$", text, re.M)
	if not m:
		return None
	rest = text[m.end():]
	end = re.search(r"^#{1,%d} " % len(m.group(1)), rest, re.M)
	return rest[:end.start()] if end else rest

def word(w, text):
	return re.search(r"(?<![\w.])" + re.escape(w) + r"(?![\w])", text)

contents = part(md, "Contents") or ""
structure = part(md, "Structure") or ""
table = "\n".join(l for l in structure.splitlines() if l.startswith("|"))
heads = "\n".join(l for l in md.splitlines() if l.startswith("###"))
for k in top:
	if not re.search(r"`" + re.escape(k) + r"`", table):
		print(f"scenario.md: key {k} is not in the Structure table")
for k in sections:
	if not word(k, contents):
		print(f"scenario.md: section {k} is not in the Contents")
	if not word(k, heads):
		print(f"scenario.md: section {k} has no ### heading")
for s in steps:
	if not word(s, contents):
		print(f"scenario.md: step type {s} is not in the Contents")
	if not re.search(r"^### " + re.escape(s) + r"\s*$", md, re.M):
		print(f"scenario.md: step type {s} has no ### heading")

# The fields every kind (every step type) has: in the first table of
# their part, where the page says they are not repeated.
def common(keys, props):
	sets = [set(props(k)) for k in keys]
	return set.intersection(*sets) if sets else set()

def first_table(text):
	rows = re.findall(r"^\| `(\w+)` \|", text or "", re.M)
	return set(rows)

kind_common = common(sections, items)
step_common = common(steps, lambda s: schema["$defs"]["step"]["properties"]
		     [s].get("properties", {}))
obj = part(md, "Object sections")
got = first_table(obj.split("###")[0] if obj else "")
for f in sorted(kind_common - got):
	print(f"scenario.md: field {f} of every kind is not in the Object "
	      "sections table")
st = part(md, "Steps")
got = first_table(st.split("###")[0] if st else "")
for f in sorted(step_common - got):
	print(f"scenario.md: field {f} of every step is not in the Steps table")

# rdmascn-scenario(5): **name** starts a paragraph of its own, else
# pandoc runs it into the entry before.
for k in sections + steps:
	if not re.search(r"(^|\n)\n\*\*" + re.escape(k) + r"\*\*", man5):
		print(f"rdmascn-scenario.5.md: {k} does not start a paragraph "
		      "of its own (**" + k + "** after a blank line)")
EOF
}

lint "$DOCDIR/scenario.md" "$DOCDIR/rdmascn-scenario.5.md" >"$tmp/lint"
if [ -s "$tmp/lint" ]; then
	fail "the docs disagree with the registry:"
	cat "$tmp/lint"
else
	echo "ok scenario.md and rdmascn-scenario.5.md name every key," \
	     "section and step type"
fi

# The same on copies broken as the issue found them: each must be told.
n=$((n + 1))
sed -e '/^## Contents/,/^## A first/s/mlx5_flows, //' \
    -e 's/^| `nodes` |/| nodes |/' \
    -e '/^| `count` |/d' "$DOCDIR/scenario.md" >"$tmp/scenario.md"
python3 -c 'import sys; t = open(sys.argv[1]).read()
print(t.replace("\n\n**mlx5_qps**", "\n**mlx5_qps**"), end="")' \
    "$DOCDIR/rdmascn-scenario.5.md" >"$tmp/scenario.5.md"
lint "$tmp/scenario.md" "$tmp/scenario.5.md" >"$tmp/lint"
missing=
for want in "section mlx5_flows is not in the Contents" \
	    "key nodes is not in the Structure table" \
	    "field count of every kind" \
	    "mlx5_qps does not start a paragraph"; do
	grep -qF -- "$want" "$tmp/lint" || missing="$missing '$want'"
done
if [ -n "$missing" ]; then
	fail "a broken copy was not told:$missing; got: $(tr '\n' '|' <"$tmp/lint")"
else
	echo "ok a broken copy is told ($(wc -l <"$tmp/lint") lines)"
fi

# stray FILE: emphasis marks left as text in rendered FILE, one a line.
stray() {
	grep -nE '@\*|[^[:space:]/([{]\*[A-Za-z]|[A-Z]{2,}\*|<[a-z_]+\*>|\.[a-z]+\*' "$1"
}

if [ $# -eq 0 ]; then
	echo "no man pages given (no pandoc): not rendered"
fi
for page in "$@"; do
	n=$((n + 1))
	name=$(basename "$page")
	MANWIDTH=300 man -l "$page" 2>/dev/null | col -bx >"$tmp/$name.txt"
	if [ ! -s "$tmp/$name.txt" ]; then
		fail "$name: rendered nothing"
	elif stray "$tmp/$name.txt" >"$tmp/stray"; then
		fail "$name: emphasis left as text:"
		cut -c1-200 "$tmp/stray"
	else
		echo "ok $name: no stray emphasis marks"
	fi
done

# ... and on the broken forms the issue found, rendered the same way.
if [ $# -gt 0 ] && command -v pandoc >/dev/null; then
	n=$((n + 1))
	cat >"$tmp/bad.md" <<'EOF'
% BAD(1)
# NAME
bad - broken on purpose
# DESCRIPTION
Each node's classname ends in **@***NODE*, and a property.

With the **rs_val_put_***() builders of *rdmascn/value.h* (add one).

While it posts (through **ibv_wr_***), after each **ibv_wr_**<*op*>().
EOF
	pandoc -s -f markdown-smart-tex_math_dollars -t man -o "$tmp/bad.1" \
		"$tmp/bad.md"
	MANWIDTH=300 man -l "$tmp/bad.1" 2>/dev/null | col -bx >"$tmp/bad.txt"
	if [ "$(stray "$tmp/bad.txt" | wc -l)" -ne 3 ]; then
		fail "the broken page's 3 bad lines were not all told:" \
		     "$(tr '\n' '|' <"$tmp/bad.txt")"
	else
		echo "ok a broken page is told"
	fi
fi

finish
