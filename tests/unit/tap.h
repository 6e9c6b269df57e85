/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal TAP producer for the userspace unit tests. */
#ifndef _TONIC_TAP_H
#define _TONIC_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int tap_n, tap_failed;

__attribute__((format(printf, 4, 5)))
static inline int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return cond;
}

/* ok(cond, "what it checks %d", x): one TAP line; returns cond. */
#define ok(cond, ...)	tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
/* is(got, want, "name"): integer equality with both values on failure. */
#define is(got, want, ...) do {						\
	long long _g = (long long)(got), _w = (long long)(want);	\
	if (!ok(_g == _w, __VA_ARGS__))					\
		printf("#   got %lld, want %lld\n", _g, _w);		\
} while (0)
#define diag(...)	do { printf("# "); printf(__VA_ARGS__); printf("\n"); } while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif /* _TONIC_TAP_H */
