// SPDX-License-Identifier: GPL-2.0
/*
 * The engine instance and its cycle loop.
 *
 * One cycle lets every module handle at most one event, in this order:
 * Incoming (stage 1 fixed + stage 2 program) and Periodic (timer check +
 * program) on the state from before the cycle, merged when they hit the
 * same flow; the credit engine's eligibility timer; the credit engine's
 * transmit module (one descriptor out; "segment transmitted" to DD); and
 * segment generation (one address into a ring).  An address generated in
 * cycle t can leave in cycle t + 1.  Cycles in which no module has work
 * are skipped: the next busy cycle is the earliest of queued input, a
 * non-empty active or ready set, or the first DD or CR timer.
 */
#include "compat.h"
#include "tonic.h"
#include "program.h"
#include "core.h"

#define ALIGN8(x)	(((x) + 7) & ~(size_t)7)

struct tonic_layout {
	size_t flows, ctr, bm, ring, user, scratch, links, dd_heap, dd_pos, cr_heap, cr_pos,
	       inq, total;
};

static void tonic_layout(const struct tonic_core_cfg *c, u32 user_stride, struct tonic_layout *l)
{
	size_t n = c->max_flows, off = ALIGN8(sizeof(struct tonic_core));

#define PLACE(f, sz) do { l->f = off; off = ALIGN8(off + (sz)); } while (0)
	PLACE(flows, n * sizeof(struct tonic_flow));
	PLACE(ctr, n * sizeof(struct tonic_flow_counters));
	PLACE(bm, n * TONIC_BM_NUM * (c->wnd_bits / 8));
	PLACE(ring, n * c->ring_depth * sizeof(u32));
	PLACE(user, n * user_stride);
	PLACE(scratch, 2 * (size_t)user_stride);
	PLACE(links, 4 * n * sizeof(u16));
	PLACE(dd_heap, n * sizeof(struct tonic_timer_ent));
	PLACE(dd_pos, n * sizeof(u16));
	PLACE(cr_heap, n * sizeof(struct tonic_timer_ent));
	PLACE(cr_pos, n * sizeof(u16));
	PLACE(inq, (size_t)c->in_queue * sizeof(struct tonic_in_ent));
#undef PLACE
	l->total = off;
}

static int tonic_cfg_fix(const struct tonic_core_cfg *in, struct tonic_core_cfg *c)
{
	*c = *in;
	if (!c->max_flows || c->max_flows > TONIC_MAX_FLOWS)
		return -EINVAL;
	if (c->wnd_bits < 128 || c->wnd_bits > TONIC_WND_MAX || (c->wnd_bits & (c->wnd_bits - 1)))
		return -EINVAL;
	if (!c->ring_depth)
		c->ring_depth = TONIC_RING_DEFAULT;
	if (c->ring_depth > TONIC_RING_MAX || (c->ring_depth & (c->ring_depth - 1)))
		return -EINVAL;
	if (!c->cycle_ps || c->cycle_ps >= (1U << 30))
		return -EINVAL;
	if (!c->in_queue)
		c->in_queue = TONIC_IN_QUEUE_DEFAULT;
	if (c->in_queue > 65536)
		return -EINVAL;
	if (!c->user_max)
		c->user_max = TONIC_USER_MAX_CWND;
	if (c->user_max > TONIC_USER_MAX_CWND)
		return -EINVAL;
	return 0;
}

u32 tonic_core_flow_bytes(const struct tonic_core_cfg *cfg, u32 *engine)
{
	struct tonic_core_cfg c;
	u32 e;

	if (tonic_cfg_fix(cfg, &c))
		return 0;
	e = sizeof(struct tonic_flow) +
	    TONIC_BM_NUM * c.wnd_bits / 8 +		/* acked, marked, rtx-done */
	    c.ring_depth * sizeof(u32) +			/* ring of addresses */
	    4 * sizeof(u16) +					/* active + ready links */
	    2 * (sizeof(struct tonic_timer_ent) + sizeof(u16));	/* DD + CR timers */
	if (engine)
		*engine = e;
	return e + ALIGN8(c.user_max) + sizeof(struct tonic_flow_counters);
}

struct tonic_core *tonic_core_create(const struct tonic_core_cfg *cfg)
{
	struct tonic_core_cfg c;
	struct tonic_layout l;
	struct tonic_core *tc;
	u32 user_stride, i;
	u8 *m;

