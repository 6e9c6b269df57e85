// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for tonic-core: bytes decode into a sequence of events
 * (flow add/remove, push, ACK/NACK/CNP/GRANT, run, loop-back acks of what
 * was sent) and the engine's invariants are checked after every step:
 *   wnd_start <= highest_sent <= tail (serial order), window within the
 *   bitmap, outstanding <= ring depth, the count of marked segments, the
 *   active set holds exactly the flows that can generate, descriptors
 *   only for live flows and segments in [wnd_start, tail) with a valid
 *   length, notes only for live flows.
 * Programs: the engine's test programs plus every registered program.
 */
#include <stdio.h>
#include <stdlib.h>
#include "tonic.h"
#include "program.h"
#include "core.h"
#include "testprogs.h"

#define NFLOWS	8

struct rd {
	const u8 *p;
	size_t n;
};

static u32 get(struct rd *r, u32 bytes)
{
	u32 v = 0;

	while (bytes--) {
		v <<= 8;
		if (r->n) {
			v |= *r->p++;
			r->n--;
		}
	}
	return v;
}

static void fail(const char *what, u32 flow)
{
	fprintf(stderr, "invariant violated: %s (flow %u)\n", what, flow);
	abort();
}

static void check_flows(struct tonic_core *tc)
{
	u32 id;

	for (id = 0; id < tc->cfg.max_flows; id++) {
		struct tonic_flow *f = &tc->flows[id];
		struct tonic_bitmap marked;
		bool can;

		if (!(f->flags & TF_USED)) {
			if (tonic_fifo_member(&tc->active, id) || tonic_fifo_member(&tc->ready, id))
				fail("removed flow in a set", id);
			continue;
		}
		if (tonic_after(f->wnd_start, f->highest_sent))
			fail("wnd_start after highest_sent", id);
		if (tonic_after(f->highest_sent, f->tail))
			fail("highest_sent after tail", id);
		if (f->highest_sent - f->wnd_start > tc->cfg.wnd_bits)
			fail("window wider than the bitmap", id);
		if (f->ring_cnt > tc->cfg.ring_depth)
			fail("outstanding > ring depth", id);
		marked = tonic_flow_bm(tc, id, TONIC_BM_MARKED);
		if (f->marked != tonic_bm_count(&marked, 0, marked.nbits))
			fail("marked count != bits set in the marked bitmap", id);
		can = tonic_dd_can_generate(tc, id);
		if (can != tonic_fifo_member(&tc->active, id))
			fail("active set membership != can generate", id);
		if (tonic_fifo_member(&tc->ready, id) && !f->ring_cnt)
			fail("ready with an empty ring", id);
		if (tonic_fifo_member(&tc->ready, id) && (f->flags & TF_XOFF))
			fail("ready while the host holds it", id);
		if (f->flags & TF_FAILED) {
			if (f->ring_cnt || tonic_fifo_member(&tc->ready, id))
				fail("failed flow still has addresses", id);
		}
	}
}

struct shadow {
	bool live[NFLOWS];
	u32 wnd_start[NFLOWS];
	u32 seg_size[NFLOWS];
	u32 last_seg[NFLOWS];	/* last descriptor's segment, for loop-back acks */
	u32 nsent[NFLOWS];
};

static const struct tonic_prog_ops *pick_prog(u32 v)
{
	static const struct tonic_prog_ops *mine[] = { &tp_win, &tp_rate, &tp_grant };
	const struct tonic_prog_ops *const *list;
	u32 n = 0;

	list = tonic_prog_list(&n);
	v %= ARRAY_SIZE(mine) + n;
	if (v < ARRAY_SIZE(mine))
		return mine[v];
	return list[v - ARRAY_SIZE(mine)];
}

static struct tonic_desc D[64];
static struct tonic_note N[64];

static u64 run_once(struct tonic_core *tc, struct shadow *sh, u64 until, u32 max_desc)
{
	struct tonic_out out = { .desc = D, .max_desc = max_desc, .note = N, .max_note = 64 };
	u64 busy;
	u32 i;

	for (i = 0; i < NFLOWS; i++)
		if (sh->live[i])
			sh->wnd_start[i] = tc->flows[i].wnd_start;
	busy = tonic_run(tc, until, &out);
	if (out.ndesc > max_desc || out.nnote > 64)
		fail("output overrun", 0);
	for (i = 0; i < out.ndesc; i++) {
		struct tonic_desc *d = &D[i];
		struct tonic_flow *f;

		if (d->flow >= NFLOWS || !sh->live[d->flow])
			fail("descriptor for a dead flow", d->flow);
		f = &tc->flows[d->flow];
		if (tonic_before(d->seg, sh->wnd_start[d->flow]) || !tonic_before(d->seg, f->tail))
			fail("descriptor outside [wnd_start, tail)", d->flow);
		if (!tonic_before(d->seg, f->highest_sent))
			fail("descriptor beyond highest_sent", d->flow);
		if (!d->len || d->len > f->cfg.seg_size ||
		    (d->len != f->cfg.seg_size && d->seg != f->tail - 1))
			fail("bad descriptor length", d->flow);
		sh->last_seg[d->flow] = d->seg;
		sh->nsent[d->flow]++;
	}
	for (i = 0; i < out.nnote; i++)
		if (N[i].flow >= NFLOWS || !sh->live[N[i].flow])
			fail("note for a dead flow", N[i].flow);
	return busy;
}

/*
 * Run towards @until in slices, so a flow that is busy every cycle (period
 * or rto of one cycle) cannot make one step take forever; idle stretches
 * are still jumped in one go.
 */
