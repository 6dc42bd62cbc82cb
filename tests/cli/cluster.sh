#!/bin/bash
# Node sets and traffic patterns on the command line, with no device:
# scenarios/cluster/{mesh,ring,incast}.yaml are each at most 40 lines and
# plan at n=64 to the pattern's pair count (mesh 2016 connections, ring
# 64, incast 63), each node with the QPs its pairs put on it; the dry run
# of mesh at n=4 shows every node's calls; a host range expands with its
# zero padding; ${launcher.size} takes --set, the launcher's variable, or
# an assumed 2 said on stderr; --node picks one element of a set.
#   cluster.sh RDMASCN SCENARIO_DIR
set -u
rdmascn=$1 dir=$2/cluster
tmp=$(mktemp -d)
trap '[ "$BASHPID" = $$ ] || exit; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -- "$2" "$1" || { cat "$1"; fail "no '$2'"; }; }
# per_node PLAN KIND ID NODE: how many KIND 'ID[k]' lines of `plan -v`
# (create part) are on NODE.
per_node() {
	sed -n '/^create:/,/^steps:/p' "$1" |
		grep -c "$2 '$3\[[0-9]*\]' *@$4 "
}

for f in mesh ring incast; do
	n=$(wc -l <"$dir/$f.yaml")
	[ "$n" -le 40 ] || fail "$f.yaml is $n lines, more than 40"
	"$rdmascn" validate --set n=64 "$dir/$f.yaml" >/dev/null ||
		fail "$f.yaml at n=64: validate exit $?"
	echo "ok $f.yaml: $n lines, valid at n=64"
done

"$rdmascn" plan --set n=64 "$dir/mesh.yaml" >"$tmp/plan" || fail "plan exit $?"
has "$tmp/plan" "connection 'link' ×2016 .*<- a=tx\[i\], b=rx\[i\]$"
has "$tmp/plan" "qp 'tx' ×2016  *@h\[from\] "
has "$tmp/plan" "qp 'rx' ×2016  *@h\[to\] "
has "$tmp/plan" "step 1\[0\]\.\.1\[2015\] (write)  *@h\[from\]>h\[to\] "
has "$tmp/plan" "step 2\[0\]\.\.2\[2015\] (verify)  *@h\[to\] "
has "$tmp/plan" "^ *0  h\[0\]\.\.h\[63\] ×64  *address 127.0.0.1  (leader: the first)$"
echo "ok mesh n=64: 2016 connections, folded by pattern side"

# Each node of a mesh has a QP for each other node: h[k] sends on 63-k
# (to every later node) and receives on k.
"$rdmascn" plan -v --set n=64 "$dir/mesh.yaml" >"$tmp/planv" ||
	fail "plan -v exit $?"
for k in 0 1 31 63; do
	tx=$(per_node "$tmp/planv" qp tx "h\[$k\]")
	rx=$(per_node "$tmp/planv" qp rx "h\[$k\]")
	[ "$tx" = $((63 - k)) ] && [ "$rx" = "$k" ] ||
		fail "mesh h[$k]: $tx tx and $rx rx QPs, not $((63 - k)) and $k"
	[ $((tx + rx)) = 63 ] || fail "mesh h[$k]: $((tx + rx)) QPs, not 63"
