#!/bin/bash
# Inside the Soft-RoCE VM: the step executor.  Every scenario of scenarios/
# that rxe runs passes again with its CQs on completion channels (events);
# expected and unexpected completion errors, deadlines, channel-less
# events, sleeps, verify, modify_qp, parallel steps sharing CQs, stream
# and pingpong, buffers with literal contents and mmap()ed memory each end
# as they should, with a clean teardown; work requests with strides,
# offsets, SGE lists, chosen wr_ids and split messages put their bytes
# where they say; bench/long_qps.yaml streams on all its groups at once.
# (lib.sh's recvars sets the variables some checks read: SC2154 cannot
# see it.)
# shellcheck disable=SC2154
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
	ok "$name with completion channels: $(tail -n1 "$tmp/out")"
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
  - {id: ab, a: a, b: b, rnr_retry: ${2:-7}, min_rnr_timer: 1, timeout: 16, retry_cnt: 7}
  - {id: cd, a: c, b: d, max_rd_atomic: 8, max_dest_rd_atomic: 8}
  - {id: ef, a: e, b: f}
steps:
EOF
}
scn() { base "$1" "${3:-}" >"$tmp/$1.yaml"; printf '%s\n' "$2" >>"$tmp/$1.yaml"; }

# 2. Completion errors, expected or not.
scn rkey_expected "  - write: {id: w, qp: a, local: src, remote: dst, rkey: 0x1234, iterations: 10, depth: 4, signal_every: 2, expect: rem_access_err}"
expect rkey_expected 0 "$tmp/rkey_expected.yaml"
ok "a write with a wrong rkey expecting rem_access_err passes"
scn rkey "  - write: {id: w, qp: a, local: src, remote: dst, rkey: 0x1234}
  - verify: {id: v, mr: dst, pattern: zero}"
expect rkey 1 "$tmp/rkey.yaml"
has rkey "$tmp/err" "rkey.yaml:[0-9]+:[0-9]+: step 1 \(write\) 'w': rdma_write wr 0x[0-9a-f]+ \(#0\) completed with rem_access_err \(remote access error\), vendor_err 0x[0-9a-f]+, qp_num 0x[0-9a-f]+; expected success"
has rkey "$tmp/out" "^step 2 +verify +'v' +not run$"
ok "the same write without expect fails naming the status; the rest is not run"
scn rnr "  - send: {id: s, qp: a, local: src, length: 64, expect: rnr_retry_exc_err}" 0
expect rnr 0 "$tmp/rnr.yaml"
ok "a send without a receive, rnr_retry 0, expecting rnr_retry_exc_err passes"
scn success "  - write: {id: w, qp: a, local: src, remote: dst, expect: rem_access_err}"
expect success 1 "$tmp/success.yaml"
has success "$tmp/err" "step 1 \\(write\\) 'w': expect: expected rem_access_err, but all 1 WRs completed with success$"
ok "a write expecting an error that succeeds fails"

# 3. A deadline: rnr_retry 7 retries for ever, the step stops at 1 s.
# (The transport's timeout, 268 ms times 7, outlasts it: a VM that
# answers late on a loaded host gives RNR NAKs, not retry_exc_err.)
scn deadline "  - send: {id: s, qp: a, local: src, length: 64, deadline_ms: 1000}"
t0=$(date +%s%N)
expect deadline 1 "$tmp/deadline.yaml"
ms=$((($(date +%s%N) - t0) / 1000000))
has deadline "$tmp/err" "deadline.yaml:[0-9]+:[0-9]+: step 1 \(send\) 's': deadline 1000 ms passed with 0 of 1 completions, 0 of 1 receives at qp 'b'"
grep -q 'still open' "$tmp/err" && fail "deadline: a loop handle stayed open"
ok "a send nobody receives ends at its 1000 ms deadline ($ms ms in all), torn down"

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
ok "events without a channel, reads without rd_atomic, depth above max_send_wr: exit 3"

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
has misc "$tmp/out" "^step 1 +sleep +'nap' +passed +[0-9]+\.[0-9] ms$"
# Its 200 ms and under 100 more (scaled by how slow the VM is: slow.sh).
nap=$(grep -Em1 "^step 1 +sleep +'nap' +passed" "$tmp/out")
nap=${nap% ms}
slow_took "the 200 ms sleep" "${nap##* }" 200 100 || fail "misc: $slow_said"
has misc "$tmp/out" "^step 14 +modify_qp +'err' +passed .* qp 'a' now ERR"
ok "sleep, verify, send/recv with verify, imm, reads, atomics, modify_qp: $(grep -c '^step .* passed' "$tmp/out") steps passed"

