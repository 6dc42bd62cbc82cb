#!/bin/bash
# Inside the Soft-RoCE VM: the step executor.  Every scenario of scenarios/
# that rxe runs passes again with its CQs on completion channels (events);
# expected and unexpected completion errors, deadlines, channel-less
# events, sleeps, verify, modify_qp, parallel steps sharing CQs, stream
# and pingpong each end as they should, with a clean teardown; work
# requests with strides, offsets, SGE lists, chosen wr_ids and split
# messages put their bytes where they say.
set -u
rdmascn=$1
scndir=$2
. "$(dirname "$0")/lib.sh"


# 1. The scenarios with every CQ on a channel: events by the CQ's default.
for name in rc_write rc_read atomics ud_send srq mw_bind rc_pingpong; do
	sed -E 's/(\{id: [a-z_]+, context: [a-z_]+, )cqe:/\1channel: true, cqe:/' \
		"$scndir/$name.yaml" >"$tmp/ev_$name.yaml"
	grep -q 'channel: true' "$tmp/ev_$name.yaml" || fail "ev_$name: no CQ changed"
	expect "events $name" 0 "$tmp/ev_$name.yaml"
	echo "ok $name with completion channels: $(tail -n1 "$tmp/out")"
done

# Objects for the rest: a, b on a busy CQ (channel, mode busy); c, d on an
# events CQ; e, f on a CQ without a channel.
base() {
	cat <<EOF
scenario: $1
contexts: [{id: ctx, device: any, port: 1}]
pds: [{id: pd, context: ctx}]
cqs:
  - {id: cq, context: ctx, cqe: 256, channel: true, mode: busy}
  - {id: cq2, context: ctx, cqe: 256, channel: true}
  - {id: cq3, context: ctx, cqe: 64}
mrs:
  - {id: src, pd: pd, length: 4096, access: [local_write, remote_write], fill: pattern}
  - {id: dst, pd: pd, length: 4096, access: [local_write, remote_write, remote_read], fill: zero}
  - {id: ctr, pd: pd, length: 8, access: [local_write, remote_atomic], fill: zero}
qps:
  - {id: a, pd: pd, type: rc, send_cq: cq, cap: {max_send_wr: 16, max_recv_wr: 16}}
  - {id: b, pd: pd, type: rc, send_cq: cq, cap: {max_send_wr: 16, max_recv_wr: 16}}
  - {id: c, pd: pd, type: rc, send_cq: cq2, cap: {max_send_wr: 64, max_recv_wr: 64, max_inline_data: 64}}
  - {id: d, pd: pd, type: rc, send_cq: cq2, cap: {max_send_wr: 64, max_recv_wr: 64, max_inline_data: 64}}
  - {id: e, pd: pd, type: rc, send_cq: cq3}
  - {id: f, pd: pd, type: rc, send_cq: cq3}
connections:
  - {id: ab, a: a, b: b, rnr_retry: ${2:-7}, min_rnr_timer: 1, timeout: 10, retry_cnt: 1}
  - {id: cd, a: c, b: d, max_rd_atomic: 8, max_dest_rd_atomic: 8}
  - {id: ef, a: e, b: f}
steps:
EOF
}
scn() { base "$1" "${3:-}" >"$tmp/$1.yaml"; printf '%s\n' "$2" >>"$tmp/$1.yaml"; }

# 2. Completion errors, expected or not.
scn rkey_expected "  - write: {id: w, qp: a, local: src, remote: dst, rkey: 0x1234, iterations: 10, depth: 4, signal_every: 2, expect: rem_access_err}"
expect rkey_expected 0 "$tmp/rkey_expected.yaml"
echo "ok a write with a wrong rkey expecting rem_access_err passes"
scn rkey "  - write: {id: w, qp: a, local: src, remote: dst, rkey: 0x1234}
  - verify: {id: v, mr: dst, pattern: zero}"
