// SPDX-License-Identifier: MIT
/* The wire without a netdev: netem's values, the transport timeout, and
 * which devices netem reaches (a made-up sysfs). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "list.h"
#include "wire.h"

TEST(wire, percent)
{
	uint32_t p = 7;

	CHECK_INT(rs_wire_percent("2%", &p), 0);
	/* tc's scale: 2% of UINT32_MAX, rounded. */
	CHECK_UINT(p, 85899346u);
	CHECK_INT(rs_wire_percent("100%", &p), 0);
	CHECK_UINT(p, UINT32_MAX);
	CHECK_INT(rs_wire_percent("0%", &p), 0);
	CHECK_UINT(p, 0);
	CHECK_INT(rs_wire_percent("0.5%", &p), 0);
	CHECK_UINT(p, 21474836u);
	CHECK_INT(rs_wire_percent(".5%", &p), 0);
	CHECK_UINT(p, 21474836u);
	/* Back for the record: what was asked. */
	CHECK_INT(rs_wire_percent("2%", &p), 0);
	CHECK(rs_wire_prob_pct(p) > 1.9999 && rs_wire_prob_pct(p) < 2.0001);
	/* Not a percent: untouched. */
	p = 7;
	CHECK_INT(rs_wire_percent("2", &p), -EINVAL);
	CHECK_INT(rs_wire_percent("101%", &p), -EINVAL);
	CHECK_INT(rs_wire_percent("-1%", &p), -EINVAL);
	CHECK_INT(rs_wire_percent("2 %", &p), -EINVAL);
	CHECK_INT(rs_wire_percent("2%%", &p), -EINVAL);
	CHECK_INT(rs_wire_percent("%", &p), -EINVAL);
	CHECK_INT(rs_wire_percent("", &p), -EINVAL);
	CHECK_INT(rs_wire_percent("nan%", &p), -EINVAL);
	CHECK_UINT(p, 7);
}

TEST(wire, time)
{
	uint32_t us = 7;

	CHECK_INT(rs_wire_time_us("10ms", &us), 0);
	CHECK_UINT(us, 10000);
	CHECK_INT(rs_wire_time_us("250us", &us), 0);
	CHECK_UINT(us, 250);
	CHECK_INT(rs_wire_time_us("1.5s", &us), 0);
	CHECK_UINT(us, 1500000);
	CHECK_INT(rs_wire_time_us("0.5ms", &us), 0);
	CHECK_UINT(us, 500);
	CHECK_INT(rs_wire_time_us("4294s", &us), 0);
	CHECK_UINT(us, 4294000000u);
	us = 7;
	/* netem holds 32 bits of microseconds: 71 minutes. */
	CHECK_INT(rs_wire_time_us("4295s", &us), -ERANGE);
	CHECK_INT(rs_wire_time_us("10", &us), -EINVAL);
	CHECK_INT(rs_wire_time_us("10 ms", &us), -EINVAL);
	CHECK_INT(rs_wire_time_us("10min", &us), -EINVAL);
	CHECK_INT(rs_wire_time_us("ms", &us), -EINVAL);
	CHECK_INT(rs_wire_time_us("-1ms", &us), -EINVAL);
	CHECK_UINT(us, 7);
}

