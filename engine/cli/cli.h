/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_CLI_H
#define RDMASCN_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "exit.h"

struct rs_cmd {
	const char *name;
	int (*run)(const struct rs_cmd *cmd, int argc, char **argv);
	const char *args;    /* synopsis after the command name */
	const char *summary; /* one line for `rdmascn --help` */
	const char *options; /* the command's option lines, for its usage */
};

extern bool rs_verbose;

/* Load the plugins (once) and say on stderr what went wrong: what a
 * plugin that loaded could not register always, the files that did not
 * load when @all (-v, `rdmascn plugins`). */
void rs_cli_plugins_load(bool all);

/* Register the core kinds and steps, then load the plugins and register
 * theirs (a plugin's kind may not take a name already taken); once. */
void rs_cli_registry_init(void);

/* Print the command's usage to stderr and return RS_EXIT_INVALID. */
int rs_cmd_usage_error(const struct rs_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void rs_cmd_usage(const struct rs_cmd *cmd, FILE *f);

/* Not a usage mistake: "rdmascn CMD: " and the message alone on stderr
 * (no usage); returns RS_EXIT_INVALID. */
int rs_cmd_refuse(const struct rs_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Say the command ran out of memory; returns RS_EXIT_CANTRUN. */
int rs_cmd_no_memory(const struct rs_cmd *cmd);

/* Handle getopt_long's '?' and ':' returns the same way everywhere. */
int rs_cmd_bad_option(const struct rs_cmd *cmd, char **argv, int c);

/*
 * If argv has --softroce, run this same invocation without it inside the
 * Soft-RoCE VM and never return; otherwise return 0.  Returns the exit
 * code to use when the VM helper cannot be started.
 */
int rs_softroce_maybe_reexec(int argc, char **argv);

int rs_cmd_run(const struct rs_cmd *cmd, int argc, char **argv);
int rs_cmd_validate(const struct rs_cmd *cmd, int argc, char **argv);
int rs_cmd_plan(const struct rs_cmd *cmd, int argc, char **argv);
int rs_cmd_graph(const struct rs_cmd *cmd, int argc, char **argv);
int rs_cmd_schema(const struct rs_cmd *cmd, int argc, char **argv);
int rs_cmd_devices(const struct rs_cmd *cmd, int argc, char **argv);
int rs_cmd_plugins(const struct rs_cmd *cmd, int argc, char **argv);
int rs_cmd_explore(const struct rs_cmd *cmd, int argc, char **argv);
int rs_cmd_compare(const struct rs_cmd *cmd, int argc, char **argv);
int rs_cmd_report(const struct rs_cmd *cmd, int argc, char **argv);
int rs_cmd_softroce(const struct rs_cmd *cmd, int argc, char **argv);

#endif
