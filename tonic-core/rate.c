// SPDX-License-Identifier: GPL-2.0
/* Multi-precision integer rate representation and credit (appendix B). */
#include "compat.h"
#include "tonic.h"
#include "rate.h"

/* bytes/cycle = kbps * 1000 / 8 * cycle_ps / 1e12 = kbps * cycle_ps / 8e9 */
#define RATE_DIV	8000000000ULL

void tonic_rate_repr(u32 kbps, u32 cycle_ps, u32 *mant, u8 *shift)
{
	u64 x = (u64)kbps * cycle_ps;	/* < 2^62: cycle_ps < 2^30 */
	u64 q = tonic_div64(x, RATE_DIV);
	u64 r = x - q * RATE_DIV;
	u32 s = 0, i;

	/* q < 2^32 because x < 2^62; refine 3 bits at a time while it fits. */
	while (q < (1ULL << 29) && s + TONIC_RATE_SHIFT_STEP <= TONIC_RATE_SHIFT_MAX) {
		for (i = 0; i < TONIC_RATE_SHIFT_STEP; i++) {
			r <<= 1;
			q <<= 1;
			if (r >= RATE_DIV) {
				r -= RATE_DIV;
				q |= 1;
			}
		}
		s += TONIC_RATE_SHIFT_STEP;
	}
	*mant = (u32)q;
	*shift = (u8)s;
}

/*
 * The bucket holds D plus one cycle of accrual: a flow that becomes
 * eligible in cycle t has up to R bytes more than it needs, and clipping
 * that fraction at D = L would lose up to R per segment (4 % at 57 Gb/s
 * with 1500 B segments).
 */
static inline u64 tonic_rate_cap(const struct tonic_rate *r)
{
	return ((u64)r->burst << r->shift) + r->mant;
}

void tonic_rate_update(struct tonic_rate *r, u64 now)
{
	u64 cap = tonic_rate_cap(r);
	u64 dt;

	if (now <= r->t0)
		return;
	dt = now - r->t0;
	r->t0 = now;
	if (r->credit >= cap)
		return;
	/* mant < 2^32, dt < 2^31: the product and the sum fit in 64 bits. */
	if (dt >= (1ULL << 31) || (u64)r->mant * dt >= cap - r->credit)
		r->credit = cap;
	else
		r->credit += (u64)r->mant * dt;
}

void tonic_rate_set(struct tonic_rate *r, u32 kbps, u32 cycle_ps, u32 burst, u64 now)
{
	u32 mant;
	u8 shift;
	u64 cap;

	tonic_rate_update(r, now);
	r->t0 = now;
	if (burst > TONIC_RATE_BURST_MAX)
		burst = TONIC_RATE_BURST_MAX;
	tonic_rate_repr(kbps, cycle_ps, &mant, &shift);
	if (shift > r->shift)
		r->credit <<= shift - r->shift;
	else
		r->credit >>= r->shift - shift;
	r->mant = mant;
	r->shift = shift;
	r->burst = burst;
	cap = tonic_rate_cap(r);
	if (r->credit > cap)
		r->credit = cap;
}

void tonic_rate_take(struct tonic_rate *r, u32 len)
{
	u64 l = (u64)len << r->shift;

	r->credit = r->credit > l ? r->credit - l : 0;
}

u64 tonic_rate_wait(const struct tonic_rate *r, u32 len)
{
	u64 need = (u64)len << r->shift;

	if (r->credit >= need)
		return 0;
	if (!r->mant || len > r->burst)
		return TONIC_IDLE;
	need -= r->credit;
	return tonic_div64(need + r->mant - 1, r->mant);
}
