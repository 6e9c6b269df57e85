// SPDX-License-Identifier: GPL-2.0
/* Ring bitmaps: find-first (appendix C), count, ranges, slide, wrap-around. */
#include "tap.h"
#include "bitmap.h"
#include "program.h"

static u32 seed = 12345;
static u32 rnd(void)
{
	seed = seed * 1103515245 + 12345;
	return seed >> 8;
}

/* Naive model: m[off] for offsets 0..n-1. */
static u32 naive_ffs(const unsigned char *m, u32 n, u32 from, int val)
{
	for (u32 i = from; i < n; i++)
		if (m[i] == val)
			return i;
	return n;
}

static void load(struct tonic_bitmap *bm, const unsigned char *m)
{
	tonic_bm_zero(bm);
	for (u32 i = 0; i < bm->nbits; i++)
		if (m[i])
			tonic_bm_set(bm, i);
}

static int check_against_model(u32 nbits, u32 iters)
{
	u64 w[TONIC_BM_WORDS];
	unsigned char m[TONIC_WND_MAX];
	struct tonic_bitmap bm;
	int bad = 0;

	for (u32 it = 0; it < iters && !bad; it++) {
		u32 wnd = rnd() * 7919u, density = rnd() % 4;

		tonic_bm_view(&bm, w, nbits, wnd);
		for (u32 i = 0; i < nbits; i++)
			m[i] = density == 0 ? 0 : density == 3 ? 1 : (rnd() % (density * 8) == 0);
		load(&bm, m);
		for (u32 q = 0; q < 16 && !bad; q++) {
			u32 from = rnd() % (nbits + 4), to = rnd() % (nbits + 4), cnt = 0;

			if (tonic_bm_ffs(&bm, from) != naive_ffs(m, nbits, from, 1))
				bad = 1;
			if (tonic_bm_ffz(&bm, from) != naive_ffs(m, nbits, from, 0))
				bad = 2;
			for (u32 i = from; i < to && i < nbits; i++)
				cnt += m[i];
			if (tonic_bm_count(&bm, from, to) != cnt)
				bad = 3;
			if (tonic_bm_test(&bm, from) != (from < nbits && m[from]))
				bad = 4;
		}
		if (bad)
			diag("mismatch kind %d at wnd %u nbits %u", bad, wnd, nbits);
	}
	return !bad;
}

static int check_ranges(u32 nbits, u32 iters)
{
	u64 w[TONIC_BM_WORDS], mw[TONIC_BM_WORDS];
	unsigned char m[TONIC_WND_MAX], mm[TONIC_WND_MAX];
	struct tonic_bitmap bm, mask;

	for (u32 it = 0; it < iters; it++) {
		u32 wnd = rnd(), a = rnd() % (nbits + 2), b = rnd() % (nbits + 2), n = 0, got;
		u32 op = rnd() % 3, d;

		tonic_bm_view(&bm, w, nbits, wnd);
		tonic_bm_view(&mask, mw, nbits, wnd);
		for (u32 i = 0; i < nbits; i++) {
			m[i] = rnd() & 1;
			mm[i] = rnd() & 1;
		}
		load(&bm, m);
		load(&mask, mm);
		for (u32 i = a; i < b && i < nbits; i++) {
			if (op == 0) {
				n += !m[i];
				m[i] = 1;
			} else if (op == 1) {
				n += m[i];
				m[i] = 0;
			} else if (!mm[i]) {
				n += !m[i];
				m[i] = 1;
			}
		}
		got = 0;
		if (op == 0)
			got = tonic_bm_set_range(&bm, a, b);
		else if (op == 1)
			got = tonic_bm_clear_range(&bm, a, b);
		else
			got = tonic_bm_set_range_andnot(&bm, &mask, a, b);
		if (got != n)
			return 0;
		for (u32 i = 0; i < nbits; i++)
			if (tonic_bm_test(&bm, i) != m[i])
				return 0;
		/* Slide by d: offsets shift down, new tail offsets are clear. */
		d = rnd() % (nbits + 8);
		n = 0;
		for (u32 i = 0; i < d && i < nbits; i++)
			n += m[i];
		if (tonic_bm_slide(&bm, d) != n)
			return 0;
		if (bm.head != ((wnd + d) & (nbits - 1)))
			return 0;
		for (u32 i = 0; i < nbits; i++) {
			int want = i + d < nbits ? m[i + d] : 0;

			if (tonic_bm_test(&bm, i) != want)
				return 0;
		}
	}
	return 1;
}

int main(void)
{
	u64 w[TONIC_BM_WORDS];
	struct tonic_bitmap bm;

	/* Appendix C's example, scaled: bits 5 and 30 set, head at 6. */
	tonic_bm_view(&bm, w, 128, 6);
	tonic_bm_zero(&bm);
	bm.w[0] = (1ULL << 5) | (1ULL << 30);
	is(tonic_bm_ffs(&bm, 0), 24, "appendix C: first set after head is position 30 (offset 24)");
	is(tonic_bm_ffs(&bm, 25), 127, "search past 30 wraps to position 5 (offset 127)");
	is(tonic_bm_ffs(&bm, 128), 128, "from >= nbits finds nothing");
	bm.w[0] = 1ULL << 5;
	is(tonic_bm_ffs(&bm, 0), 127, "only bit before the head: found through the wrapped half");
	bm.w[0] = 0;
	is(tonic_bm_ffs(&bm, 0), 128, "empty bitmap: nbits");
	is(tonic_bm_ffz(&bm, 3), 3, "ffz on empty bitmap");

	/* Head in the last word, range crossing the end of the ring. */
	tonic_bm_view(&bm, w, 256, 250);
	tonic_bm_zero(&bm);
	is(tonic_bm_set_range(&bm, 2, 10), 8, "set range across the ring end");
	ok(bm.w[3] >> 60 == 0xf && (bm.w[0] & 0xf) == 0xf, "positions 252..255 and 0..3 set");
	is(tonic_bm_count(&bm, 0, 256), 8, "count whole ring");
	is(tonic_bm_ffz(&bm, 2), 10, "ffz after the run");
	tonic_bm_slide(&bm, 6);
	is(tonic_bm_ffs(&bm, 0), 0, "after slide the run starts at offset 0");
	is(tonic_bm_count(&bm, 0, 256), 4, "slide cleared the bits that left");

	/* u32 wrap of the segment index: head is seg mod nbits. */
	tonic_bm_view(&bm, w, 128, 0xfffffff0u);
	tonic_bm_zero(&bm);
	tonic_bm_set(&bm, 20);	/* segment 0x4 after the wrap */
	tonic_bm_view(&bm, w, 128, 0x4);
	ok(tonic_bm_test(&bm, 0), "segment 4 seen at offset 0 after wnd_start wraps");

	ok(check_against_model(128, 3000), "ffs/ffz/count/test agree with a naive model (128 bits)");
	ok(check_against_model(256, 3000), "ffs/ffz/count/test agree with a naive model (256 bits)");
	ok(check_ranges(128, 3000),
	   "set/clear/andnot ranges and slide (and their counts) agree with model (128)");
	ok(check_ranges(256, 3000),
	   "set/clear/andnot ranges and slide (and their counts) agree with model (256)");
	return tap_done();
}
