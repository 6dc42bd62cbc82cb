// SPDX-License-Identifier: MIT
/* The bodies of check.h's checks: say what failed, with both values. */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/*
 * Stop the test: the runner sees exit status 1.  _exit(), not exit():
 * what the test had allocated is still held, and under ASan a leak
 * report of it would bury the failure that matters.
 */
void rs_check_stop(void)
{
	fflush(stdout);
	fflush(stderr);
	_exit(1);
}

void rs_check_skip(const char *why)
{
	fprintf(stderr, "skipped: %s\n", why);
	fflush(stdout);
	_exit(77);
}

void rs_check_fail(const char *file, int line, const char *cond)
{
	fprintf(stderr, "%s:%d: CHECK(%s) failed\n", file, line, cond);
	rs_check_stop();
}

static void say_failed(const char *file, int line, const char *got_text,
		       const char *op, const char *want_text)
{
	fprintf(stderr, "%s:%d: %s %s %s failed\n", file, line, got_text, op,
		want_text);
}

/* " (-ENOMEM)" for a negative errno value. */
static const char *errno_note(long long v, char *buf, size_t len)
{
	const char *name = v < 0 && v > -4096 ? strerrorname_np((int)-v) :
			   NULL;

	if (!name)
		return "";
	snprintf(buf, len, " (-%s)", name);
	return buf;
}

bool rs_check_int(const char *file, int line, const char *got_text,
		  const char *want_text, long long got, long long want)
{
	char a[32], b[32];

	if (got == want)
		return true;
	say_failed(file, line, got_text, "==", want_text);
	fprintf(stderr, "  got  %lld%s\n  want %lld%s\n", got,
		errno_note(got, a, sizeof(a)), want,
		errno_note(want, b, sizeof(b)));
	return false;
}

bool rs_check_uint(const char *file, int line, const char *got_text,
		   const char *want_text, unsigned long long got,
		   unsigned long long want)
{
	if (got == want)
		return true;
	say_failed(file, line, got_text, "==", want_text);
	fprintf(stderr, "  got  %llu (0x%llx)\n  want %llu (0x%llx)\n", got,
		got, want, want);
	return false;
}

bool rs_check_str(const char *file, int line, const char *got_text,
		  const char *want_text, const char *got, const char *want)
{
	if (got && want && !strcmp(got, want))
		return true;
	say_failed(file, line, got_text, "==", want_text);
	fprintf(stderr, "  got  %s%s%s\n  want %s%s%s\n", got ? "'" : "",
		got ? got : "(null)", got ? "'" : "", want ? "'" : "",
		want ? want : "(null)", want ? "'" : "");
	return false;
}

void rs_check_dump(const char *what, const void *p, size_t n)
{
	const uint8_t *b = p;

	fprintf(stderr, "  %s (%zu bytes):", what, n);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s%02x", i % 16 ? " " : "\n    ", b[i]);
	fputc('\n', stderr);
}

bool rs_check_mem(const char *file, int line, const char *got_text,
		  const char *want_text, const void *got, const void *want,
		  size_t len)
{
	const uint8_t *g = got, *w = want;
	size_t i;

	if (got && want && !memcmp(got, want, len))
		return true;
	say_failed(file, line, got_text, "==", want_text);
	if (!got || !want) {
		fprintf(stderr, "  got  %p\n  want %p\n", got, want);
		return false;
	}
	for (i = 0; i < len && g[i] == w[i]; i++)
		;
	fprintf(stderr, "  first difference at byte %zu of %zu\n", i, len);
	rs_check_dump("got", got, len);
	rs_check_dump("want", want, len);
	return false;
}

bool rs_check_ptr(const char *file, int line, const char *got_text,
		  const char *want_text, const void *got, const void *want)
{
	if (got == want)
		return true;
	say_failed(file, line, got_text, "==", want_text);
	fprintf(stderr, "  got  %p\n  want %p\n", got, want);
	return false;
}
