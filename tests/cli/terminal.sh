#!/bin/bash
# What a terminal gets, and what a pipe does not (dry runs, no device):
# on a terminal (script(1) gives one) a scenario of many objects shows
# "creating n of N objects" redrawn in place and cleared before each
# line, the outcomes in colour; without those extras the lines are the
# pipe's, byte for byte.  A pipe gets no \r and no escape at all unless
# --color=always; --color=never, NO_COLOR and TERM=dumb turn colour off;
# -q prints the verdict line only.  Under a launcher (its rank variable
# set) a terminal is treated as the file it likely is: no colour unless
# --color=always, no progress line, and a node of `nodes:` says its name
# at the start of every line, errors and advice included.
#   terminal.sh RDMASCN GEN_SCENARIO SCENARIO_DIR
set -u
rdmascn=$1 gen=$2 dir=$3
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fails=0 n=0
bad() { fails=$((fails + 1)); echo "FAIL: $*"; }
ok() { echo "ok $*"; }
command -v script >/dev/null || { echo "SKIP: no script(1) (util-linux)"; exit 77; }

# tty OUT ARGS...: rdmascn ARGS on a terminal, its output into OUT.
tty() {
	local out=$1 cmd
	shift
	cmd=$(printf '%q ' "$rdmascn" "$@")
	script -qec "$cmd" /dev/null </dev/null >"$out"
}
# plain FILE: what is left without the terminal's extras: progress
# draws and clears (\r...\033[K), colours, the tty's \r before \n.
plain() {
	sed -e 's/\r[^\r\x1b]*\x1b\[K//g' -e 's/\x1b\[[0-9;]*m//g' \
		-e 's/\r$//' "$1"
}
has() { grep -q "$(printf '%b' "$2")" "$1"; }

"$gen" 200 >"$tmp/big.yaml"
objects=$("$rdmascn" run -n "$tmp/big.yaml" | sed -n 's/^dry run done: \([0-9]*\) objects.*/\1/p')
[ -n "$objects" ] || bad "no verdict line for the generated scenario"

export TERM=xterm
unset NO_COLOR
# No launcher of the caller's may leak in.
unset OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_SIZE SLURM_PROCID SLURM_NTASKS \
	PMI_RANK PMI_SIZE PMIX_RANK

# A pipe: the plain lines, no \r, no escape.
n=$((n + 1))
"$rdmascn" run -n "$tmp/big.yaml" >"$tmp/pipe" 2>&1
if has "$tmp/pipe" '\r' || has "$tmp/pipe" '\033'; then
	bad "a pipe got \\r or an escape"
else
	ok "pipe: no \\r, no escape"
fi

# A terminal: the progress line, drawn and cleared; colour; the same
# lines underneath.
n=$((n + 1))
tty "$tmp/tty" run -n "$tmp/big.yaml"
if ! has "$tmp/tty" "\rcreating 1 of $objects objects\033\\[K"; then
	bad "terminal: no 'creating 1 of $objects objects' drawn with \\r"
elif ! has "$tmp/tty" '\r\033\[K  \['; then
	bad "terminal: the progress line is not cleared before a line"
elif ! has "$tmp/tty" '\033\[32mdry run done\033\[0m: '; then
	bad "terminal: the verdict is not green"
elif ! plain "$tmp/tty" | cmp -s - "$tmp/pipe"; then
	plain "$tmp/tty" | diff -u "$tmp/pipe" - | head -20
	bad "terminal: without the extras, not the pipe's lines"
else
	ok "terminal: $(grep -o 'creating [0-9]* of' "$tmp/tty" | sort -u | wc -l) counts drawn, cleared before lines, green verdict, pipe's lines beneath"
fi

# Few objects: no progress line.
n=$((n + 1))
tty "$tmp/small" run -n "$dir/rc_write.yaml"
if grep -q creating "$tmp/small"; then
	bad "a scenario of a few objects drew a progress line"
else
	ok "few objects: no progress line"
fi

# An outcome that is not a pass: yellow (no such device here).
n=$((n + 1))
tty "$tmp/cantrun" run -d nosuchdev0 "$dir/rc_write.yaml"
if ! has "$tmp/cantrun" '^\033\[33mcould not run\033\[0m: '; then
	bad "terminal: 'could not run' is not yellow"
else
	ok "terminal: 'could not run' in yellow"
fi

# colours ARGS...: "yes" when a terminal run with ARGS shows colour.
colours() {
	tty "$tmp/c" "$@"
	if has "$tmp/c" '\033\[3[0-9]m'; then echo yes; else echo no; fi
}
expect_colour() { # WANT WHAT ARGS...
	local want=$1 what=$2 got
	shift 2
	n=$((n + 1))
	got=$(colours "$@")
	if [ "$got" != "$want" ]; then
		bad "$what: colour $got, want $want"
	else
		ok "$what: colour $got"
	fi
}
expect_colour yes "terminal, --color=auto" run -n --color=auto "$dir/rc_write.yaml"
expect_colour no "terminal, --color=never" run -n --color=never "$dir/rc_write.yaml"
export NO_COLOR=1
expect_colour no "terminal, NO_COLOR=1" run -n "$dir/rc_write.yaml"
expect_colour yes "terminal, NO_COLOR=1, --color=always" run -n --color always "$dir/rc_write.yaml"
unset NO_COLOR
export TERM=dumb
expect_colour no "terminal, TERM=dumb" run -n "$dir/rc_write.yaml"
n=$((n + 1))
tty "$tmp/dumb" run -n "$tmp/big.yaml"
if has "$tmp/dumb" '\033'; then
	bad "TERM=dumb: an escape (progress line or colour)"