done
has "$tmp/planv" "^ *63  h\[63\]  *address 127.0.0.1$"
[ "$(grep -c "connection 'link\[" "$tmp/planv")" = 4032 ] ||
	fail "plan -v does not list 2016 connections twice (create, teardown)"
echo "ok mesh n=64 -v: 63 QPs on every node, 2016 connections unfolded"

"$rdmascn" plan --set n=64 "$dir/ring.yaml" >"$tmp/plan" || fail "plan exit $?"
has "$tmp/plan" "connection 'link' ×64 "
"$rdmascn" plan -v --set n=64 "$dir/ring.yaml" >"$tmp/planv" || fail "plan -v"
for k in 0 5 63; do
	[ "$(per_node "$tmp/planv" qp tx "h\[$k\]")" = 1 ] &&
	[ "$(per_node "$tmp/planv" qp rx "h\[$k\]")" = 1 ] ||
		fail "ring h[$k]: not one tx and one rx QP"
done
has "$tmp/planv" "qp 'tx\[63\]'  *@h\[63\] "
has "$tmp/planv" "step 1\[63\] (write)  *@h\[63\]>h\[0\] "
echo "ok ring n=64: 64 connections, each node one QP each way, h[63] to h[0]"

"$rdmascn" plan --set n=64 "$dir/incast.yaml" >"$tmp/plan" || fail "plan exit $?"
has "$tmp/plan" "connection 'link' ×63 "
has "$tmp/plan" "step 1\[0\]\.\.1\[62\] (stream)  *@h\[from\]>h\[to\] "
"$rdmascn" plan -v --set n=64 --set root=5 "$dir/incast.yaml" >"$tmp/planv" ||
	fail "plan -v exit $?"
[ "$(per_node "$tmp/planv" qp rx "h\[5\]")" = 63 ] ||
	fail "incast root=5: h[5] has not the 63 receiving QPs"
[ "$(per_node "$tmp/planv" qp tx "h\[5\]")" = 0 ] ||
	fail "incast root=5: h[5] sends"
[ "$(per_node "$tmp/planv" qp tx "h\[6\]")" = 1 ] ||
	fail "incast root=5: h[6] has not one sending QP"
echo "ok incast n=64: 63 connections, all into the root"

# The dry run of mesh at n=4 makes every node's objects: 6 pairs.
"$rdmascn" run --dry-run "$dir/mesh.yaml" >"$tmp/dry" 2>&1 ||
	{ cat "$tmp/dry"; fail "dry run exit $?"; }
for k in 0 1 2 3; do
	has "$tmp/dry" "ibv_alloc_pd(context=ctx\[$k\])"
done
[ "$(grep -c "ibv_create_qp(" "$tmp/dry")" = 12 ] ||
	{ cat "$tmp/dry"; fail "dry run: not 12 QPs"; }
has "$tmp/dry" "mr 'dst\[5\]'"
echo "ok mesh n=4 dry run: every node's calls, 12 QPs"

# Host ranges, ${launcher.size}, --node h[k].
cat >"$tmp/set.yaml" <<'YAML'
scenario: set
nodes:
  - {id: h, count: "${launcher.size}", address: "node[08-11]:7000"}
  - {id: solo, address: 127.0.0.1}
contexts:
  - {id: ctx, node: h, device: any}
  - {id: one, node: "h[2]", device: any}
  - {id: s, node: solo, device: any}
YAML
"$rdmascn" plan --set launcher.size=4 "$tmp/set.yaml" >"$tmp/plan" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "plan exit $?"; }
[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "plan with --set said something"; }
has "$tmp/plan" "^ *0  h\[0\]\.\.h\[3\] ×4  *address node08:7000\.\.node11:7000  (leader: the first)$"
has "$tmp/plan" "^ *4  solo  *address 127.0.0.1$"
"$rdmascn" plan -v --set launcher.size=4 "$tmp/set.yaml" >"$tmp/planv" ||
	fail "plan -v exit $?"
has "$tmp/planv" "^ *0  h\[0\]  *address node08:7000  (leader)$"
has "$tmp/planv" "^ *3  h\[3\]  *address node11:7000$"
has "$tmp/plan" "context 'ctx' ×4  *@h\[i\] "
has "$tmp/plan" "context 'one'  *@h\[2\] "
printf 'scenario: v6\nnodes:\n  - {id: h, address: "[2001:db8::1]:7000"}\n' \
	>"$tmp/v6.yaml"
"$rdmascn" plan "$tmp/v6.yaml" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "IPv6 exit $?"; }
has "$tmp/out" "^ *0  h  *address \[2001:db8::1\]:7000  (leader)$"
echo "ok host range node[08-11]:7000 expands in order, padding kept; [IPv6] is no range"

"$rdmascn" validate "$tmp/set.yaml" >"$tmp/out" 2>"$tmp/err"
[ $? = 2 ] || fail "4-host range with an assumed size of 2: not exit 2"
has "$tmp/err" "warning: \${launcher.size}: no launcher (OMPI_COMM_WORLD_SIZE, SLURM_NTASKS or PMI_SIZE) and no --set launcher.size=N: assuming 2$"
has "$tmp/err" "'node\[08-11\]:7000' is 4 hosts, but count: is 2"
sed -i 's/address: "node\[08-11\]:7000"/address: 127.0.0.1/' "$tmp/set.yaml"
sed -i 's/"h\[2\]"/"h[1]"/' "$tmp/set.yaml"
"$rdmascn" validate "$tmp/set.yaml" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "validate with an assumed size: exit $?"; }
[ "$(grep -c 'assuming 2' "$tmp/err")" = 1 ] || fail "assumed size not said once"
OMPI_COMM_WORLD_SIZE=6 OMPI_COMM_WORLD_RANK=0 "$rdmascn" plan \
	"$tmp/set.yaml" >"$tmp/plan" 2>"$tmp/err" || fail "plan under mpirun"
[ -s "$tmp/err" ] && { cat "$tmp/err"; fail "plan under a launcher said something"; }
has "$tmp/plan" "context 'ctx' ×6 "
echo "ok \${launcher.size}: --set, the launcher's size, or 2 said once"

