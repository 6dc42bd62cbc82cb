// SPDX-License-Identifier: MIT
/*
 * Linked into every program and plugin of the sanitized tree
 * (RDMASCN_SANITIZE, CMakeLists.txt): AddressSanitizer's defaults there,
 * which ASAN_OPTIONS can still override one by one.
 *
 * UBSan's checks trap there (-fsanitize-undefined-trap-on-error), with no
 * runtime library of their own: handle_sigill has ASan report the trap
 * as it reports a bad access, with the stack and each frame's FILE:LINE,
 * and exit 1.  Weak: a program gets it both itself and in each static
 * library it links.
 */
const char *__asan_default_options(void);

__attribute__((weak)) const char *__asan_default_options(void)
{
	return "handle_sigill=1";
}
