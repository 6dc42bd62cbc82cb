// SPDX-License-Identifier: MIT
/* printf's common conversions by hand: see value_fmt.h for why. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "dec.h"
#include "value_fmt.h"

/* The text so far: @n bytes would have been written, at most @cap kept
 * (@len - 1, room for the NUL; 0 when @len is). */
struct fmt_out {
	char *buf;
	size_t cap;
	size_t n;
};

static inline void put(struct fmt_out *o, const char *s, size_t k)
{
	if (o->n < o->cap) {
		size_t room = o->cap - o->n;

		memcpy(o->buf + o->n, s, k < room ? k : room);
	}
	o->n += k;
}

static void put_x(struct fmt_out *o, unsigned long long v,
		  const char *digits)
{
	char tmp[16];
	char *p = tmp + sizeof(tmp);

	do {
		*--p = digits[v % 16];
		v /= 16;
	} while (v);
	put(o, p, tmp + sizeof(tmp) - p);
}

static void put_u(struct fmt_out *o, unsigned long long v)
{
	char tmp[RS_DEC_MAX], *p = rs_dec(tmp + sizeof(tmp), v);

	put(o, p, tmp + sizeof(tmp) - p);
}

static void put_d(struct fmt_out *o, long long v)
{
	if (v < 0) {
		put(o, "-", 1);
		put_u(o, -(unsigned long long)v);
		return;
	}
	put_u(o, (unsigned long long)v);
}

enum fmt_len { L_NONE, L_HH, L_H, L_L, L_LL, L_Z, L_J, L_T };

static unsigned long long arg_u(va_list *ap, enum fmt_len m)
{
	switch (m) {
	case L_HH:
		return (unsigned char)va_arg(*ap, unsigned int);
	case L_H:
		return (unsigned short)va_arg(*ap, unsigned int);
	case L_L:
		return va_arg(*ap, unsigned long);
	case L_LL:
		return va_arg(*ap, unsigned long long);
	case L_Z:
		return va_arg(*ap, size_t);
	case L_J:
		return va_arg(*ap, uintmax_t);
	case L_T:
		/* printf's %tu: ptrdiff_t read as its unsigned type */
		return (size_t)va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, unsigned int);
	}
}

static long long arg_d(va_list *ap, enum fmt_len m)
{
	switch (m) {
	case L_HH:
		return (signed char)va_arg(*ap, int);
	case L_H:
		return (short)va_arg(*ap, int);
	case L_L:
		return va_arg(*ap, long);
	case L_LL:
		return va_arg(*ap, long long);
	case L_Z:
		return va_arg(*ap, ssize_t);
	case L_J:
		return va_arg(*ap, intmax_t);
	case L_T:
		return va_arg(*ap, ptrdiff_t);
	default:
		return va_arg(*ap, int);
	}
}

static enum fmt_len len_mod(const char **f)
{
	const char *p = *f;
	enum fmt_len m = L_NONE;

	switch (*p) {
	case 'h':
		m = p[1] == 'h' ? L_HH : L_H;
		p += m == L_HH ? 2 : 1;
		break;
	case 'l':
		m = p[1] == 'l' ? L_LL : L_L;
		p += m == L_LL ? 2 : 1;
		break;
	case 'z':
		m = L_Z;
		p++;
		break;
	case 'j':
		m = L_J;
		p++;
		break;
	case 't':
		m = L_T;
		p++;
		break;
	}
	*f = p;
	return m;
}

int rs_vfmt(char *buf, size_t len, const char *fmt, va_list ap)
{
	struct fmt_out o = { buf, len ? len - 1 : 0, 0 };
	const char *f = fmt;
	va_list aq;

	/* Our own copy to read from, so that @ap is untouched when a
	 * conversion turns out to be vsnprintf()'s after all. */
	va_copy(aq, ap);
	while (*f) {
		const char *lit = f, *s;
		enum fmt_len m;
		char c;

		while (*f && *f != '%')
			f++;
		if (f > lit)
			put(&o, lit, f - lit);
		if (!*f)
			break;
		f++;
		m = len_mod(&f);
		switch (*f) {
		case 's':
			if (m != L_NONE)
				goto whole;
			s = va_arg(aq, const char *);
			/* glibc's, which the bytes must match */
			if (!s)
				s = "(null)";
			put(&o, s, strlen(s));
			break;
		case 'c':
			if (m != L_NONE)
				goto whole;
			c = (char)va_arg(aq, int);
			put(&o, &c, 1);
			break;
		case 'd':
		case 'i':
			put_d(&o, arg_d(&aq, m));
			break;
		case 'u':
			put_u(&o, arg_u(&aq, m));
			break;
		case 'x':
			put_x(&o, arg_u(&aq, m), "0123456789abcdef");
			break;
		case 'X':
			put_x(&o, arg_u(&aq, m), "0123456789ABCDEF");
			break;
		case '%':
			if (m != L_NONE)
				goto whole;
			put(&o, "%", 1);
			break;
		default:
			goto whole;
		}
		f++;
	}
	va_end(aq);
	if (len)
		buf[o.n < o.cap ? o.n : o.cap] = '\0';
	return o.n > INT_MAX ? -1 : (int)o.n;
whole:
	va_end(aq);
	return vsnprintf(buf, len, fmt, ap);
}