static void do_run(struct tonic_core *tc, struct shadow *sh, u64 until, u32 max_desc)
{
	u64 busy = 0, nc, end;

	while (tonic_now(tc) <= until && busy < 20000) {
		nc = tonic_next_cycle(tc);
		if (nc == TONIC_IDLE || nc > until) {
			run_once(tc, sh, until, max_desc);
			return;
		}
		end = nc + 4096 < until ? nc + 4096 : until;
		busy += run_once(tc, sh, end, max_desc) + 1;
	}
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct rd r = { data, size };
	struct tonic_core_cfg cfg = { .max_flows = NFLOWS, .cycle_ps = 10000 };
	struct tonic_core *tc;
	struct shadow sh;
	u32 c0 = get(&r, 1), steps = 0;

	/* Bit 7 picks the wide windows: the bitmaps' multi-word middles. */
	cfg.wnd_bits = (const u32[]){ 128, 256, 1024, 2048 }[(c0 & 1) | ((c0 >> 6) & 2)];
	cfg.ring_depth = 1u << ((c0 >> 1) % 7);
	cfg.in_queue = 1 + ((c0 >> 4) % 16);
	tc = tonic_core_create(&cfg);
	if (!tc)
		abort();
	memset(&sh, 0, sizeof(sh));
	while (r.n && steps++ < 2000) {
		u32 op = get(&r, 1), id = get(&r, 1) % NFLOWS, v;
		struct tonic_flow *f = &tc->flows[id];
		struct tonic_pkt p;

		memset(&p, 0, sizeof(p));
		switch (op % 11) {
		case 0: {
			struct tonic_flow_cfg fc = {
				.prog = pick_prog(get(&r, 1)),
				.seg_size = 1 + get(&r, 2),
				.wnd_segs = get(&r, 1) % (cfg.wnd_bits + 1),
				.init_cwnd = get(&r, 1),
				.init_rate_kbps = get(&r, 3) * 64,
				.init_credit = get(&r, 2),
				.rto_cycles = get(&r, 2),
				.ack_notify = get(&r, 1) % 8,
				.start_seg = get(&r, 4),
			};

			if (!tonic_flow_add(tc, id, &fc)) {
				sh.live[id] = true;
				sh.last_seg[id] = fc.start_seg;
			}
			break;
		}
		case 1:
			tonic_flow_remove(tc, id);
			sh.live[id] = false;
			break;
		case 2:
			v = get(&r, 1);
			tonic_push(tc, id, f->tail + (v & 0x80 ? get(&r, 4) : v % 64),
				   v & 0x40 ? get(&r, 2) : f->cfg.seg_size);
			break;
		case 3:		/* ACK relative to the window */
			p.type = TONIC_PKT_ACK;
			v = get(&r, 1);
			p.cum_ack = v & 0x80 ? get(&r, 4) : f->wnd_start + (s8)v;
			p.flags = get(&r, 1) &
				  (TONIC_PKT_F_ECE | TONIC_PKT_F_NO_CUM | TONIC_PKT_F_DSACK);
			p.nsack = get(&r, 1) % 6;
			for (u32 k = 0; k < TONIC_MAX_SACK; k++) {
				p.sack[k].start = f->wnd_start + (s8)get(&r, 1);
				p.sack[k].end = p.sack[k].start + (s8)get(&r, 1);
			}
			p.rtt = get(&r, 1);
			tonic_incoming(tc, id, &p);
			break;
		case 4:		/* anything */
			p.type = get(&r, 1) % 5;
			p.flags = get(&r, 1);
			p.cum_ack = get(&r, 4);
			p.nsack = get(&r, 1);
			p.sack[0].start = get(&r, 4);
			p.sack[0].end = get(&r, 4);
			p.nack = f->wnd_start + (s8)get(&r, 1);
			p.grant = get(&r, 3);
			tonic_incoming(tc, id, &p);
			break;
		case 5:
			do_run(tc, &sh, tonic_now(tc) + get(&r, 1), 1 + get(&r, 1) % 64);
			break;
		case 6:
			do_run(tc, &sh, tonic_now(tc) + ((u64)get(&r, 3) << (get(&r, 1) % 24)), 64);
			break;
		case 7:		/* loop-back: ack up to the last segment sent */
			if (!sh.live[id])
				break;
			p.type = get(&r, 1) & 1 ? TONIC_PKT_NACK : TONIC_PKT_ACK;
			p.cum_ack = sh.last_seg[id] + 1;
			p.nack = sh.last_seg[id];
			if (tonic_after(p.cum_ack, f->highest_sent))
				p.cum_ack = f->highest_sent;
			tonic_incoming(tc, id, &p);
			break;
		case 8:
			p.type = TONIC_PKT_GRANT;
			p.grant = get(&r, 2);
			tonic_incoming(tc, id, &p);
			break;
		case 9:		/* program parameters, any value (idx 4 is invalid) */
			v = get(&r, 1) % (TONIC_PROG_PARAMS + 1);
			tonic_flow_set_param(tc, id, v, v & 1 ? get(&r, 4) : get(&r, 1));
			break;
		case 10:	/* the host holds the flow, or lets it go */
			v = get(&r, 1);
			tonic_flow_xoff(tc, id, v & 1, v & 2 ? get(&r, 1) : 0);
			break;
		}
		check_flows(tc);
		if (tonic_next_cycle(tc) != TONIC_IDLE && tonic_next_cycle(tc) < tonic_now(tc))
			fail("next cycle in the past", 0);
	}
	do_run(tc, &sh, tonic_now(tc) + 100000, 64);
	check_flows(tc);
	tonic_core_destroy(tc);
	return 0;
}
