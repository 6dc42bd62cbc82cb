// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "macros.h"
#include "outfile.h"

/* Dispatch is a table, as in iproute2; the usage text comes from it too. */
static const struct rs_cmd commands[] = {
	{ "run", rs_cmd_run, "[OPTIONS] FILE",
	  "build the scenario on a device, run its steps, tear it down",
	  "  -s, --set NAME=VALUE override a param\n"
	  "  -d, --device NAME    open this device for every context\n"
	  "  -n, --dry-run        print every verbs call, touch no device\n"
	  "      --check-leaks    after teardown, ask the kernel (RDMA\n"
	  "                       netlink) that nothing of this pid remains\n"
	  "      --json FILE      write the run record as JSON (- for stdout;\n"
	  "                       the text report then goes to stderr)\n"
	  "      --junit FILE     write JUnit XML: a testcase per step, and\n"
	  "                       set-up and teardown (- for stdout)\n"
	  "      --matrix NAME=V1,V2,...\n"
	  "                       run once per value (and per\n"
	  "                       combination with the file's matrix:)\n"
	  "      --jobs N         run N matrix cells at once, each in a\n"
	  "                       process of its own\n"
	  "      --deviations FILE  known deviations of devices and providers:\n"
	  "                       their steps' failures are reported skipped\n"
	  "      --strict         apply no known deviation\n"
	  "      --samples FILE   write every latency sample (usec, one\n"
	  "                       way) as CSV: cell,step,iteration,usec\n"
	  "      --graph-out FILE draw the graph coloured by what became\n"
	  "                       of each object and step: .dot/.gv, or\n"
	  "                       .svg/.png through Graphviz's dot\n"
	  "      --counters WHICH the ports' counters around each step:\n"
	  "                       errors (default: all in the record, the\n"
	  "                       error counters that moved in the text),\n"
	  "                       all (every one that moved, in the text\n"
	  "                       too), off (none read)\n"
	  "  -v, --verbose        print every verbs call as it is made\n"
	  "  -q, --quiet          print only the verdict line (errors still\n"
	  "                       go to stderr); no progress line\n"
	  "      --color WHEN     colour the outcomes: auto (a terminal,\n"
	  "                       TERM not dumb, NO_COLOR unset), always,\n"
	  "                       never\n"
	  "      --softroce       run inside the Soft-RoCE VM\n"
	  "      --node NAME      play this node of the file's nodes: (else\n"
	  "                       the launcher's rank: OMPI_COMM_WORLD_RANK,\n"
	  "                       SLURM_PROCID, PMI_RANK or PMIX_RANK)\n"
	  "      --rendezvous tcp|pmix|auto|HOST[:PORT]\n"
	  "                       how the nodes meet: the launcher's PMIx\n"
	  "                       server, or a TCP star at HOST:PORT\n"
	  "                       (default auto: PMIx under a launcher that\n"
	  "                       has it, else TCP at the first node's\n"
	  "                       address, port 18516)\n"
	  "      --key-file FILE  the run's key, which every node must hold\n"
	  "                       (mode 0600; else RDMASCN_KEY); without\n"
	  "                       one the nodes meet only on loopback\n"
	  "      --insecure       let nodes meet without a key elsewhere\n"
	  "\nEnvironment: RDMASCN_FAULT=WHICH:WHAT[,...] fails the WHICH-th\n"
	  "create/modify call (or the first call named WHICH) with errno\n"
	  "WHAT, or raises SIGINT/SIGTERM before it (WHAT=SIGINT).\n" },
	{ "explore", rs_cmd_explore, "[OPTIONS] FILE",
	  "search params for a figure's knee or a failure's boundary",
	  "  -s, --set NAME=VALUE fix a param for every cell\n"
	  "      --vary NAME=RANGE  a param to search: LO..HI (powers of two\n"
	  "                       between; :lin every integer, :step=N),\n"
	  "                       or V1,V2,...; K, M, G suffixes\n"
	  "      --maximize FIG   [STEP:]GROUP.KEY, e.g. throughput.MB/s\n"
	  "      --minimize FIG   e.g. latency.typical\n"
	  "      --find fail|gate a cell that does not pass, or whose gate\n"
	  "                       missed; then shrink it towards the defaults\n"
	  "      --budget-cells N at most N cells searching (default 64), as\n"
	  "                       many again shrinking\n"
	  "      --budget-time S  start no cell after S seconds\n"
	  "      --strategy WHICH bisect (default: a coarse grid, then\n"
	  "                       bisection for the knee or the boundary),\n"
	  "                       grid (every cell), anneal (a seeded walk)\n"
	  "      --seed N         the walk's seed (printed; default random)\n"
	  "      --knee PCT       the knee: the smallest value within PCT\n"
	  "                       of the best (default 10)\n"
	  "      --repeat N       run the cells that decide a knee N times\n"
	  "                       and judge on their medians (a repeat is\n"
	  "                       a cell of the budget)\n"
	  "      --jobs N         run N cells at once, each in a process\n"
	  "      --json FILE      every cell's record, the matrix document\n"
	  "                       with the search (- for stdout)\n"
	  "      --out-dir DIR    keep each cell's record and report in DIR\n"
	  "      --graph-out FILE.svg  the objective over the axes (gnuplot)\n"
	  "      --shrink-out FILE  write the shrunk failing case as a\n"
	  "                       scenario file, and run it alone\n"
	  "  -d, --device NAME    open this device for every context\n"
	  "  -n, --dry-run        cells as dry runs (no device, no figures)\n"
	  "      --deviations FILE  known deviations, as run's\n"
	  "      --strict         apply no known deviation\n"
	  "      --softroce       run inside the Soft-RoCE VM\n"
	  "  -q, --quiet          no progress line\n"
	  "      --color WHEN     auto, always, never\n"
	  "\nExit: 0 the search ran to its end or its budget (found or not,\n"
	  "as it says), 2 bad usage, 3 could not run, 128+N a signal.\n" },
	{ "validate", rs_cmd_validate, "[--set NAME=VALUE]... FILE...",
	  "check scenario files; every error as FILE:LINE:COL",
	  "  -s, --set NAME=VALUE override a param\n" },
	{ "plan", rs_cmd_plan, "[--set NAME=VALUE]... [-v] FILE",
	  "print the creation order, the steps, and the teardown order",
	  "  -s, --set NAME=VALUE override a param\n"
	  "  -v, --verbose        every element of a counted entry on a line\n"
	  "                       of its own (default: one line for all)\n" },
	{ "graph", rs_cmd_graph, "[OPTIONS] FILE",
	  "print the objects, steps and references as Graphviz DOT",
	  "  -s, --set NAME=VALUE override a param\n"
	  "  -f, --format FORMAT  dot (the default), svg or png; svg and png\n"
	  "                       are drawn by Graphviz's dot\n"
	  "  -o, --output FILE    write FILE instead of stdout; without\n"
	  "                       --format, a .svg or .png FILE says which\n" },
	{ "schema", rs_cmd_schema, "[--figures] [--help]",
	  "print the scenario language as a JSON Schema",
	  "      --figures       the run record's step figures instead\n" },
	{ "devices", rs_cmd_devices, "[OPTIONS]",
	  "list RDMA devices, ports, GIDs and capabilities",
	  "  -j, --json          print JSON: every attribute, always\n"
	  "  -d, --device NAME   only this device\n"
	  "  -v, --verbose       every attribute of ibv_query_device_ex\n"
	  "                      and ibv_query_port, grouped\n"
	  "      --softroce      run inside the Soft-RoCE VM\n" },
	{ "plugins", rs_cmd_plugins, "[-j]",
	  "list loaded plugins and the kinds, steps and features each adds",
	  "  -j, --json          print JSON\n" },
	{ "compare", rs_cmd_compare, "[OPTIONS] OLD.json NEW.json",
	  "compare two run records' figures; exit 1 if one regressed",
	  "  -t, --tolerance [FIGURE=]PCT[,...]\n"
	  "                      how much worse, in percent, a judged figure\n"
	  "                      may get: PCT for all (default 5), FIGURE=PCT\n"
	  "                      for those a glob names (the last that names\n"
	  "                      one wins); repeatable\n"
	  "  -f, --figure FIGURE  show and judge only the figures this glob\n"
	  "                      names (repeatable); without it every figure\n"
	  "                      is shown, each step's headline judged\n"
	  "                      (latency.typical, throughput.MB/s)\n"
	  "  -j, --json          print JSON\n" },
	{ "report", rs_cmd_report, "[-f FORMAT] [-o FILE] RECORD.json",
	  "print a run record again, as text, JUnit or its graph",
	  "  -f, --format FORMAT  text (the default: the run's report),\n"
	  "                       junit (as run --junit writes it) or graph\n"
	  "                       (as --graph-out draws it; -o FILE.dot,\n"
	  "                       .svg or .png)\n"
	  "  -o, --output FILE    write FILE instead of stdout\n"
	  "  -s, --scenario FILE  graph: the file the record ran (default:\n"
	  "                       the record's scenario.file)\n" },
	{ "softroce", rs_cmd_softroce, "[VM-OPTIONS] -- COMMAND [ARG...]",
	  "run COMMAND on a real Soft-RoCE device (rxe0) in a throwaway VM",
	  "  see `rdmascn softroce --help` for the VM options\n" },
};