"$rdmascn" run --dry-run --node 'h[1]' --set launcher.size=3 "$tmp/set.yaml" \
	>"$tmp/dry" 2>&1 || { cat "$tmp/dry"; fail "--node h[1] exit $?"; }
has "$tmp/dry" "context 'ctx\[1\]'"
grep -q "context 'ctx\[0\]'" "$tmp/dry" && fail "--node h[1] made ctx[0]"
"$rdmascn" run --dry-run --node 'h[3]' --set launcher.size=3 "$tmp/set.yaml" \
	>"$tmp/out" 2>&1 && fail "--node h[3] of 3 accepted"
has "$tmp/out" "no such node"
echo "ok --node h[1] plays one element of the set"

# Under a launcher: its size sizes the set, rank i plays h[i].
grep -v solo "$tmp/set.yaml" | sed 's/"h\[1\]"/"h[2]"/' >"$tmp/mpi.yaml"
OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_SIZE=3 "$rdmascn" run --dry-run \
	"$tmp/mpi.yaml" >"$tmp/dry" 2>&1 || { cat "$tmp/dry"; fail "rank 2 exit $?"; }
has "$tmp/dry" "^\[h\[2\]\]   \[1\] ibv_open_device(device=any port=1)  # context 'ctx\[2\]'$"
has "$tmp/dry" "^\[h\[2\]\]   \[2\] ibv_open_device(device=any port=1)  # context 'one'$"
grep -q "ctx\[[01]\]" "$tmp/dry" && fail "rank 2 made another node's context"
echo "ok under mpirun: OMPI_COMM_WORLD_SIZE=3 sizes the set, rank 2 plays h[2]"

# graph folds a node set into one cluster, as plan folds it.
"$rdmascn" graph --set n=64 "$dir/mesh.yaml" >"$tmp/dot" || fail "graph exit $?"
[ "$(grep -c 'subgraph "cluster node' "$tmp/dot")" = 1 ] ||
	fail "graph of a 64-node set: not one node cluster"
has "$tmp/dot" 'label="node h\[i\] ×64 (127.0.0.1)";'
has "$tmp/dot" '"link" \[label="connection\\nlink ×2016"\];'
has "$tmp/dot" '"rx" \[label="qp\\nrx ×2016"\];'
echo "ok graph: one cluster for the node set, pattern entries folded"

# A pattern over a counted object entry, in one process: all_to_all over
# 3 PDs is 6 pairs, tx[k] on the pair's from PD and rx[k] on its to PD;
# the CQs, counted over the same contexts (with a count: of their own
# too), pair alike; CQs counted on their own would not.
cat >"$tmp/a2a.yaml" <<'YAML'
scenario: a2a
contexts: [{id: ctx, count: 3, device: any}]
pds: [{id: pd, context: ctx}]
cqs: [{id: cq, count: 3, context: ctx, cqe: 8}]
pairs: [{id: p, pattern: all_to_all, of: pd}]
qps:
  - {id: tx, for: p.from, pd: pd, type: rc, send_cq: cq, recv_cq: cq}
  - {id: rx, for: p.to, pd: pd, type: rc, send_cq: cq, recv_cq: cq}
connections: [{id: c, a: tx, b: rx}]
YAML
"$rdmascn" plan -v "$tmp/a2a.yaml" >"$tmp/planv" || { cat "$tmp/planv"; fail "a2a plan exit $?"; }
# Pairs by from, then by to: (0,1) (0,2) (1,0) (1,2) (2,0) (2,1).
has "$tmp/planv" "qp 'tx\[2\]' .*<- pd=pd\[1\], send_cq=cq\[1\], recv_cq=cq\[1\]$"
has "$tmp/planv" "qp 'rx\[2\]' .*<- pd=pd\[0\], send_cq=cq\[0\], recv_cq=cq\[0\]$"
has "$tmp/planv" "qp 'rx\[5\]' .*<- pd=pd\[1\], send_cq=cq\[1\], recv_cq=cq\[1\]$"
has "$tmp/planv" "connection 'c\[5\]' .*<- a=tx\[5\], b=rx\[5\]$"
sed -i 's/^cqs: .*/cqs: [{id: cq, count: 3, context: "ctx[0]", cqe: 8}]/' \
	"$tmp/a2a.yaml"
"$rdmascn" validate "$tmp/a2a.yaml" >"$tmp/out" 2>&1 && fail "CQs not over ctx: valid"
has "$tmp/out" "qp 'tx': send_cq: 'cq' has 3 elements, and qp 'tx' is one per pair of 'p' (6, for: p.from)"
echo "ok all_to_all over a counted entry: 6 pairs, each QP on its side's PD"
