/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ring bitmaps of the per-flow segment window.  Bit position of segment s
 * is s mod nbits, so the head (bit of wnd_start) moves with wnd_start and
 * sliding the window only clears the bits that leave it.  Offsets in the
 * API are relative to the head (offset 0 = wnd_start).
 */
#ifndef _TONIC_BITMAP_H
#define _TONIC_BITMAP_H

#include "compat.h"
#include "tonic.h"

#define TONIC_BM_WORDS	(TONIC_WND_MAX / 64)

/* A view of one flow's ring bitmap; the words live in the flow table. */
struct tonic_bitmap {
	u64 *w;
	u32 head;	/* bit position of offset 0 */
	u32 nbits;	/* power of two, 128 .. TONIC_WND_MAX */
};

static inline void tonic_bm_view(struct tonic_bitmap *bm, u64 *w, u32 nbits, u32 wnd_start)
{
	bm->w = w;
	bm->nbits = nbits;
	bm->head = wnd_start & (nbits - 1);
}

void tonic_bm_set(struct tonic_bitmap *bm, u32 off);
void tonic_bm_clear(struct tonic_bitmap *bm, u32 off);
/* Set offsets [from, to); returns how many were clear before. */
u32 tonic_bm_set_range(struct tonic_bitmap *bm, u32 from, u32 to);
/* Set offsets [from, to) that are clear in @mask; returns how many changed. */
u32 tonic_bm_set_range_andnot(struct tonic_bitmap *bm, const struct tonic_bitmap *mask,
			      u32 from, u32 to);
/* Clear offsets [from, to); returns how many were set. */
u32 tonic_bm_clear_range(struct tonic_bitmap *bm, u32 from, u32 to);
/*
 * Move the head @delta segments forward, clearing the bits that leave;
 * returns how many of them were set.
 */
u32 tonic_bm_slide(struct tonic_bitmap *bm, u32 delta);
void tonic_bm_zero(struct tonic_bitmap *bm);

#endif /* _TONIC_BITMAP_H */