expect rkey 1 "$tmp/rkey.yaml"
has rkey "$tmp/err" "rkey.yaml:[0-9]+:[0-9]+: step 1 \(write\) 'w': rdma_write wr 0x[0-9a-f]+ \(#0\) completed with rem_access_err \(remote access error\), vendor_err 0x[0-9a-f]+, qp_num 0x[0-9a-f]+; expected success"
has rkey "$tmp/out" "^step 2 +verify +'v' +not run$"
echo "ok the same write without expect fails naming the status; the rest is not run"
scn rnr "  - send: {id: s, qp: a, local: src, length: 64, expect: rnr_retry_exc_err}" 0
expect rnr 0 "$tmp/rnr.yaml"
echo "ok a send without a receive, rnr_retry 0, expecting rnr_retry_exc_err passes"
scn success "  - write: {id: w, qp: a, local: src, remote: dst, expect: rem_access_err}"
expect success 1 "$tmp/success.yaml"
has success "$tmp/err" "step 1 \\(write\\) 'w': expect: expected rem_access_err, but all 1 WRs completed with success$"
echo "ok a write expecting an error that succeeds fails"

# 3. A deadline: rnr_retry 7 retries for ever, the step stops at 1 s.
scn deadline "  - send: {id: s, qp: a, local: src, length: 64, deadline_ms: 1000}"
t0=$(date +%s%N)
expect deadline 1 "$tmp/deadline.yaml"
ms=$((($(date +%s%N) - t0) / 1000000))
has deadline "$tmp/err" "deadline.yaml:[0-9]+:[0-9]+: step 1 \(send\) 's': deadline 1000 ms passed with 0 of 1 completions, 0 of 1 receives at qp 'b'"
grep -q 'still open' "$tmp/err" && fail "deadline: a loop handle stayed open"
echo "ok a send nobody receives ends at its 1000 ms deadline ($ms ms in all), torn down"

# 4. Set-up problems: exit 3 with the reason.
scn nochan "  - write: {id: w, qp: e, local: src, remote: dst, completion: events}"
expect nochan 3 "$tmp/nochan.yaml"
has nochan "$tmp/err" "completion: events need a completion channel, and cq 'cq3' has none"
scn rd "  - read: {id: r, qp: a, local: src, remote: dst}"
expect rd 3 "$tmp/rd.yaml"
has rd "$tmp/err" "need max_rd_atomic and max_dest_rd_atomic >= 1"
scn depth "  - write: {id: w, qp: a, local: src, remote: dst, depth: 17}"
expect depth 3 "$tmp/depth.yaml"
has depth "$tmp/err" "depth: 17 exceeds qp 'a' max_send_wr"
echo "ok events without a channel, reads without rd_atomic, depth above max_send_wr: exit 3"

# 5. The other step types, both completion modes.
scn misc "  - sleep: {id: nap, ms: 200}
  - write: {id: w1, qp: a, local: src, remote: dst, verify: true, iterations: 100, depth: 8, post_list: 4, signal_every: 4}
  - verify: {mr: dst, pattern: pattern}
  - verify: {mr: dst, offset: 100, length: 50, pattern: pattern}
  - recv: {id: r, qp: b, local: dst, count: 4}
  - send: {id: s, qp: a, local: src, length: 1000, offset: 3, iterations: 4, verify: true}
  - recv: {id: r2, qp: d, local: dst, count: 3}
  - send: {id: simm, qp: c, local: src, length: 16, imm: 7, inline: true}
  - write: {id: wimm, qp: c, local: src, remote: dst, length: 128, imm: 9, iterations: 2}
  - read: {id: rd0, qp: c, local: src, remote: dst, length: 0}
  - read: {id: rd, qp: c, local: src, remote: dst, verify: true, iterations: 50, depth: 8}
  - atomic: {id: add, qp: c, op: fetch_add, local: src, remote: ctr, add: 5, iterations: 3, expect_fetched: 10}
  - verify: {id: sum, mr: ctr, equals_u64: 15}
  - modify_qp: {id: err, qp: a, state: err}
  - write: {id: flushed, qp: a, local: src, remote: dst, expect: wr_flush_err}"