# Buffers: literal contents (text, hex, a file) and MRs over mmap()ed
# memory (anonymous, hugetlb, a file on tmpfs), written by RDMA and
# verified with an offset on both sides; a wrong text fails at the first
# differing offset; the record says where each MR's bytes are; the file
# holds what the write put there.
printf 'file bytes\n' >"$tmp/lit.txt"
rm -f /dev/shm/rdmascn-steps-buf.bin
cat >"$tmp/buffers.yaml" <<EOF
scenario: buffers
contexts: [{id: ctx, device: any, port: 1}]
pds: [{id: pd, context: ctx}]
cqs: [{id: cq, context: ctx, cqe: 64}]
mrs:
  - {id: txt, pd: pd, length: 4096, access: [local_write], fill_text: "hello"}
  - {id: hex, pd: pd, length: 64, access: [local_write], memory: anonymous, fill_hex: "de ad be ef"}
  - {id: lit, pd: pd, length: 64, access: [local_write], fill_file: lit.txt}
  - {id: fdst, pd: pd, length: 8192, access: [local_write, remote_write], memory: file, memory_file: /dev/shm/rdmascn-steps-buf.bin}
  - {id: hdst, pd: pd, length: 4096, access: [local_write, remote_write], memory: hugetlb}
qps:
  - {id: a, pd: pd, type: rc, send_cq: cq}
  - {id: b, pd: pd, type: rc, send_cq: cq}
connections: [{id: ab, a: a, b: b}]
steps:
  - verify: {id: t, mr: txt, equals_text: "hello"}
  - verify: {id: x, mr: hex, equals_hex: "DEADBEEF"}
  - verify: {id: l, mr: lit, equals_file: lit.txt}
  - write: {id: wf, qp: a, local: txt, remote: fdst, length: 5, remote_offset: 100}
  - write: {id: wh, qp: a, local: hex, remote: hdst, length: 4, remote_offset: 2000}
  - verify: {id: ft, mr: fdst, offset: 100, equals_text: "hello"}
  - verify: {id: fo, mr: fdst, offset: 102, equals_text: "hello", equals_offset: 2}
  - verify: {id: ho, mr: hdst, offset: 2001, equals_hex: "de ad be ef", equals_offset: 1}
  - verify: {id: hm, mr: hdst, offset: 2000, equals: hex, length: 4}
  - verify: {id: hw, mr: hdst, offset: 2002, equals: hex, equals_offset: 2, length: 2}
EOF
expect buffers 0 "$tmp/buffers.yaml"
has buffers "$tmp/out" "^step 6 +verify +'ft' +passed .* 5 bytes equal"
has buffers "$tmp/out" "^step 8 +verify +'ho' +passed .* 3 bytes equal"
# One jq for the record's values here and below (a jq start is most of
# a second under TCG).
recvars -- mem='[.objects[] | select(.kind == "mr") | [.id, .facts.memory, .facts.map_length]]' \
	mr_facts='[.objects[] | select(.kind == "mr") | .facts]' \
	fdst_file='.objects[] | select(.id == "fdst") | .facts.memory_file' \
	fdst_facts='.objects[] | select(.id == "fdst") | .facts'
[ "$mem" = \
  '[["txt","heap",null],["hex","anonymous",64],["lit","heap",null],["fdst","file",8192],["hdst","hugetlb",2097152]]' ] ||
	fail "buffers: the mrs' memory facts: $mr_facts"
[ "$fdst_file" = /dev/shm/rdmascn-steps-buf.bin ] ||
	fail "buffers: fdst's memory_file: $fdst_facts"
[ "$(stat -c %s /dev/shm/rdmascn-steps-buf.bin)" = 8192 ] || fail "buffers: the backing file is not 8192 bytes"
[ "$(dd if=/dev/shm/rdmascn-steps-buf.bin bs=1 skip=100 count=5 2>/dev/null)" = hello ] ||
	fail "buffers: the backing file does not hold the write: $(od -c -j 96 -N 16 /dev/shm/rdmascn-steps-buf.bin)"
ok "buffers: text, hex, file contents; anonymous, hugetlb and file mrs written and verified with offsets on both sides"
# The same with a wrong text: the first differing offset in the mr.
sed 's/equals_text: "hello", equals_offset: 2/equals_text: "hellO", equals_offset: 2/' \
	"$tmp/buffers.yaml" >"$tmp/buffers_wrong.yaml"
expect buffers_wrong 1 "$tmp/buffers_wrong.yaml"
has buffers_wrong "$tmp/err" "buffers_wrong.yaml:[0-9]+:[0-9]+: step 7 \(verify\) 'fo': equals_text: mr 'fdst' differs from text \"hellO\" at offset 104: 0x6f, expected 0x4f \(1 of 3 bytes differ\)"
has buffers_wrong "$tmp/out" "^step 7 +verify +'fo' +failed"
ok "a wrong text fails: $(grep -o "mr 'fdst' differs.*" "$tmp/err" | head -n1)"
rm -f /dev/shm/rdmascn-steps-buf.bin
# More huge pages than the VM reserves (8): skipped before anything is
# created, naming hugetlb.
sed 's/length: 4096, access: \[local_write, remote_write\], memory: hugetlb/length: 67108864, access: [local_write, remote_write], memory: hugetlb/' \
	"$tmp/buffers.yaml" >"$tmp/buffers_nohuge.yaml"
