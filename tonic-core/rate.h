/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Integer rate limiter of the credit engine (Tonic §3.3, appendix B).
 *
 * A rate R (bytes per cycle, fractional) is kept as mant / 2^shift with
 * mant < 2^32.  Of the representations R_0 = bytes/cycle, R_3 = bytes per 8
 * cycles, R_6 = per 64 cycles, ... R_39, the most precise one that fits 32
 * bits is used (mant >= 2^29 unless the rate is below ~0.4 Mb/s at 10 ns
 * cycles), so the relative error of R itself is below 2^-29.  Credit is kept
 * in the same unit (bytes << shift), so the fraction left over after each
 * segment carries into the next: no drift from rounding T = L / R.
 */
#ifndef _TONIC_RATE_H
#define _TONIC_RATE_H

#include "compat.h"

#define TONIC_RATE_SHIFT_STEP	3
#define TONIC_RATE_SHIFT_MAX	39
#define TONIC_RATE_BURST_MAX	(1U << 22)	/* bytes */

struct tonic_rate {
	u64 credit;	/* bytes << shift, <= (burst << shift) + mant */
	u64 t0;		/* cycle the credit was last brought up to date */
	u32 mant;	/* R = mant / 2^shift bytes per cycle */
	u32 burst;	/* D, bytes */
	u8 shift;
};

/* R for @kbps at @cycle_ps picoseconds per cycle. */
void tonic_rate_repr(u32 kbps, u32 cycle_ps, u32 *mant, u8 *shift);
/* Change rate and burst at cycle @now, keeping the accrued credit. */
void tonic_rate_set(struct tonic_rate *r, u32 kbps, u32 cycle_ps, u32 burst, u64 now);
/* Bring the credit up to cycle @now: min(c0 + R (now - t0), D). */
void tonic_rate_update(struct tonic_rate *r, u64 now);
/* Whole bytes of credit (after tonic_rate_update). */
static inline u32 tonic_rate_bytes(const struct tonic_rate *r)
{
	return (u32)(r->credit >> r->shift);
}
/* Take @len bytes of credit (the caller checked they are there). */
void tonic_rate_take(struct tonic_rate *r, u32 len);
/* Cycles from t0 until @len bytes of credit exist: T = ceil(L / R); TONIC_IDLE if never. */
u64 tonic_rate_wait(const struct tonic_rate *r, u32 len);

#endif /* _TONIC_RATE_H */
