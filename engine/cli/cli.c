// SPDX-License-Identifier: MIT
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

bool rs_verbose;

void rs_cmd_usage(const struct rs_cmd *cmd, FILE *f)
{
	fprintf(f, "Usage: rdmascn %s %s\n%s\n", cmd->name, cmd->args,
		cmd->summary);
	if (cmd->options)
		fprintf(f, "\nOptions:\n%s  -h, --help          this text\n",
			cmd->options);
}

int rs_cmd_usage_error(const struct rs_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	rs_cmd_usage(cmd, stderr);
	return RS_EXIT_INVALID;
}

int rs_cmd_refuse(const struct rs_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "rdmascn %s: ", cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return RS_EXIT_INVALID;
}

int rs_cmd_no_memory(const struct rs_cmd *cmd)
{
	fprintf(stderr, "rdmascn %s: out of memory\n", cmd->name);
	return RS_EXIT_CANTRUN;
}

int rs_cmd_bad_option(const struct rs_cmd *cmd, char **argv, int c)
{
	/* getopt leaves the offending word at optind - 1. */
	const char *word = argv[optind - 1];

	if (c == ':')
		return rs_cmd_usage_error(cmd, "Option '%s' needs a value.", word);
	return rs_cmd_usage_error(cmd, "Unknown option '%s'.", word);
}
