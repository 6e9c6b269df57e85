// SPDX-License-Identifier: GPL-2.0
/*
 * Calling transport programs: the read-write flow variables are copied into
 * a struct tonic_prog_ctx before a call and written back after it.  When
 * Incoming and Periodic handle the same flow in one cycle, both run on
 * copies of the state from before the cycle and their writes are merged:
 * a variable changed by one side takes that side's value, one changed by
 * both takes prog->prio's; user state is merged per 32-bit word the same
 * way; marks from both sides are applied; cwr, rearm_rto and fail are
 * or-ed; grant-credit changes are deltas and add up.
 */
#include "compat.h"
#include "tonic.h"
#include "program.h"
#include "core.h"

struct tonic_ctx_bms {
	struct tonic_bitmap bm[TONIC_BM_NUM];
};

static void tonic_ctx_load(struct tonic_core *tc, u32 id, struct tonic_prog_ctx *ctx,
			   struct tonic_ctx_bms *v, const struct tonic_in_info *in, bool timeout)
{
	struct tonic_flow *f = &tc->flows[id];
	u32 i;

	for (i = 0; i < TONIC_BM_NUM; i++)
		v->bm[i] = tonic_flow_bm(tc, id, i);
	/* Every field is assigned: no memset on this hot path. */
	ctx->now = tc->now;
	ctx->cycle_ps = tc->cfg.cycle_ps;
	ctx->wnd_start = f->wnd_start;
	ctx->old_wnd_start = in ? in->old_wnd_start : f->wnd_start;
	ctx->new_acked = in ? in->new_acked : 0;
	ctx->highest_sent = f->highest_sent;
	ctx->tail = f->tail;
	ctx->seg_size = f->cfg.seg_size;
	ctx->wnd_bits = tc->cfg.wnd_bits;
	ctx->outstanding = f->ring_cnt;
	/*
	 * Released with a credit, the flow is still the host's to limit: an
	 * ACK before the credit is used must not take the announced tail as
	 * what could be out (tonic_tcp_cwnd_limited()).
	 */
	ctx->xoff = (f->flags & TF_XOFF) || f->host_credit;
	ctx->bytes_sent = f->bytes_since_periodic;
	ctx->acked = &v->bm[TONIC_BM_ACKED];
	ctx->rtx_marked = &v->bm[TONIC_BM_MARKED];
	ctx->rtx_done = &v->bm[TONIC_BM_RTX_DONE];
	ctx->pkt = in ? in->pkt : NULL;
	ctx->timeout = timeout;
	ctx->cfg = &f->cfg;
	ctx->cwnd = f->cwnd;
	ctx->rate_kbps = f->rate_kbps;
	ctx->burst = f->rate.burst;
	ctx->credit = tonic_cr_credit(tc, id);
	ctx->rto = f->rto;
	ctx->period = f->period;
	ctx->user = tonic_flow_user(tc, id);
	ctx->rearm_rto = false;
	ctx->cwr = false;
	ctx->fail = false;
	ctx->mark_start = 0;
	ctx->mark_end = 0;
}

/* Mark [s, e) for retransmission, clamped to the window, skipping acked ones. */
static void tonic_apply_marks(struct tonic_core *tc, u32 id, u32 s, u32 e, bool timeout)
{
	struct tonic_flow *f = &tc->flows[id];
	struct tonic_bitmap marked, acked;
	u32 n;

	if (!tonic_before(s, e) || !tonic_before(s, f->highest_sent) ||
	    !tonic_after(e, f->wnd_start))
		return;
	if (tonic_before(s, f->wnd_start))
		s = f->wnd_start;
	if (tonic_after(e, f->highest_sent))
		e = f->highest_sent;
	marked = tonic_flow_bm(tc, id, TONIC_BM_MARKED);
	acked = tonic_flow_bm(tc, id, TONIC_BM_ACKED);
	n = tonic_bm_set_range_andnot(&marked, &acked, s - f->wnd_start, e - f->wnd_start);
	f->marked += n;
	if (unlikely(tc->cfg.trace) && n)
		tc->cfg.trace(tc->cfg.trace_arg, TONIC_TRACE_LOSS, id, s, n);
	/* Grant scheme: a timeout grants credit for what it retransmits. */
	if (timeout && n && f->scheme == TONIC_CREDIT_GRANT)
		tonic_cr_add_credit(tc, id, (s64)n * f->cfg.seg_size);
}

/*
 * Write a program's results back.  What it changed is what differs from
 * the flow, which nothing touched since tonic_ctx_load(): no copy of the
 * context is kept to compare with.
 */
