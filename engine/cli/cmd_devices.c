// SPDX-License-Identifier: MIT
#include <errno.h>
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "devices.h"
#include "plugin.h"
#include "report.h"

int rs_cmd_devices(const struct rs_cmd *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "device", required_argument, NULL, 'd' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "softroce", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *name = NULL;
	struct rs_val *devs;
	char advice[512];
	bool json = false, all = false;
	int c, r;

	while ((c = getopt_long(argc, argv, ":jd:vh", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'd':
			name = optarg;
			break;
		case 'v':
			all = true; /* as ibv_devinfo -v: every attribute */
			break;
		case 'S':
			break; /* handled below, once the line is known good */
		case 'h':
			rs_cmd_usage(cmd, stdout);
			return RS_EXIT_PASSED;
		default:
			return rs_cmd_bad_option(cmd, argv, c);
		}
	}
	if (optind < argc)
		return rs_cmd_usage_error(cmd, "Unexpected argument '%s'.",
					  argv[optind]);
	r = rs_softroce_maybe_reexec(argc, argv);
	if (r)
		return r;

	rs_cli_plugins_load(rs_verbose);
	r = rs_devices_describe(name, &devs);
	if (r == -ENODEV) {
		if (name)
			fprintf(stderr, "rdmascn: no RDMA device '%s'.\n", name);
		else if (rs_devices_advice(advice, sizeof(advice),
				"rdmascn softroce -- rdmascn devices") > 0)
			fputs(advice, stderr);
		return RS_EXIT_CANTRUN;
	}
	if (r < 0) {
		fprintf(stderr, "rdmascn: cannot list devices: %s\n",
			strerror(-r));
		return RS_EXIT_CANTRUN;
	}
	if (json)
		r = rs_val_write_json(stdout, devs, true);
	else
		rs_devices_text(stdout, devs, all);
	rs_val_free(devs);
	rs_plugins_unload();
	if (r < 0) {
		fprintf(stderr, "rdmascn: writing output: %s\n", strerror(-r));
		return RS_EXIT_CANTRUN;
	}
	return RS_EXIT_PASSED;
}