run_scn "$tmp/out" "$tmp/err" --check-leaks "$tmp/buffers_nohuge.yaml"
[ $rc = 77 ] || { cat "$tmp/out" "$tmp/err"; fail "buffers_nohuge: exit $rc, want 77"; }
has buffers_nohuge "$tmp/err" "buffers_nohuge.yaml:[0-9]+:[0-9]+: mr 'hdst': rxe0 has no hugetlb: 67108864 bytes of 2 MiB huge pages"
grep -q '^created' "$tmp/out" && fail "buffers_nohuge: skipped after creating objects"
ok "32 huge pages where 8 are reserved: skipped, $(grep -o "has no hugetlb.*" "$tmp/err" | head -n1)"

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
ok "parallel steps on shared CQs (busy and events) pass; a failing one stops its siblings"

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
vars=()
for s in sw sr ss sm sd; do
	vars+=("tp_$s=.steps[] | select(.id == \"$s\") | .figures.throughput |
		.\"MB/s\" > 0 and .Mpps > 0 and .messages > 0"
		"step_$s=.steps[] | select(.id == \"$s\")")
done
for s in pw ps; do
	vars+=("lat_$s=.steps[] | select(.id == \"$s\") | .figures.latency |
		.samples == 500 and .unit == \"usec\" and .min <= .typical and
		.typical <= .p99 and .p99 <= .max"
		"step_$s=.steps[] | select(.id == \"$s\")")
done
recvars -- "${vars[@]}" sw_ok='.steps[] | select(.id == "sw") | .figures.throughput |
	.messages == 2000 and .size_bytes == 4096'
for s in sw sr ss sm sd; do
	v=tp_$s w=step_$s
	[ "${!v}" = true ] || fail "stream $s: record ${!w}"
done
[ "$sw_ok" = true ] || fail "stream sw: $step_sw"
for s in pw ps; do
	v=lat_$s w=step_$s
	[ "${!v}" = true ] || fail "pingpong $s: record ${!w}"
done
ok "stream (write, read, send, two QPs, duration) and pingpong (write, send, events)"
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
recvars -- gates_ok='[.steps[] | .gates[]? | .passed and (.value | type == "number")] |
	length == 3 and all' gates='[.steps[] | .gates]' \
	n_s='.steps[] | select(.id == "pg") | .figures.latency.samples' \
	n_hist='.steps[] | select(.id == "pg") | .figures.latency.histogram.counts | add'
[ "$gates_ok" = true ] || fail "gates: record $gates"
# ... and the text report shows each gate that held under its step.
grep -qE '^  gate latency\.typical <= 1e\+06 usec: [0-9.e+-]+ usec held$' "$tmp/out" &&
grep -qE '^  gate latency\.min >= 0 usec: [0-9.e+-]+ usec held$' "$tmp/out" &&
grep -qE '^  gate throughput\.MB/s >= 1e-06 MB/s: [0-9.e+-]+ MB/s held$' "$tmp/out" ||
	{ cat "$tmp/out"; fail "gates: the text report does not show them"; }
# --samples: a row per measured round trip, as many as the figures say,
# and the histogram counts them all.
[ "$(head -1 "$tmp/gates.csv")" = "cell,step,iteration,usec" ] &&
[ "$(grep -cE '^,pg,[0-9]+,[0-9]+\.[0-9]{3}$' "$tmp/gates.csv")" = "$n_s" ] &&
[ "$(wc -l <"$tmp/gates.csv")" = $((n_s + 1)) ] &&
[ "$n_hist" = "$n_s" ] ||
	fail "samples: $n_s samples, $(wc -l <"$tmp/gates.csv") lines: $(head -3 "$tmp/gates.csv")"
ok "--samples: $n_s rows, and the histogram counts $n_s"
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
ok "gates: bounds that hold pass; latency.typical max 0.001 fails at its line"

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
ok "a write with offset/stride 100/1000 to remote 356/1256 landed there, gaps zero"
# Receives into dst 1256 apart from 356; sends from src 1000 apart from 100.
wscn wr_recv_strides "  - recv: {id: r, qp: b, local: dst, offset: 356, stride: 1256, length: 50, count: 4, wr_id: 0}
  - send: {id: s, qp: a, local: src, offset: 100, stride: 1000, length: 50, iterations: 4, verify: true, wr_id: 0}
$(placed dst 356 50 1256 4)"
expect wr_recv_strides 0 "$tmp/wr_recv_strides.yaml"
ok "4 strided receives from offset 356 took 4 strided sends from offset 100, gaps zero"
# A read split at 3000 bytes (7 WRs: 6 of 3000, then 2000) on a send
# queue of 8: chained, the last signalled.
wscn wr_split_read "  - read: {id: rd, qp: a, local: back, remote: big, length: 20000, max_msg_sz: 3000, verify: true}
  - verify: {id: all, mr: back, pattern: pattern}"
expect wr_split_read 0 "$tmp/wr_split_read.yaml"
has wr_split_read "$tmp/out" "^step 1 +read +'rd' +passed .* 7 wr +split: 7 WRs a message, of 3000 B \(max_msg_sz 3000\)"
[ "$(rec '.steps[0].figures.split.wrs_per_message')" = 7 ] ||
	fail "wr_split_read: record $(rec -c '.steps[0].figures')"