static void tonic_ctx_apply(struct tonic_core *tc, u32 id, const struct tonic_prog_ctx *c,
			    bool timeout)
{
	struct tonic_flow *f = &tc->flows[id];

	if (c->fail) {
		tonic_flow_fail(tc, id, TONIC_FAIL_RTX_LIMIT);
		return;
	}
	f->cwnd = c->cwnd ? c->cwnd : 1;
	f->rto = c->rto ? c->rto : 1;
	if (c->period != f->period) {
		f->period = c->period;
		f->periodic_at = c->period ? tc->now + c->period : TONIC_IDLE;
	}
	if (c->rate_kbps != f->rate_kbps || c->burst != f->rate.burst)
		tonic_cr_set_rate(tc, id, c->rate_kbps, c->burst);
	if (f->scheme == TONIC_CREDIT_GRANT && c->credit != f->credit)
		tonic_cr_add_credit(tc, id, (s32)(c->credit - f->credit));
	if (c->cwr)
		f->flags |= TF_CWR;
	tonic_apply_marks(tc, id, c->mark_start, c->mark_end, timeout);
	if (c->rearm_rto)
		f->rto_at = tc->now + f->rto;
	tonic_dd_timer_update(tc, id);
	tonic_dd_update(tc, id);
}

void tonic_prog_init_flow(struct tonic_core *tc, u32 id)
{
	const struct tonic_prog_ops *p = tc->flows[id].cfg.prog;
	struct tonic_prog_ctx c;
	struct tonic_ctx_bms v;

	tonic_ctx_load(tc, id, &c, &v, NULL, false);
	if (p->init)
		p->init(&c);
	tonic_ctx_apply(tc, id, &c, false);
}

static u32 pick(u32 o, u32 a, u32 b, bool a_wins)
{
	if (a != o && b != o)
		return a_wins ? a : b;
	return a != o ? a : b;
}

static void tonic_prog_both(struct tonic_core *tc, const struct tonic_in_info *in,
			    const struct tonic_per_info *pi)
{
	u32 id = in->id;
	const struct tonic_prog_ops *p = tc->flows[id].cfg.prog;
	bool iw = p->prio == TONIC_PRIO_INCOMING;
	struct tonic_prog_ctx o, ci, cp, m;
	struct tonic_ctx_bms v;
	u32 *uo = tonic_flow_user(tc, id);
	u32 *ui = (u32 *)tc->scratch;
	u32 *up = (u32 *)(tc->scratch + tc->user_stride);
	u32 i, nw = (p->user_size + 3) / 4;

	tonic_ctx_load(tc, id, &o, &v, in, false);
	ci = o;
	cp = o;
	memcpy(ui, uo, nw * 4);
	memcpy(up, uo, nw * 4);
	ci.user = ui;
	cp.user = up;
	cp.pkt = NULL;
	cp.new_acked = 0;
	cp.old_wnd_start = cp.wnd_start;
	cp.timeout = pi->timeout;
	if (p->incoming)
		p->incoming(&ci);
	if (p->periodic)
		p->periodic(&cp);

	m = o;
	m.cwnd = pick(o.cwnd, ci.cwnd, cp.cwnd, iw);
	m.rate_kbps = pick(o.rate_kbps, ci.rate_kbps, cp.rate_kbps, iw);
	m.burst = pick(o.burst, ci.burst, cp.burst, iw);
	m.rto = pick(o.rto, ci.rto, cp.rto, iw);
	m.period = pick(o.period, ci.period, cp.period, iw);
	m.credit = o.credit + (ci.credit - o.credit) + (cp.credit - o.credit);
	m.cwr = ci.cwr || cp.cwr;
	m.rearm_rto = ci.rearm_rto || cp.rearm_rto;
	m.fail = ci.fail || cp.fail;
	m.mark_start = ci.mark_start;
	m.mark_end = ci.mark_end;
	for (i = 0; i < nw; i++)
		uo[i] = pick(uo[i], ui[i], up[i], iw);
	tonic_ctx_apply(tc, id, &m, pi->timeout);
	if (!m.fail)
		tonic_apply_marks(tc, id, cp.mark_start, cp.mark_end, pi->timeout);
	tonic_dd_update(tc, id);
}

static void tonic_prog_one(struct tonic_core *tc, u32 id, const struct tonic_in_info *in,
			   bool timeout)
{
	const struct tonic_prog_ops *p = tc->flows[id].cfg.prog;
	void (*fn)(struct tonic_prog_ctx *ctx) = in ? p->incoming : p->periodic;
	struct tonic_prog_ctx c;
	struct tonic_ctx_bms v;

	if (!fn)
		return;
	tonic_ctx_load(tc, id, &c, &v, in, timeout);
	fn(&c);
	tonic_ctx_apply(tc, id, &c, timeout);
}

void tonic_prog_cycle(struct tonic_core *tc, const struct tonic_in_info *in,
		      const struct tonic_per_info *pi)
{
	if (in && pi && in->id == pi->id) {
		tonic_prog_both(tc, in, pi);
		return;
	}
	if (in)
		tonic_prog_one(tc, in->id, in, false);
	if (pi)
		tonic_prog_one(tc, pi->id, NULL, pi->timeout);
}