	if (!cfg || tonic_cfg_fix(cfg, &c))
		return NULL;
	user_stride = ALIGN8(c.user_max);
	tonic_layout(&c, user_stride, &l);
	m = tonic_zalloc(l.total);
	if (!m)
		return NULL;
	tc = (struct tonic_core *)m;
	tc->mem = m;
	tc->cfg = c;
	tc->flows = (struct tonic_flow *)(m + l.flows);
	tc->ctr = (struct tonic_flow_counters *)(m + l.ctr);
	tc->bm = (u64 *)(m + l.bm);
	tc->bm_words = c.wnd_bits / 64;
	tc->ring = (u32 *)(m + l.ring);
	tc->user = m + l.user;
	tc->user_stride = user_stride;
	tc->scratch = m + l.scratch;
	tonic_fifo_init(&tc->active, (u16 *)(m + l.links), c.max_flows);
	tonic_fifo_init(&tc->ready, (u16 *)(m + l.links) + 2 * c.max_flows, c.max_flows);
	tonic_timers_init(&tc->dd_timers, (struct tonic_timer_ent *)(m + l.dd_heap),
			  (u16 *)(m + l.dd_pos), c.max_flows);
	tonic_timers_init(&tc->cr_timers, (struct tonic_timer_ent *)(m + l.cr_heap),
			  (u16 *)(m + l.cr_pos), c.max_flows);
	tc->inq = (struct tonic_in_ent *)(m + l.inq);
	for (i = 0; i < c.max_flows; i++) {
		tc->flows[i].rto_at = TONIC_IDLE;
		tc->flows[i].periodic_at = TONIC_IDLE;
	}
	return tc;
}

void tonic_core_destroy(struct tonic_core *tc)
{
	if (tc)
		tonic_free(tc->mem);
}

void tonic_note(struct tonic_core *tc, u32 flow, u32 type, u32 value)
{
	struct tonic_out *out = tc->out;
	struct tonic_note *n;

	if (!out || !out->note || out->nnote >= out->max_note) {
		tc->st.notes_dropped++;
		return;
	}
	n = &out->note[out->nnote++];
	n->flow = flow;
	n->type = type;
	n->value = value;
}

void tonic_flow_fail(struct tonic_core *tc, u32 id, u32 why)
{
	struct tonic_flow *f = &tc->flows[id];

	if (f->flags & TF_FAILED)
		return;
	f->flags |= TF_FAILED;
	tonic_fifo_remove(&tc->active, id);
	tonic_cr_flush(tc, id);
	f->rto_at = TONIC_IDLE;
	f->periodic_at = TONIC_IDLE;
	tonic_timer_del(&tc->dd_timers, id);
	tonic_note(tc, id, TONIC_NOTE_FAILED, why);
}

u64 tonic_next_cycle(const struct tonic_core *tc)
{
	u64 t, t2;
	u32 id;

	if (tc->in_cnt || !tonic_fifo_empty(&tc->active) ||
	    (!tc->tx_stalled && !tonic_fifo_empty(&tc->ready)))
		return tc->now;
	t = tonic_timer_first(&tc->dd_timers, &id);
	t2 = tonic_timer_first(&tc->cr_timers, &id);
	if (t2 < t)
		t = t2;
	if (t == TONIC_IDLE)
		return TONIC_IDLE;
	return t > tc->now ? t : tc->now;
}

static void tonic_cycle(struct tonic_core *tc)
{
	struct tonic_in_info in;
	struct tonic_per_info pi;
	bool have_in = false, have_per;

	if (tc->in_cnt)
		have_in = tonic_in_stage1(tc, &in);
	have_per = tonic_per_due(tc, &pi);
	if (have_in && have_per && pi.id == in.id && pi.timeout) {
		/* An ACK and a timeout for one flow: the ACK wins. */
		tc->st.conflicts++;
		pi.timeout = false;
		if (!pi.periodic)
			have_per = false;
	}
	tonic_prog_cycle(tc, have_in ? &in : NULL, have_per ? &pi : NULL);
	if (have_in)
		tonic_in_post(tc, &in);
	if (have_per)
		tonic_per_post(tc, &pi);

	tonic_cr_timer(tc);
	if (!tc->tx_stalled)
		tonic_cr_transmit(tc);
	tonic_dd_generate(tc);
}

static bool tonic_out_room(const struct tonic_core *tc, const struct tonic_out *out)
{
	if (!tc->tx_stalled && out->ndesc >= out->max_desc)
		return false;
	if (out->note && out->max_note && out->max_note - out->nnote < TONIC_NOTES_PER_CYCLE)
		return false;
	return true;
}

u64 tonic_run(struct tonic_core *tc, u64 until, struct tonic_out *out)
{
	u64 done = 0, nc;

	if (!out || !out->desc)
		return 0;
	tc->out = out;
	while (tc->now <= until) {
		if (!tonic_out_room(tc, out))
			break;
		nc = tonic_next_cycle(tc);
		if (nc == TONIC_IDLE || nc > until) {
			if (until != TONIC_IDLE)
				tc->now = until + 1;
			break;
		}
		tc->now = nc;
		tonic_cycle(tc);
		tc->now++;
		done++;
	}
	tc->out = NULL;
	tc->st.busy_cycles += done;
	return done;
}

void tonic_tx_stall(struct tonic_core *tc, bool stalled)
{
	tc->tx_stalled = stalled;
}

u64 tonic_now(const struct tonic_core *tc)
{
	return tc->now;
}

void tonic_core_stats(const struct tonic_core *tc, struct tonic_core_stats *st)
{
	*st = tc->st;
	st->cycles = tc->now;
}