TEST(wire, transport_timeout)
{
	/* The spec: 4.096 us * 2^T a try, retry_cnt + 1 tries. */
	double ms = rs_transport_timeout_ms(14, 1, 0);

	CHECK(ms > 134.21 && ms < 134.22);           /* 2 * 67.1 ms */
	ms = rs_transport_timeout_ms(18, 3, 0);
	CHECK(ms > 4294.9 && ms < 4295.0);           /* 4 * 1.07 s */
	/* rxe: a try is one jiffy at least (HZ 250: 4 ms). */
	ms = rs_transport_timeout_ms(8, 1, 4);
	CHECK(ms > 7.999 && ms < 8.001);             /* not 2 * 1.05 ms */
	ms = rs_transport_timeout_ms(12, 1, 4);
	CHECK(ms > 33.55 && ms < 33.56);             /* 2 * 16.78 ms */
	/* rxe retries forever with retry_cnt 7, and has no timer with
	 * timeout 0. */
	CHECK(rs_transport_timeout_ms(14, 7, 4) < 0);
	CHECK(rs_transport_timeout_ms(0, 1, 4) < 0);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[512], cmd[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	CHECK(system(cmd) == 0);
	if (!text) {
		CHECK(mkdir(path, 0700) == 0);
		return;
	}
	f = fopen(path, "w");
	CHECK(f);
	fputs(text, f);
	fclose(f);
}

TEST(wire, reach)
{
	char root[] = "/tmp/rs_wire_XXXXXX", ifn[32] = "", why[256] = "";
	char cmd[600], link[512];

	CHECK(mkdtemp(root));
	/* rxe_a over veth2: software, its netdev here. */
	put(root, "class/infiniband/rxe_a/ports/1/gid_attrs/ndevs/0",
	    "veth2\n");
	put(root, "class/infiniband/rxe_a/parent", "veth2\n");
	put(root, "class/net/veth2", NULL);
	CHECK_INT(rs_wire_reach(root, "rxe_a", 1, ifn, sizeof(ifn), why,
				sizeof(why)), 0);
	CHECK_STR(ifn, "veth2");
	/* mlx5_0: a PCI device with its driver. */
	put(root, "class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/0",
	    "ens1f0\n");
	put(root, "class/net/ens1f0", NULL);
	put(root, "bus/pci/drivers/mlx5_core", NULL);
	put(root, "devices/pci0000:00/0000:00:01.0", NULL);
	snprintf(link, sizeof(link), "%s/class/infiniband/mlx5_0/device",
		 root);
	CHECK(symlink("../../../devices/pci0000:00/0000:00:01.0", link) == 0);
	snprintf(link, sizeof(link), "%s/devices/pci0000:00/0000:00:01.0/"
		 "driver", root);
	CHECK(symlink("../../../bus/pci/drivers/mlx5_core", link) == 0);
	ifn[0] = '\0';
	CHECK_INT(rs_wire_reach(root, "mlx5_0", 1, ifn, sizeof(ifn), why,
				sizeof(why)), -EOPNOTSUPP);
	CHECK_STR(why, "mlx5_0: mlx5_core is a hardware NIC's driver: netem "
		  "on its netdev ens1f0 does not touch RDMA traffic");
	CHECK_STR(ifn, "");
	/* No netdev at the port (InfiniBand). */
	put(root, "class/infiniband/ib0dev/ports/1/gid_attrs/ndevs", NULL);
	CHECK_INT(rs_wire_reach(root, "ib0dev", 1, ifn, sizeof(ifn), why,
				sizeof(why)), -EOPNOTSUPP);
	CHECK(strstr(why, "ib0dev port 1 has no netdev"));
	/* A software device whose netdev is in another namespace. */
	put(root, "class/infiniband/rxe_x/ports/1/gid_attrs/ndevs/0",
	    "vethx\n");
	CHECK_INT(rs_wire_reach(root, "rxe_x", 1, ifn, sizeof(ifn), why,
				sizeof(why)), -EOPNOTSUPP);
	CHECK(strstr(why, "rxe_x: its netdev vethx is not in this network "
		     "namespace"));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}

/* Whose carrier goes with whose: a veth's two ends each other's, a
 * macvlan its lower device's (not the other way), a NIC only its own;
 * one set down does not come up with its link. */
TEST(wire, follows)
{
	static const struct {
		const char *name, *ifindex, *iflink, *flags;
	} nets[] = {
		{ "eth0", "2\n", "2\n", "0x1003\n" },
		{ "veth2", "5\n", "6\n", "0x1003\n" },
		{ "veth3", "6\n", "5\n", "0x1003\n" },
		{ "mv0", "7\n", "2\n", "0x1002\n" },
	};
	char root[] = "/tmp/rs_wire_XXXXXX", path[128], cmd[600];

	CHECK(mkdtemp(root));
	for (unsigned i = 0; i < sizeof(nets) / sizeof(nets[0]); i++) {
		snprintf(path, sizeof(path), "class/net/%s/ifindex",
			 nets[i].name);
		put(root, path, nets[i].ifindex);
		snprintf(path, sizeof(path), "class/net/%s/iflink",
			 nets[i].name);
		put(root, path, nets[i].iflink);
		snprintf(path, sizeof(path), "class/net/%s/flags",
			 nets[i].name);
		put(root, path, nets[i].flags);
	}
	for (int up = 0; up <= 1; up++) {
		CHECK(rs_wire_follows(root, "veth3", "veth2", up));
		CHECK(rs_wire_follows(root, "veth2", "veth3", up));
		CHECK(!rs_wire_follows(root, "eth0", "mv0", up));
		CHECK(!rs_wire_follows(root, "eth0", "eth0", up));
		CHECK(!rs_wire_follows(root, "veth2", "veth2", up));
		CHECK(!rs_wire_follows(root, "veth2", "eth0", up));
		CHECK(!rs_wire_follows(root, "gone0", "eth0", up));
	}
	/* mv0 is set down: eth0 down takes its carrier (no matter), eth0
	 * up does not bring it up. */
	CHECK(rs_wire_follows(root, "mv0", "eth0", false));
	CHECK(!rs_wire_follows(root, "mv0", "eth0", true));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
}
