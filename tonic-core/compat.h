/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The only header tonic-core's engine files include: it maps the few
 * kernel-isms they use onto either the kernel or a hosted C library, so the
 * same files build into tonic.ko and into libtonic-core.a.
 */
#ifndef _TONIC_COMPAT_H
#define _TONIC_COMPAT_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/bitops.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/math64.h>

#define tonic_zalloc(sz)	kvzalloc((sz), GFP_KERNEL)
#define tonic_free(p)		kvfree(p)
#define tonic_div64(n, d)	div64_u64((n), (d))
#define tonic_ctz64(x)		((u32)__ffs64(x))	/* x != 0 */
#define tonic_popcount64(x)	((u32)hweight64(x))
#include <linux/export.h>
/* For the other modules of the package (tonic_rdma.ko). */
#define TONIC_EXPORT(sym)	EXPORT_SYMBOL_GPL(sym)
#else
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <stdlib.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define max_t(t, a, b)	((t)(a) > (t)(b) ? (t)(a) : (t)(b))
#define BUILD_BUG_ON(c)	_Static_assert(!(c), #c)

#define tonic_zalloc(sz)	calloc(1, (sz))
#define tonic_free(p)		free(p)
#define tonic_div64(n, d)	((u64)(n) / (u64)(d))
#define tonic_ctz64(x)		((u32)__builtin_ctzll(x))	/* x != 0 */
#define tonic_popcount64(x)	((u32)__builtin_popcountll(x))
#define TONIC_EXPORT(sym)
#endif

/* Serial-number comparison for 32-bit segment indices (RFC 1982 style). */
static inline bool tonic_before(u32 a, u32 b)
{
	return (s32)(a - b) < 0;
}

static inline bool tonic_after(u32 a, u32 b)
{
	return tonic_before(b, a);
}

#endif /* _TONIC_COMPAT_H */