ok "a 20000-byte read split at 3000 into 7 WRs arrived whole"
# A write gathered from hdr (0xab) and src at 1000 (bytes 0xe8, 0xe9,
# ...), to dst at 4096.
wscn wr_sge "  - write: {id: g, qp: a, remote: dst, remote_offset: 4096, verify: true, sge: [{mr: hdr}, {mr: src, offset: 1000, length: 100}]}
  - verify: {mr: dst, offset: 4096, length: 64, equals: hdr}
  - verify: {mr: dst, offset: 4160, length: 8, equals_u64: 0xefeeedecebeae9e8}
  - verify: {mr: dst, offset: 4260, pattern: zero}"
expect wr_sge 0 "$tmp/wr_sge.yaml"
ok "a write gathered from two MRs landed as header then payload"
# The same through ibv_wr_* (an ex QP): the whole SGE list is set
# (ibv_wr_set_sge_list), not its first entry alone.
sed 's/{id: a, pd: pd, type: rc, send_cq: cq, cap:/{id: a, pd: pd, type: rc, send_cq: cq, ex: true, send_ops: [write], cap:/' \
	"$tmp/wr_sge.yaml" >"$tmp/wr_sge_ex.yaml"
grep -q 'ex: true' "$tmp/wr_sge_ex.yaml" || fail "wr_sge_ex: no ex QP"
# rdma-core before v64 (406cd2ad0) has rxe's wr_set_sge_list() take
# the list's length as num_sge times the first SGE's: here 2 x 64 = 128
# bytes of the 164 reach dst, which the step's verify: must say.
ibverbs=$(dpkg-query -W -f='${Version}' libibverbs1 2>/dev/null)
if dpkg --compare-versions "${ibverbs:-0}" lt 64; then
	expect wr_sge_ex 1 -v "$tmp/wr_sge_ex.yaml"
	has wr_sge_ex "$tmp/err" "step 1 \(write\) 'g': verify: the bytes moved differ at byte 128 of message 1 of 1"
else
	expect wr_sge_ex 0 -v "$tmp/wr_sge_ex.yaml"
fi
has wr_sge_ex "$tmp/err" "ibv_wr_set_sge_list\(qp=a num=2 sg_list\[0\]\.lkey=.* sg_list\[1\]\.length=100\)"
ok "an ex QP's write gathered from two MRs is one ibv_wr_set_sge_list of both (libibverbs $ibverbs: $(grep -c 'differ at byte 128' "$tmp/err") short by rxe's own sum)"
# ud_send from offset 300 of src (bytes 0x2c, 0x2d, ...) to v, after
# the 40-byte GRH.
wscn wr_ud_offset "  - recv: {id: r, qp: v, local: ud_rx, length: 104}
  - ud_send: {id: s, qp: u, ah: to_v, to: v, local: src, offset: 300, length: 64, verify: true}
  - verify: {mr: ud_rx, offset: 40, length: 8, equals_u64: 0x333231302f2e2d2c}"
expect wr_ud_offset 0 "$tmp/wr_ud_offset.yaml"
ok "a ud_send from offset 300 delivered those bytes"
# A chosen wr_id comes back in the completion the device returns.
wscn wr_id_back "  - write: {id: w, qp: a, local: src, remote: dst, length: 64, rkey: 0x1234, wr_id: 0x77}"
expect wr_id_back 1 "$tmp/wr_id_back.yaml"
has wr_id_back "$tmp/err" "step 1 \(write\) 'w': rdma_write wr 0x77 \(#0\) completed with rem_access_err"
ok "wr_id 0x77 came back in the failed completion"
# Overlapping chosen ids on one receive queue, while the first step's
# receives are outstanding: the second cannot run.
wscn wr_id_clash "  - recv: {id: r1, qp: b, local: dst, length: 64, count: 4, wr_id: 10}
  - recv: {id: r2, qp: b, local: dst, length: 64, count: 2, wr_id: 12}"
expect wr_id_clash 3 "$tmp/wr_id_clash.yaml"
has wr_id_clash "$tmp/err" "step 2 \(recv\) 'r2': wr_id: 12 \.\. 13 on qp 'b' overlap the wr_ids of step 1 \(recv\) 'r1'"
ok "overlapping wr_ids on one receive queue are refused"
# A max_msg_sz above the port's cannot run; the message says the port's.
wscn wr_over_port "  - write: {id: w, qp: a, local: src, remote: dst, length: 64, max_msg_sz: 4294967295}"
expect wr_over_port 3 "$tmp/wr_over_port.yaml"
has wr_over_port "$tmp/err" "max_msg_sz: 4294967295 exceeds the port's max_msg_sz \([0-9]+\)"
port_max=$(sed -n "s/.*exceeds the port's max_msg_sz (\([0-9]*\)).*/\1/p" "$tmp/err" | head -n1)
ok "max_msg_sz above the port's: the port's is $port_max"
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
ok "$((port_max + 1)) bytes split at the port's max_msg_sz: $(grep -o 'split: .*' "$tmp/out")"

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
ok "progress on a terminal: $(grep -o $'step 1 stream [^\r]*completions[^\033]*' "$tmp/tty" | tail -n 1)"