expect misc 0 "$tmp/misc.yaml"
has misc "$tmp/out" "^step 1 +sleep +'nap' +passed +2[0-9][0-9]\.[0-9] ms$"
has misc "$tmp/out" "^step 14 +modify_qp +'err' +passed .* qp 'a' now ERR"
echo "ok sleep, verify, send/recv with verify, imm, reads, atomics, modify_qp: $(grep -c '^step .* passed' "$tmp/out") steps passed"

scn par "  - recv: {id: r, qp: b, local: dst, count: 16}
  - parallel:
      id: busy
      steps:
        - write: {id: pw, qp: c, local: src, remote: dst, iterations: 2000, depth: 32, signal_every: 8, completion: busy}
        - send: {id: ps, qp: a, local: src, length: 512, iterations: 16, depth: 4}
        - sleep: {id: pz, ms: 50}
  - parallel:
      id: events
      steps:
        - write: {id: pw2, qp: c, local: src, remote: dst, iterations: 2000, depth: 32}
        - write: {id: pw3, qp: d, local: src, remote: dst, iterations: 2000, depth: 32}
  - parallel:
      id: one_fails
      steps:
        - write: {id: bad, qp: c, local: src, remote: dst, rkey: 0x99}
        - sleep: {id: long, ms: 5000}
  - sleep: {id: never, ms: 1}"
expect par 1 "$tmp/par.yaml"
has par "$tmp/out" "^step 3\.2 +write +'pw3' +passed"
has par "$tmp/out" "^step 4 +parallel +'one_fails' +failed .*step 4\.1 \(write\) 'bad' did not pass"
has par "$tmp/out" "^step 4\.2 +sleep +'long' +failed .*stopped: step 4\.1 \(write\) 'bad' did not pass"
has par "$tmp/out" "^step 5 +sleep +'never' +not run$"
echo "ok parallel steps on shared CQs (busy and events) pass; a failing one stops its siblings"

scn pattern "  - stream: {id: sw, qp: c, completion: busy, local: src, remote: dst, size: 4096, iterations: 2000, depth: 64, signal_every: 16, post_list: 4}
  - stream: {id: sr, qp: c, op: read, local: src, remote: dst, size: 4096, iterations: 500, depth: 16}
  - stream: {id: ss, qp: c, op: send, peer: d, local: src, remote: dst, size: 4096, iterations: 1000, depth: 32}
  - stream: {id: sm, qps: [a, c], completion: busy, local: src, remote: dst, size: 1024, iterations: 500, depth: 16, signal_every: 4}
  - stream: {id: sd, qp: c, local: src, remote: dst, size: 4096, duration_ms: 300, depth: 64, signal_every: 8}
  - pingpong: {id: pw, qp: c, peer: d, op: write, completion: busy, local: src, peer_local: dst, size: 2, iterations: 500, warmup: 50, inline: true}
  - pingpong: {id: ps, qp: c, peer: d, op: send, completion: busy, local: src, peer_local: dst, size: 2, iterations: 500, warmup: 50}
  - pingpong: {id: pe, qp: c, peer: d, op: send, local: src, peer_local: dst, size: 64, iterations: 500}"
expect pattern 0 "$tmp/pattern.yaml"
for s in sw sr ss sm sd; do
	has pattern "$tmp/out" "^step [0-9]+ +stream +'$s' +passed .* MB/s [0-9.]+ Gb/s [0-9.]+ Mpps$"
done
for s in pw ps pe; do
	has pattern "$tmp/out" "^step [0-9]+ +pingpong +'$s' +passed .*latency usec: min [0-9.]+ typ [0-9.]+ avg .* p99\.9 [0-9.]+ max [0-9.]+ \([0-9]+ samples\)$"