else
	ok "TERM=dumb: no progress line"
fi
export TERM=xterm

# --color=always on a pipe: colour, but no progress line.
n=$((n + 1))
"$rdmascn" run -n --color=always "$tmp/big.yaml" >"$tmp/always"
if ! has "$tmp/always" '\033\[32mdry run done'; then
	bad "pipe, --color=always: no colour"
elif has "$tmp/always" '\r' || has "$tmp/always" '\033\[K'; then
	bad "pipe, --color=always: a progress line"
else
	ok "pipe, --color=always: colour, no progress line"
fi

# -q: the verdict line only, on a pipe and on a terminal.
n=$((n + 1))
"$rdmascn" run -n -q "$tmp/big.yaml" >"$tmp/q" 2>"$tmp/qerr"
tty "$tmp/qtty" run -n --quiet "$tmp/big.yaml"
want=$(tail -n 1 "$tmp/pipe")
if [ "$(cat "$tmp/q")" != "$want" ] || [ -s "$tmp/qerr" ]; then
	bad "-q: '$(head -c 300 "$tmp/q")', want '$want'"
elif [ "$(plain "$tmp/qtty")" != "$want" ] || has "$tmp/qtty" '\033\[K'; then
	bad "-q on a terminal: '$(plain "$tmp/qtty" | head -c 300)'"
else
	ok "-q: the verdict line only"
fi
# -q over a matrix: the summary only.
n=$((n + 1))
"$rdmascn" run -n -q --matrix size=64,128 "$dir/rc_write.yaml" >"$tmp/qm"
if [ "$(head -n 1 "$tmp/qm")" != "matrix: 2 cells" ] ||
   [ "$(wc -l <"$tmp/qm")" != 4 ]; then
	cat "$tmp/qm"
	bad "-q over a matrix: not the summary alone"
else
	ok "-q over a matrix: the summary alone"
fi

# A bad --color word is a usage error.
n=$((n + 1))
"$rdmascn" run -n --color=sometimes "$dir/rc_write.yaml" >"$tmp/o" 2>"$tmp/e"
rc=$?
if [ $rc != 2 ] || [ "$(head -n 1 "$tmp/e")" != "Unknown --color 'sometimes': auto, always or never." ]; then
	bad "--color=sometimes: exit $rc, '$(head -n 1 "$tmp/e")'"
else
	ok "--color=sometimes: exit 2, named"
fi

# Under a launcher: a terminal gets the pipe's lines, no extras.
n=$((n + 1))
SLURM_PROCID=0 tty "$tmp/launched" run -n "$tmp/big.yaml"
if has "$tmp/launched" '\033' || ! plain "$tmp/launched" | cmp -s - "$tmp/pipe"; then
	plain "$tmp/launched" | diff -u "$tmp/pipe" - | head -5
	bad "SLURM_PROCID=0 on a terminal: an escape, or not the pipe's lines"
else
	ok "SLURM_PROCID=0 on a terminal: no colour, no progress line"
fi
n=$((n + 1))
PMIX_RANK=0 tty "$tmp/launched" run -n --color=always "$dir/rc_write.yaml"
if ! has "$tmp/launched" '\033\[32mdry run done'; then
	bad "PMIX_RANK=0, --color=always: no colour"
else
	ok "PMIX_RANK=0, --color=always: colour"
fi

# nodes: each node's lines say its name, stdout and stderr alike (the
# run ends 3 here: no device; what matters is what it prints).
nodes=$dir/nodes/rc_pingpong.yaml
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 \
	tty "$tmp/node_b" run --node b --rendezvous "127.0.0.1:$port" "$nodes" &
pid_b=$!
OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 RDMASCN_NODES_DEADLINE_MS=10000 \
	tty "$tmp/node_a" run --node a --rendezvous "127.0.0.1:$port" "$nodes"
wait $pid_b
OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2 \
	tty "$tmp/node_b_dry" run -n --node b "$nodes"
for node in a b b_dry; do
	n=$((n + 1))
	want="[${node%_dry}] "
	lines=$(wc -l <"$tmp/node_$node")
	if [ "$lines" -lt 2 ] || has "$tmp/node_$node" '\033' ||
	   sed 's/\r$//' "$tmp/node_$node" | grep -qvF "$want"; then
		cat -A "$tmp/node_$node" | head -20
		bad "node $node under Open MPI: an escape, or a line without '$want'"
	else
		ok "node $node under Open MPI: $lines lines, each '$want...', no escape"
	fi
done
# Without a launcher, --node alone: no prefix.
n=$((n + 1))
"$rdmascn" run -n --node b "$nodes" >"$tmp/node_plain" 2>&1
if grep -q '^\[b\] ' "$tmp/node_plain" ||
   ! grep -q '^dry run done' "$tmp/node_plain"; then
	bad "--node b without a launcher: prefixed, or no verdict"
else
	ok "--node b without a launcher: no prefix"
fi

echo "$((n - fails)) passed, $fails failed"
[ $fails = 0 ]