# UD replies and what completions say.  The reply seed: each reply's AH
# is made from the request's completion (src_qp the client's QPN) during
# the steps, created after every other object and destroyed first; the
# GRH's sgid/dgid are rxe0's IPv4-mapped GID; the replies' receives came
# from the server (wc: src_qp).  A wrong src_qp or sgid fails the recv's
# check at its line; an extended CQ's fields are in the record.
ud=$scndir/seeds/pyrdma_ud_reply.yaml
expect ud_reply 0 -v "$ud"
# qpn ID: the QP's number (decimal), qpx ID: as the messages print it.
qpn() { echo $(($(rec ".objects[] | select(.id == \"$1\") | .facts.qpn"))); }
qpx() { printf '0x%x' "$(qpn "$1")"; }
for i in 1 2; do
	has ud_reply "$tmp/err" "ibv_create_ah_from_wc\\(pd=pd port=1 src_qp=$(qpx client$i) .*grh=yes dgid=::ffff:10\\.99\\.0\\.1 .*# ah 'back$i'"
done
[ "$(created "$tmp/out" | tail -n 2 | tr '\n' ' ')" = "ah 'back1' ah 'back2' " ] ||
	fail "ud_reply: the reply AHs were not created last: $(created "$tmp/out" | tr '\n' ' ')"
[ "$(destroyed "$tmp/out" | head -n 2 | tr '\n' ' ')" = "ah 'back2' ah 'back1' " ] ||
	fail "ud_reply: the reply AHs were not destroyed first"
ok "ud reply: $(grep -o "ibv_create_ah_from_wc([^)]*)" "$tmp/err" | head -n 1)"
# -v shows a UD WR's address as the dry run does (one code prints both):
# the ah by its id, then the QPN and Q_Key it goes to, for a send to a
# QP and for a reply; and the same fields, in the same order, as the dry
# run's first post of each of those steps.
has ud_reply "$tmp/err" "^       ibv_post_send\\(qp=client1 wr\\[0\\]\\.wr_id=.* wr\\[0\\]\\.wr\\.ud\\.ah=to_server wr\\[0\\]\\.wr\\.ud\\.remote_qpn=$(qpx server) wr\\[0\\]\\.wr\\.ud\\.remote_qkey=0x11111111 wr\\[0\\]\\.next=NULL\\)  # step 'ask1'\$"
has ud_reply "$tmp/err" "^       ibv_post_send\\(qp=server .* wr\\[0\\]\\.wr\\.ud\\.ah=back1 wr\\[0\\]\\.wr\\.ud\\.remote_qpn=$(qpx client1) wr\\[0\\]\\.wr\\.ud\\.remote_qkey=0x11111111 .*# step 'reply1'\$"
cp "$tmp/err" "$tmp/ud_v"
"$rdmascn" run -n "$ud" >"$tmp/ud_dry" 2>&1 || fail "ud_reply -n: exit $?"
# post_keys FILE STEP: the wr[0] fields of STEP's first post, in order.
post_keys() {
	grep -m1 "^       ibv_post_send(.*  # step '$2'\$" "$1" |
		grep -o ' wr\[0\]\.[a-z_.]*\(\[[0-9]*\]\.[a-z_]*\)\?=' | tr -d ' ='
}
for s in ask1 reply1; do
	dry=$(post_keys "$tmp/ud_dry" $s | tr '\n' ' ')
	real=$(post_keys "$tmp/ud_v" $s | tr '\n' ' ')
	case $dry in *wr.ud.remote_qkey*) ;; *) fail "ud_reply -n, $s: no remote_qkey: $dry";; esac
	[ "$dry" = "$real" ] ||
		fail "ud_reply, $s: -v shows $real; the dry run $dry"
done
ok "ud -v: the dry run's fields: $(post_keys "$tmp/ud_v" ask1 | tr '\n' ' ')"
sed 's/wc: {src_qp: client2}/wc: {src_qp: client1}/' "$ud" >"$tmp/ud_wrong_qp.yaml"
expect ud_wrong_qp 1 "$tmp/ud_wrong_qp.yaml"
has ud_wrong_qp "$tmp/err" ":[0-9]+:5: step 5 \\(recv\\) 'srv_rx2': recv wr 0x[0-9a-f]+ completed with success, qp_num $(qpx server), but src_qp $(qpx client2), expected $(qpx client1) \\(reaped by step 7 \\(ud_send\\) 'ask2'\\)"
sed 's/grh: {sgid_of: ctx, dgid_of: ctx}, wc: {src_qp: client1/grh: {sgid: "::ffff:10.99.0.7", dgid_of: ctx}, wc: {src_qp: client1/' "$ud" >"$tmp/ud_wrong_gid.yaml"
expect ud_wrong_gid 1 "$tmp/ud_wrong_gid.yaml"
has ud_wrong_gid "$tmp/err" "'srv_rx1': recv wr .* but grh sgid ::ffff:10\\.99\\.0\\.1, expected ::ffff:10\\.99\\.0\\.7"
ok "ud checks: $(grep -o "but grh sgid.*expected [^ ]*" "$tmp/err")"
expect cq_ex 0 "$scndir/seeds/pyverbs_cq_ex.yaml"
# Two jqs, not six: the QPNs (hex strings; $((...)) makes them numbers),
# then the completions with them.
recvars -- qa='.objects[] | select(.id == "a") | .facts.qpn' \
	qb='.objects[] | select(.id == "b") | .facts.qpn'
