/* SPDX-License-Identifier: MIT */
#ifndef RDMASCN_EXIT_H
#define RDMASCN_EXIT_H

/* The CLI contract's exit codes; 77 is CTest's SKIP_RETURN_CODE. */
#define RS_EXIT_MAP(X)                                           \
	X(PASSED, 0, "passed")                                   \
	X(FAILED, 1, "a step or expectation failed")             \
	X(INVALID, 2, "invalid scenario or usage")               \
	X(CANTRUN, 3, "could not run")                           \
	X(SKIPPED, 77, "skipped: capability missing")

enum rs_exit {
#define X(name, code, text) RS_EXIT_##name = code,
	RS_EXIT_MAP(X)
#undef X
};

/* The verdict a run record states for an exit code. */
static inline const char *rs_exit_verdict(int code)
{
	switch (code) {
	case RS_EXIT_PASSED: return "passed";
	case RS_EXIT_FAILED: return "failed";
	case RS_EXIT_INVALID: return "invalid";
	case RS_EXIT_SKIPPED: return "skipped";
	default: return code >= 128 ? "interrupted" : "could not run";
	}
}

/* An exit code some rdmascn exits with: the contract's, or 128 plus a
 * signal (1 to 64).  A code read from another process (a node's
 * verdict) that is not one is a lie or a bug, never a verdict. */
static inline int rs_exit_valid(long code)
{
	switch (code) {
#define X(name, c, text) case c:
	RS_EXIT_MAP(X)
#undef X
		return 1;
	}
	return code > 128 && code <= 128 + 64;
}

#endif
