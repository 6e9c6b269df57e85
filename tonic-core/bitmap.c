// SPDX-License-Identifier: GPL-2.0
/*
 * Ring bitmaps with a moving head, and the head-free find-first of the
 * Tonic paper's appendix C: to find the first set bit at or after ring
 * position h, zero bits [0, h) into a copy A'; the answer is ffs(A') if A'
 * is non-zero, else ffs(A) (wrapped).  Neither step depends on h beyond the
 * masking, so a hardware tree of OR/ffs layers needs no per-layer head.
 */
#include "compat.h"
#include "tonic.h"
#include "program.h"
#include "bitmap.h"

enum bm_op { BM_SET, BM_CLEAR, BM_COUNT, BM_SET_ANDNOT };

/* Bits of word @wi that fall in linear positions [lo, hi). */
static inline u64 word_mask(u32 wi, u32 lo, u32 hi)
{
	u32 base = wi * 64;
	u32 a = lo > base ? lo - base : 0;
	u32 b = hi - base >= 64 ? 64 : hi - base;
	u64 m;

	if (hi <= base || lo >= base + 64)
		return 0;
	m = b == 64 ? ~0ULL : (1ULL << b) - 1;
	return m & ~((1ULL << a) - 1);
}

/* Apply @op to the bits @m of word @wi. */
static inline u32 bm_word(u64 *w, const u64 *mask, u32 wi, u64 m, enum bm_op op)
{
	u32 n = 0;

	switch (op) {
	case BM_SET:
		n = tonic_popcount64(m & ~w[wi]);
		w[wi] |= m;
		break;
	case BM_CLEAR:
		n = tonic_popcount64(m & w[wi]);
		w[wi] &= ~m;
		break;
	case BM_COUNT:
		n = tonic_popcount64(m & w[wi]);
		break;
	case BM_SET_ANDNOT:
		m &= ~mask[wi];
		n = tonic_popcount64(m & ~w[wi]);
		w[wi] |= m;
		break;
	}
	return n;
}

/*
 * Apply @op to linear positions [lo, hi), 0 <= lo <= hi <= nbits: the
 * first and last words masked, those between whole.  Every ACK slides the
 * bitmaps by a segment or two, which is one word.
 */
static u32 bm_linear(u64 *w, const u64 *mask, u32 lo, u32 hi, enum bm_op op)
{
	u32 wi = lo / 64, last, n = 0;
	u64 m;

	if (lo >= hi)
		return 0;
	last = (hi - 1) / 64;
	m = ~0ULL << (lo % 64);
	for (; wi < last; wi++, m = ~0ULL)
		n += bm_word(w, mask, wi, m, op);
	return n + bm_word(w, mask, last, m & (~0ULL >> (63 - (hi - 1) % 64)), op);
}

/* Apply @op to offsets [from, to), clipped to the ring, splitting at the wrap. */
static u32 bm_range(const struct tonic_bitmap *bm, const struct tonic_bitmap *mask,
		    u32 from, u32 to, enum bm_op op)
{
	u32 n = bm->nbits, lo, hi;
	const u64 *mw = mask ? mask->w : NULL;

	if (to > n)
		to = n;
	if (from >= to)
		return 0;
	lo = (bm->head + from) & (n - 1);
	hi = lo + (to - from);
	if (hi <= n)
		return bm_linear(bm->w, mw, lo, hi, op);
	return bm_linear(bm->w, mw, lo, n, op) + bm_linear(bm->w, mw, 0, hi - n, op);
}

bool tonic_bm_test(const struct tonic_bitmap *bm, u32 off)
{
	u32 p;

	if (off >= bm->nbits)
		return false;
	p = (bm->head + off) & (bm->nbits - 1);
	return (bm->w[p / 64] >> (p % 64)) & 1;
}

void tonic_bm_set(struct tonic_bitmap *bm, u32 off)
{
	u32 p;

	if (off >= bm->nbits)
		return;
	p = (bm->head + off) & (bm->nbits - 1);
	bm->w[p / 64] |= 1ULL << (p % 64);
}

void tonic_bm_clear(struct tonic_bitmap *bm, u32 off)
{
	u32 p;

	if (off >= bm->nbits)
		return;
	p = (bm->head + off) & (bm->nbits - 1);
	bm->w[p / 64] &= ~(1ULL << (p % 64));
}

/*
 * First set bit at ring position >= h, else the first set bit overall
 * (appendix C).  @inv searches for clear bits instead.  Returns the ring
 * position, or nbits if there is none.
 */
static u32 bm_find_first(const struct tonic_bitmap *bm, u32 h, bool inv)
{
	u32 nw = bm->nbits / 64, wi, first = bm->nbits;
	u64 a[TONIC_BM_WORDS];

	for (wi = 0; wi < nw; wi++) {
		u64 x = inv ? ~bm->w[wi] : bm->w[wi];

		/* A' = A with bits [0, h) zeroed. */
		u64 ap = x & ~word_mask(wi, 0, h);

		a[wi] = x;
		if (ap && first == bm->nbits)
			first = wi * 64 + tonic_ctz64(ap);
	}
	if (first != bm->nbits)
		return first;
	for (wi = 0; wi < nw; wi++)
		if (a[wi])
			return wi * 64 + tonic_ctz64(a[wi]);
	return bm->nbits;
}

static u32 bm_find(const struct tonic_bitmap *bm, u32 from, bool inv)
{
	u32 n = bm->nbits, h, p, d;

	if (from >= n)
		return n;
	h = (bm->head + from) & (n - 1);
	p = bm_find_first(bm, h, inv);
	if (p == n)
		return n;
	/* Distance from the search start in ring order; past the end = none. */
	d = (p - h) & (n - 1);
	return from + d < n ? from + d : n;
}

u32 tonic_bm_ffs(const struct tonic_bitmap *bm, u32 from)
{
	return bm_find(bm, from, false);
}

u32 tonic_bm_ffz(const struct tonic_bitmap *bm, u32 from)
{
	return bm_find(bm, from, true);
}

u32 tonic_bm_count(const struct tonic_bitmap *bm, u32 from, u32 to)
{
	return bm_range(bm, NULL, from, to, BM_COUNT);
}

u32 tonic_bm_set_range(struct tonic_bitmap *bm, u32 from, u32 to)
{
	return bm_range(bm, NULL, from, to, BM_SET);
}

u32 tonic_bm_set_range_andnot(struct tonic_bitmap *bm, const struct tonic_bitmap *mask,
			      u32 from, u32 to)
{
	return bm_range(bm, mask, from, to, BM_SET_ANDNOT);
}

u32 tonic_bm_clear_range(struct tonic_bitmap *bm, u32 from, u32 to)
{
	return bm_range(bm, NULL, from, to, BM_CLEAR);
}

u32 tonic_bm_slide(struct tonic_bitmap *bm, u32 delta)
{
	u32 n = tonic_bm_clear_range(bm, 0, delta);	/* clipped to the ring */

	bm->head = (bm->head + delta) & (bm->nbits - 1);
	return n;
}

void tonic_bm_zero(struct tonic_bitmap *bm)
{
	memset(bm->w, 0, bm->nbits / 8);
}