qa=$((qa)) qb=$((qb))
recvars -- rwc_ok=".steps[] | select(.id == \"send\") | .recv_wc | .completions == 16 and .byte_len == 552 and .src_qp == $qa and .qp_num == $qb and .sl == 0" \
	wc_ok=".steps[] | select(.id == \"send\") | .wc | .completions == 16 and .qp_num == $qa" \
	rwc='.steps[] | select(.id == "send") | .recv_wc' \
	wc='.steps[] | select(.id == "send") | .wc'
[ "$rwc_ok" = true ] || fail "cq_ex: recv_wc $rwc"
[ "$wc_ok" = true ] || fail "cq_ex: wc $wc"
ok "cq_ex read: $rwc"
sed 's/wc: {qp_num: b, src_qp: a, sl: 0,/wc: {qp_num: b, src_qp: a, sl: 3,/' "$scndir/seeds/pyverbs_cq_ex.yaml" >"$tmp/cq_ex_sl.yaml"
expect cq_ex_sl 1 "$tmp/cq_ex_sl.yaml"
has cq_ex_sl "$tmp/err" "'post': recv wr .* but sl 0, expected 3"
sed 's/wc_flags: \[byte_len, imm, qp_num, src_qp, slid, sl, dlid_path_bits\]}/wc_flags: [byte_len, cvlan]}/' "$scndir/seeds/pyverbs_cq_ex.yaml" >"$tmp/cq_ex_cvlan.yaml"
run_scn "$tmp/out" "$tmp/err" --check-leaks "$tmp/cq_ex_cvlan.yaml"
[ $rc = 77 ] || { cat "$tmp/out" "$tmp/err"; fail "cq_ex_cvlan: exit $rc, want 77"; }
has cq_ex_cvlan "$tmp/err" "cq 'send_cq': rxe0 has no wc_flags cvlan"
grep -q '^created' "$tmp/out" && fail "cq_ex_cvlan: created objects before the skip"
ok "cq_ex skip: $(grep -o "rxe0 has no wc_flags.*" "$tmp/err")"

# Errors met along the way (issue 18 item 9), each with its exact text
# and place.  A GID index rxe0 port 1 lacks (it has 0 and 1: the link
# local and 10.99.0.1), with `device: any` and by name: exit 3 at
# `gid_index:`.
own=$(dirname "$0")/scn
f=$own/gid_missing.yaml
col=$(awk '/gid_index: 3/ { print index($0, "gid_index: 3") + 11 }' "$f")
line=$(grep -n 'gid_index: 3' "$f" | cut -d: -f1)
for dev in any rxe0; do
	run_scn "$tmp/out" "$tmp/err" --set device=$dev "$f"
	[ $rc = 3 ] || { cat "$tmp/out" "$tmp/err"; fail "gid $dev: exit $rc, want 3"; }
	[ "$(cat "$tmp/err")" = "$f:$line:$col: context 'ctx': gid_index: rxe0 port 1 has no GID 3 (0–1)" ] ||
		{ cat "$tmp/err"; fail "gid $dev: not the message"; }
	[ "$(rec -c '.errors[0] | [.line, .col]')" = "[$line,$col]" ] || fail "gid $dev: record $(rec -c .errors)"
done
ok "gid_index 3: $(cat "$tmp/err")"

# A ping-pong message above max_msg_sz (8 MiB on rxe; a write or send
# step would split it) passes with one warning at `size:`; a path MTU
# above the active one with a warning at `mtu:`; both in the record.
f=$own/msg_too_big.yaml
expect msg_too_big 0 "$f"
line=$(grep -n 'size: 16777216, iterations' "$f" | cut -d: -f1)
col=$(awk '/size: 16777216, iterations/ { print index($0, "size: 16777216") + 6 }' "$f")
want="$f:$line:$col: warning: step 1 (pingpong) 'big': size: 16777216 bytes exceed rxe0 port 1 max_msg_sz (8388608)"
[ "$(cat "$tmp/err")" = "$want" ] || { cat "$tmp/err"; echo "want: $want"; fail "msg_too_big: not the warning"; }
[ "$(rec -c '.warnings | map([.line, .col, .message])')" = "[[$line,$col,\"step 1 (pingpong) 'big': size: 16777216 bytes exceed rxe0 port 1 max_msg_sz (8388608)\"]]" ] ||
	fail "msg_too_big: record $(rec -c .warnings)"
