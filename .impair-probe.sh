#!/bin/bash
# By-hand probe: does netem on veth2 make rxe_a -> rxe_b RC traffic retransmit?
cd /work/wt-impair
. tests/rxe/lib.sh 2>/dev/null
rdmascn=/work/main/build/bin/rdmascn
trap 'veth_rxe_down' EXIT
veth_rxe_up || { echo setup failed; exit 1; }
hw() { for f in /sys/class/infiniband/rxe_a/ports/1/hw_counters/*; do echo "$(basename $f)=$(cat $f)"; done | tr '\n' ' '; echo; }
echo "--- before:"; hw
ls -l /sys/class/infiniband/rxe_a/ports/1/gid_attrs/ndevs/ 2>&1 | head -3; cat /sys/class/infiniband/rxe_a/parent 2>&1; cat /sys/class/infiniband/rxe_a/ports/1/gid_attrs/ndevs/0 2>&1
tc qdisc show dev veth2
t0=$(date +%s.%N)
$rdmascn run scenarios/fabric/loss.yaml --set iters=500 2>&1 | tail -3
echo "no loss: $(echo "$(date +%s.%N) - $t0" | bc) s"; echo "--- after clean:"; hw
tc qdisc add dev veth2 root handle 5253: netem loss 2%
tc qdisc show dev veth2
t0=$(date +%s.%N)
$rdmascn run scenarios/fabric/loss.yaml --set iters=500 2>&1 | tail -3
echo "2% loss: $(echo "$(date +%s.%N) - $t0" | bc) s"; echo "--- after 2% loss:"; hw
tc qdisc del dev veth2 root
tc qdisc show dev veth2
echo "ETHTOOL/driver:"; cat /sys/class/infiniband/rxe_a/device/uevent 2>&1; ls /sys/class/infiniband/rxe_a/; rdma dev show rxe_a 2>&1; rdma -d dev show 2>&1 | head; rdma link show 2>&1