done
# The same figures as numbers, from the record.
for s in sw sr ss sm sd; do
	[ "$(rec ".steps[] | select(.id == \"$s\") | .figures.throughput |
		.\"MB/s\" > 0 and .Mpps > 0 and .messages > 0")" = true ] ||
		fail "stream $s: record $(rec -c ".steps[] | select(.id == \"$s\")")"
done
[ "$(rec '.steps[] | select(.id == "sw") | .figures.throughput |
	.messages == 2000 and .size_bytes == 4096')" = true ] ||
	fail "stream sw: $(rec -c '.steps[] | select(.id == "sw")')"
for s in pw ps; do
	[ "$(rec ".steps[] | select(.id == \"$s\") | .figures.latency |
		.samples == 500 and .unit == \"usec\" and .min <= .typical and
		.typical <= .p99 and .p99 <= .max")" = true ] ||
		fail "pingpong $s: record $(rec -c ".steps[] | select(.id == \"$s\")")"
done
echo "ok stream (write, read, send, two QPs, duration) and pingpong (write, send, events)"
grep -E "^step [0-9]+ +(stream|pingpong)" "$tmp/out" | sed 's/^/  /'
# Gates: bounds that hold pass, with every gate in the record; an
# impossible one fails the step (exit 1) naming the figure, the bound,
# the value and the bound's FILE:LINE:COL, then teardown as ever.  Two
# runs' records compare equal to themselves.
scn gates "  - pingpong: {id: pg, qp: c, peer: d, op: send, completion: busy, local: src, peer_local: dst, size: 2, iterations: 200,
      gate: {latency.typical: {max: 1000000}, latency.min: {min: 0}}}
  - stream: {id: sg, qp: c, local: src, remote: dst, size: 4096, iterations: 200, depth: 16,
      gate: {throughput.MB/s: {min: 0.000001}}}"
expect gates 0 --samples "$tmp/gates.csv" "$tmp/gates.yaml"
[ "$(rec '[.steps[] | .gates[]? | .passed and (.value | type == "number")] |
	length == 3 and all')" = true ] || fail "gates: record $(rec -c '[.steps[] | .gates]')"
# --samples: a row per measured round trip, as many as the figures say,
# and the histogram counts them all.
n_s=$(rec '.steps[] | select(.id == "pg") | .figures.latency.samples')
[ "$(head -1 "$tmp/gates.csv")" = "cell,step,iteration,usec" ] &&
[ "$(grep -cE '^,pg,[0-9]+,[0-9]+\.[0-9]{3}$' "$tmp/gates.csv")" = "$n_s" ] &&
[ "$(wc -l <"$tmp/gates.csv")" = $((n_s + 1)) ] &&
[ "$(rec '.steps[] | select(.id == "pg") | .figures.latency.histogram.counts | add')" = "$n_s" ] ||
	fail "samples: $n_s samples, $(wc -l <"$tmp/gates.csv") lines: $(head -3 "$tmp/gates.csv")"
echo "ok --samples: $n_s rows, and the histogram counts $n_s"
cp "$tmp/rec.json" "$tmp/gates_rec.json"
"$rdmascn" compare --tolerance 1000000 "$tmp/gates_rec.json" "$tmp/gates_rec.json" \
	>"$tmp/cmp" 2>&1 || { cat "$tmp/cmp"; fail "compare of a record with itself"; }
grep -q 'latency.typical .*x1.000 .*lower is better' "$tmp/cmp" ||
	{ cat "$tmp/cmp"; fail "compare: no latency.typical row"; }
sed 's/latency.typical: {max: 1000000}/latency.typical: {max: 0.001}/' \
	"$tmp/gates.yaml" >"$tmp/gates_miss.yaml"
line=$(grep -n 'max: 0.001' "$tmp/gates_miss.yaml" | cut -d: -f1)
expect gates_miss 1 "$tmp/gates_miss.yaml"
has gates_miss "$tmp/err" "^$tmp/gates_miss.yaml:$line:[0-9]+: step [0-9]+ \(pingpong\) 'pg': gate: latency.typical is [0-9.e+-]+ usec, above max 0.001$"
has gates_miss "$tmp/out" "^step [0-9]+ +pingpong +'pg' +failed .*gate: latency.typical is"
has gates_miss "$tmp/out" "^step [0-9]+ +stream +'sg' +not run"
[ "$(rec '.steps[] | select(.id == "pg") | .gates[] |
	select(.figure == "latency.typical") | .passed == false and .max == 0.001
	and .value > 0.001')" = true ] || fail "gates_miss: record $(rec -c '.steps[0]')"
echo "ok gates: bounds that hold pass; latency.typical max 0.001 fails at its line"

# Work requests that vary: data lands where strides, offsets and SGE
# lists say, split messages arrive whole, chosen wr_ids come back in
# completions.  The pattern fill is byte i = i mod 256, so a message one
# stride (1000, 1256: not multiples of 256) off its place fails verify.
wr_base() {
	cat <<EOF
scenario: $1
contexts: [{id: ctx, device: any, port: 1, gid_index: 1}]
pds: [{id: pd, context: ctx}]
cqs: [{id: cq, context: ctx, cqe: 256}]
mrs:
  - {id: src, pd: pd, length: 8192, access: [local_write, remote_read], fill: pattern}
  - {id: dst, pd: pd, length: 8192, access: [local_write, remote_write, remote_read], fill: zero}
  - {id: hdr, pd: pd, length: 64, access: [local_write], fill: byte, fill_byte: 0xab}
  - {id: big, pd: pd, length: 20000, access: [local_write, remote_read], fill: pattern}
  - {id: back, pd: pd, length: 20000, access: [local_write], fill: zero}
  - {id: ud_rx, pd: pd, length: 4136, access: [local_write], fill: zero}
qps:
  - {id: a, pd: pd, type: rc, send_cq: cq, cap: {max_send_wr: 8, max_recv_wr: 8, max_send_sge: 2}}
  - {id: b, pd: pd, type: rc, send_cq: cq, cap: {max_send_wr: 8, max_recv_wr: 8}}
  - {id: u, pd: pd, type: ud, send_cq: cq, qkey: 0x11111111, cap: {max_send_wr: 8}}
  - {id: v, pd: pd, type: ud, send_cq: cq, qkey: 0x11111111, cap: {max_recv_wr: 8}}
ahs:
  - {id: to_v, pd: pd, dgid: "::ffff:10.99.0.1", is_global: true, gid_index: 1, port: 1}
connections:
  - {id: ab, a: a, b: b, max_rd_atomic: 4, max_dest_rd_atomic: 4}
steps:
EOF
}
wscn() { wr_base "$1" >"$tmp/$1.yaml"; printf '%s\n' "$2" >>"$tmp/$1.yaml"; }
# placed MR OFFSET LEN STRIDE N: a verify of each of N messages of LEN
# bytes STRIDE apart from OFFSET against the pattern, and of the gaps
# and the tail against zero.
placed() {
	local mr=$1 off=$2 len=$3 stride=$4 n=$5 i m at=0
	for i in $(seq 0 $((n - 1))); do
		m=$((off + i * stride))
		[ $m -gt $at ] && echo "  - verify: {mr: $mr, offset: $at, length: $((m - at)), pattern: zero}"
		echo "  - verify: {mr: $mr, offset: $m, length: $len, pattern: pattern}"
		at=$((m + len))
	done
	echo "  - verify: {mr: $mr, offset: $at, pattern: zero}"
}
# A write from offset 100 of src, 1000 apart, to 356 of dst, 1256 apart.
wscn wr_strides "  - write: {id: w, qp: a, local: src, offset: 100, stride: 1000, length: 50, iterations: 4, remote: dst, remote_offset: 356, remote_stride: 1256, verify: true, wr_id: 42}
$(placed dst 356 50 1256 4)"
expect wr_strides 0 "$tmp/wr_strides.yaml"
has wr_strides "$tmp/out" "^step 1 +write +'w' +passed .* 4 wr"
[ "$(grep -c "^step .* verify .* passed" "$tmp/out")" = 9 ] ||
	{ cat "$tmp/out"; fail "wr_strides: not 9 verifies passed"; }
echo "ok a write with offset/stride 100/1000 to remote 356/1256 landed there, gaps zero"
# Receives into dst 1256 apart from 356; sends from src 1000 apart from 100.
wscn wr_recv_strides "  - recv: {id: r, qp: b, local: dst, offset: 356, stride: 1256, length: 50, count: 4, wr_id: 0}
  - send: {id: s, qp: a, local: src, offset: 100, stride: 1000, length: 50, iterations: 4, verify: true, wr_id: 0}
$(placed dst 356 50 1256 4)"
expect wr_recv_strides 0 "$tmp/wr_recv_strides.yaml"
echo "ok 4 strided receives from offset 356 took 4 strided sends from offset 100, gaps zero"
# A read split at 3000 bytes (7 WRs: 6 of 3000, then 2000) on a send
# queue of 8: chained, the last signalled.
wscn wr_split_read "  - read: {id: rd, qp: a, local: back, remote: big, length: 20000, max_msg_sz: 3000, verify: true}
  - verify: {id: all, mr: back, pattern: pattern}"
expect wr_split_read 0 "$tmp/wr_split_read.yaml"
has wr_split_read "$tmp/out" "^step 1 +read +'rd' +passed .* 7 wr +split: 7 WRs a message, of 3000 B \(max_msg_sz 3000\)"
[ "$(rec '.steps[0].figures.split.wrs_per_message')" = 7 ] ||
	fail "wr_split_read: record $(rec -c '.steps[0].figures')"
echo "ok a 20000-byte read split at 3000 into 7 WRs arrived whole"
# A write gathered from hdr (0xab) and src at 1000 (bytes 0xe8, 0xe9,
# ...), to dst at 4096.
wscn wr_sge "  - write: {id: g, qp: a, remote: dst, remote_offset: 4096, verify: true, sge: [{mr: hdr}, {mr: src, offset: 1000, length: 100}]}
  - verify: {mr: dst, offset: 4096, length: 64, equals: hdr}
  - verify: {mr: dst, offset: 4160, length: 8, equals_u64: 0xefeeedecebeae9e8}
  - verify: {mr: dst, offset: 4260, pattern: zero}"
expect wr_sge 0 "$tmp/wr_sge.yaml"
echo "ok a write gathered from two MRs landed as header then payload"
# ud_send from offset 300 of src (bytes 0x2c, 0x2d, ...) to v, after
# the 40-byte GRH.
wscn wr_ud_offset "  - recv: {id: r, qp: v, local: ud_rx, length: 104}
  - ud_send: {id: s, qp: u, ah: to_v, to: v, local: src, offset: 300, length: 64, verify: true}
  - verify: {mr: ud_rx, offset: 40, length: 8, equals_u64: 0x333231302f2e2d2c}"
expect wr_ud_offset 0 "$tmp/wr_ud_offset.yaml"
echo "ok a ud_send from offset 300 delivered those bytes"
# A chosen wr_id comes back in the completion the device returns.
wscn wr_id_back "  - write: {id: w, qp: a, local: src, remote: dst, length: 64, rkey: 0x1234, wr_id: 0x77}"
expect wr_id_back 1 "$tmp/wr_id_back.yaml"
has wr_id_back "$tmp/err" "step 1 \(write\) 'w': rdma_write wr 0x77 \(#0\) completed with rem_access_err"
echo "ok wr_id 0x77 came back in the failed completion"
# Overlapping chosen ids on one receive queue, while the first step's
# receives are outstanding: the second cannot run.
wscn wr_id_clash "  - recv: {id: r1, qp: b, local: dst, length: 64, count: 4, wr_id: 10}
  - recv: {id: r2, qp: b, local: dst, length: 64, count: 2, wr_id: 12}"
expect wr_id_clash 3 "$tmp/wr_id_clash.yaml"
has wr_id_clash "$tmp/err" "step 2 \(recv\) 'r2': wr_id: 12 \.\. 13 on qp 'b' overlap the wr_ids of step 1 \(recv\) 'r1'"
echo "ok overlapping wr_ids on one receive queue are refused"
# A max_msg_sz above the port's cannot run; the message says the port's.
wscn wr_over_port "  - write: {id: w, qp: a, local: src, remote: dst, length: 64, max_msg_sz: 4294967295}"
expect wr_over_port 3 "$tmp/wr_over_port.yaml"
has wr_over_port "$tmp/err" "max_msg_sz: 4294967295 exceeds the port's max_msg_sz \([0-9]+\)"
port_max=$(sed -n "s/.*exceeds the port's max_msg_sz (\([0-9]*\)).*/\1/p" "$tmp/err" | head -n1)
echo "ok max_msg_sz above the port's: the port's is $port_max"
# Without max_msg_sz the port's splits: one byte more than it is two
# WRs (rxe's port allows 8 MiB on the kernels this runs on), the random
# bytes verified whole.
[ "$port_max" -le $((64 << 20)) ] ||
	fail "wr_port_split: the port's max_msg_sz $port_max is too big to exceed here"
cat >"$tmp/wr_port_split.yaml" <<EOF
scenario: wr_port_split
contexts: [{id: ctx, device: any, port: 1}]
pds: [{id: pd, context: ctx}]
cqs: [{id: cq, context: ctx, cqe: 16}]
mrs:
  - {id: src, pd: pd, length: $((port_max + 1)), access: [local_write], fill: random}
  - {id: dst, pd: pd, length: $((port_max + 1)), access: [local_write, remote_write], fill: zero}
qps:
  - {id: a, pd: pd, type: rc, send_cq: cq, cap: {max_send_wr: 4}}
  - {id: b, pd: pd, type: rc, send_cq: cq, cap: {max_send_wr: 4}}
connections: [{id: ab, a: a, b: b}]
steps:
  - write: {id: w, qp: a, local: src, remote: dst, verify: true, deadline_ms: 60000}
  - verify: {id: all, mr: dst, equals: src}
EOF
expect wr_port_split 0 "$tmp/wr_port_split.yaml"
has wr_port_split "$tmp/out" "^step 1 +write +'w' +passed .* 2 wr +split: 2 WRs a message, of $port_max B \(max_msg_sz $port_max\)"
echo "ok $((port_max + 1)) bytes split at the port's max_msg_sz: $(grep -o 'split: .*' "$tmp/out")"

# On a terminal (script(1)), a step that runs long says where it is on
# a line redrawn in place: a stream's completions, rate and deadline, a
# sleep's time; the result lines come clean after it, in colour.
scn progress "  - stream: {id: sp, qp: c, local: src, remote: dst, size: 4096, duration_ms: 1200, depth: 64, signal_every: 8}
  - sleep: {id: zz, ms: 700}"
TERM=xterm script -qec "$(printf '%q ' "$rdmascn" run "$tmp/progress.yaml")" \
	/dev/null </dev/null >"$tmp/tty" || { cat "$tmp/tty"; fail "progress: exit $?"; }
has progress "$tmp/tty" $'\rstep 1 stream \'sp\': [0-9]+ completions, [0-9.]+[kM]?/s, deadline in [0-9.]+ s\033\\[K'
has progress "$tmp/tty" $'\rstep 2 sleep \'zz\': 0\\.[0-9] s, deadline in [0-9.]+ s\033\\[K'
has progress "$tmp/tty" $'\r\033\\[Kstep 1 +stream +\'sp\' +\033\\[32mpassed\033\\[0m'
"$rdmascn" run "$tmp/progress.yaml" >"$tmp/out" 2>&1
grep -q $'\r' "$tmp/out" && fail "progress: a \\r without a terminal"
echo "ok progress on a terminal: $(grep -o $'step 1 stream [^\r]*completions[^\033]*' "$tmp/tty" | tail -n 1)"

echo "steps as expected"