ok "$(cat "$tmp/err")"
f=$own/mtu_too_big.yaml
expect mtu_too_big 0 "$f"
line=$(grep -n 'mtu: 4096' "$f" | cut -d: -f1)
col=$(awk '/mtu: 4096/ { print index($0, "mtu: 4096") + 5 }' "$f")
want="$f:$line:$col: warning: connection 'ab': mtu: 4096 exceeds rxe0 port 1 active_mtu (1024)"
[ "$(cat "$tmp/err")" = "$want" ] || { cat "$tmp/err"; echo "want: $want"; fail "mtu_too_big: not the warning"; }
[ "$(rec -r '.warnings[0].message')" = "connection 'ab': mtu: 4096 exceeds rxe0 port 1 active_mtu (1024)" ] ||
	fail "mtu_too_big: record $(rec -c .warnings)"
ok "$(cat "$tmp/err")"

# Descriptors: eight contexts with a channel CQ each need about 52 (the
# sixteen polled CQs beside them none); with
# a soft RLIMIT_NOFILE of 40 the engine raises it to the hard one and
# says so in the record; with a hard one of 16 it warns, and the call
# that runs out, creating the objects, names the limit.
f=$own/many_fds.yaml
hard=$(ulimit -Hn)
# (in a subshell: the limit stays there; its record's number is taken)
(ulimit -Sn 40; run_scn "$tmp/out" "$tmp/err" "$f"; echo $rc >"$tmp/rc")
nrec=$((nrec + 1))
[ "$(cat "$tmp/rc")" = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "many_fds: exit $(cat "$tmp/rc")"; }
# (Its values and that there are no others: gojq does not keep the keys'
# order.)
[ "$(rec -r '.rlimit_nofile | [.soft, .hard, .needed, .raised_to, length] | map(tostring) | join(" ")')" = "40 $hard 52 $hard 4" ] ||
	fail "many_fds: record $(rec -c .rlimit_nofile)"
ok "many_fds, soft limit 40: $(rec -c .rlimit_nofile)"
(ulimit -n 16; run_scn "$tmp/out" "$tmp/err" "$f"; echo $rc >"$tmp/rc")
nrec=$((nrec + 1))
[ "$(cat "$tmp/rc")" = 3 ] || { cat "$tmp/out" "$tmp/err"; fail "many_fds, 16: exit $(cat "$tmp/rc"), want 3"; }
head -n1 "$tmp/err" | grep -qx "warning: the scenario needs about 52 file descriptors, above RLIMIT_NOFILE's hard limit (16): raise it (ulimit -Hn, limits.conf) if a call fails with too many open files" ||
	{ cat "$tmp/err"; fail "many_fds, 16: no warning first"; }
grep -Eq "^$f:[0-9]+:[0-9]+: (context 'c[0-9]': (ibv_open_device|rxe0)|cq 'q[0-9]': ibv_create_comp_channel): too many open files \(RLIMIT_NOFILE soft 16, hard 16\)$" "$tmp/err" ||
	{ cat "$tmp/err"; fail "many_fds, 16: no located EMFILE message"; }
ok "many_fds, limit 16: $(grep 'too many' "$tmp/err")"
# With 30 the last object or the step's loop runs out: a located error,
# exit 3, not libuv's abort() (its process-wide set-up is done before
# the objects take the descriptors).
(ulimit -n 30; run_scn "$tmp/out" "$tmp/err" "$f"; echo $rc >"$tmp/rc")
nrec=$((nrec + 1))
[ "$(cat "$tmp/rc")" = 3 ] || { cat "$tmp/out" "$tmp/err"; fail "many_fds, 30: exit $(cat "$tmp/rc"), want 3"; }
grep -Eq "^$f:[0-9]+:[0-9]+: (cq 'q[0-9]': ibv_create_comp_channel|step 1 \(sleep\) 'nap': [a-z_ ]+): too many open files \(RLIMIT_NOFILE soft 30, hard 30\)$" "$tmp/err" ||
	{ cat "$tmp/err"; fail "many_fds, 30: no located EMFILE message"; }
ok "many_fds, limit 30: $(grep 'too many' "$tmp/err")"

# -v shows the posts a step makes: its WRs with wr_ids, flags, SGEs.
run_scn "$tmp/out" "$tmp/err" -v --set iters=4 --set depth=4 --set signal_every=2 "$scndir/rc_write.yaml"
[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "rc_write -v: exit $rc"; }
[ "$(grep -c '^       ibv_post_send(qp=a wr\[0\].wr_id=0x[0-9a-f]* wr\[0\].opcode=IBV_WR_RDMA_WRITE wr\[0\].send_flags=\(0\|signaled\) wr\[0\].sg_list\[0\].addr=0x[0-9a-f]* wr\[0\].sg_list\[0\].length=65536 wr\[0\].sg_list\[0\].lkey=0x[0-9a-f]* wr\[0\].wr.rdma.remote_addr=0x[0-9a-f]* wr\[0\].wr.rdma.rkey=0x[0-9a-f]* wr\[0\].next=NULL)  # step .write.$' "$tmp/err")" = 4 ] ||
	{ grep post_send "$tmp/err"; fail "rc_write -v: not 4 posts shown"; }