#define N_COMMANDS (RS_N(commands))

static void usage(FILE *f)
{
	fputs("Usage: rdmascn [-v] COMMAND [ARGS]\n\nCommands:\n", f);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\nExit codes: 0 passed, 1 failed, 2 invalid scenario or usage, "
	      "3 could not run,\n77 skipped (capability missing).\n", f);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{}
	};
	int c;

	opterr = 0;
	/* '+': stop at the command word; its options are its own. */
	while ((c = getopt_long(argc, argv, "+vhV", opts, NULL)) != -1) {
		switch (c) {
		case 'v':
			rs_verbose = true;
			break;
		case 'h':
			usage(stdout);
			return RS_EXIT_PASSED;
		case 'V':
			printf("rdmascn %s\n", RDMASCN_VERSION);
			return RS_EXIT_PASSED;
		default:
			fprintf(stderr, "Unknown option '%s'.\n", argv[optind - 1]);
			usage(stderr);
			return RS_EXIT_INVALID;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return RS_EXIT_INVALID;
	}
	for (size_t i = 0; i < N_COMMANDS; i++) {
		if (strcmp(argv[optind], commands[i].name))
			continue;
		argc -= optind;
		argv += optind;
		optind = 0; /* full re-initialisation of getopt */
		/* Whatever the verb printed is checked, to the close. */
		return rs_out_stdout_close(commands[i].run(&commands[i], argc,
							   argv));
	}
	fprintf(stderr, "Unknown command '%s'.\n", argv[optind]);
	usage(stderr);
	return RS_EXIT_INVALID;
}