ok "-v: $(grep -m1 post_send "$tmp/err")"
# On an ex QP -v shows the ibv_wr_* calls the run makes, in their order,
# as the dry run does: a start, the op with its rkey and address, the
# SGE, the complete; 100 writes in chains of one, 10 sends with imm.
run_scn "$tmp/out" "$tmp/err" -v "$scndir/ex_qp.yaml"
[ $rc = 0 ] || { cat "$tmp/out" "$tmp/err"; fail "ex_qp -v: exit $rc"; }
grep -A3 -m1 '^       ibv_wr_start(qp=a)  # step 1 (write)$' "$tmp/err" >"$tmp/ex_seq"
sed 's/0x[0-9a-f]*/N/g' "$tmp/ex_seq" >"$tmp/ex_got"
cat >"$tmp/ex_want" <<'TXT'
       ibv_wr_start(qp=a)  # step 1 (write)
       ibv_wr_rdma_write(qp=a wr_id=N wr_flags=signaled rkey=N remote_addr=N)  # step 1 (write)
       ibv_wr_set_sge(qp=a lkey=N addr=N length=4096)  # step 1 (write)
       ibv_wr_complete(qp=a)  # step 1 (write)
TXT
diff -u "$tmp/ex_want" "$tmp/ex_got" || fail "ex_qp -v: not the ibv_wr_* sequence"
[ "$(grep -c '^       ibv_wr_rdma_write(qp=a ' "$tmp/err")" = 100 ] &&
	[ "$(grep -c '^       ibv_wr_send_imm(qp=a .* imm_data=7)  # step 4 (send)$' "$tmp/err")" = 10 ] ||
	fail "ex_qp -v: not 100 writes and 10 sends with imm: $(grep -c ibv_wr_ "$tmp/err") ibv_wr_ calls"
grep -q 'ibv_post_send(qp=a' "$tmp/err" && fail "ex_qp -v: an ibv_post_send the run did not make"
ok "-v on an ex QP: $(tr -s ' ' <"$tmp/ex_seq" | cut -d'#' -f1 | tr '\n' ';')"

# bench/long_qps.yaml, the 2000-QP soak, small: 40 QPs in 10 groups,
# 1.5 s.  One parallel step of 10 streams, each over its group's QPs,
# ends and tears down clean.  Its first form named a counted MR as the
# stream's remote, which counted the step (one whole stream per element,
# run in turn) and "hung" bench/long_runs.sh: the count of steps is
# asserted here.
expect long_qps 0 "$scndir/../bench/long_qps.yaml" --set n=20 --set ms=1500
recvars -- nstreams='[.steps[] | select(.type == "stream")] | length' \
	nsteps='.steps | length' steps='[.steps[] | {no, type, outcome}]' \
	moved='[.steps[] | select(.type == "stream") | .figures.throughput.messages > 0] | all' \
	figures='[.steps[] | .figures]'
[ "$nstreams" = 10 ] && [ "$nsteps" = 11 ] ||
	fail "long_qps: steps $steps"
[ "$moved" = true ] || fail "long_qps: a stream moved nothing: $figures"
ok "long_qps, 40 QPs: $(grep -E '^step 1 ' "$tmp/out")"

# -q alone: nothing reads the objects' facts, so a real run gathers none
# and reads no connection's QPs back; with --json it reads both sides of
# each connection (docs/rdmascn.1.md, -q).  Counted by strace, when the
# guest has it.
if command -v strace >/dev/null; then
	strace -f -qq -e trace=ioctl -o "$tmp/ioctl_q" "$rdmascn" run -q \
		"$scndir/rc_many.yaml" --set n=4 >"$tmp/out" 2>"$tmp/err" ||
		fail "facts -q: $(cat "$tmp/err")"
	strace -f -qq -e trace=ioctl -o "$tmp/ioctl_j" "$rdmascn" run -q \
		--json "$tmp/rec.json" "$scndir/rc_many.yaml" --set n=4 \
		>"$tmp/out" 2>"$tmp/err" || fail "facts --json: $(cat "$tmp/err")"
	recvars -- nconn='[.objects[] | select(.kind == "connection")] | length' \
		nset='[.objects[] | select(.kind == "connection") | .facts.settings | length] | add'
	q=$(grep -c ioctl "$tmp/ioctl_q") j=$(grep -c ioctl "$tmp/ioctl_j")
	[ "$nconn" -gt 0 ] && [ "$nset" = $((2 * nconn)) ] ||
		fail "facts --json: $nconn connections, $nset sides' settings"
	[ $((j - q)) = $((2 * nconn)) ] ||
		fail "facts -q: $q ioctls, --json $j: want $((2 * nconn)) fewer"
	ok "facts -q: $q ioctls, --json $j ($nconn connections read back)"
else
	ok "facts -q: no strace in the guest, read-back not counted"
fi

echo "steps as expected"
