// SPDX-License-Identifier: GPL-2.0
/*
 * The flow table: add, remove, announce segments, statistics.  Flow ids are
 * indices into a table of cfg.max_flows entries allocated at create time,
 * so none of these sleep or allocate.
 */
#include "compat.h"
#include "tonic.h"
#include "program.h"
#include "core.h"

#define TONIC_DEF_CWND		10
#define TONIC_DEF_RATE_KBPS	100000000U	/* 100 Gb/s */
#define TONIC_DEF_RTO_US	1000
#define TONIC_SEG_MAX		(1U << 20)
#define TONIC_PUSH_MAX		(1U << 30)	/* tail - wnd_start */

static inline u32 pick(u32 a, u32 b, u32 c)
{
	return a ? a : b ? b : c;
}

/* @us microseconds in cycles of this engine, within [1, U32_MAX]. */
static u32 us_cycles(const struct tonic_core *tc, u32 us)
{
	u64 c = tonic_us_to_cycles(tc->cfg.cycle_ps, us);

	return c > (u32)~0u ? (u32)~0u : (u32)c;
}

int tonic_flow_add(struct tonic_core *tc, u32 id, const struct tonic_flow_cfg *cfg)
{
	const struct tonic_prog_ops *p;
	struct tonic_flow *f;
	u32 i;
	u16 gen;

	if (id >= tc->cfg.max_flows || !cfg || !cfg->prog)
		return -EINVAL;
	f = &tc->flows[id];
	if (f->flags & TF_USED)
		return -EEXIST;
	p = cfg->prog;
	if (p->credit > TONIC_CREDIT_GRANT)
		return -EINVAL;
	if (p->user_size > tc->cfg.user_max)
		return -E2BIG;
	if (!cfg->seg_size || cfg->seg_size > TONIC_SEG_MAX || cfg->wnd_segs > tc->cfg.wnd_bits)
		return -EINVAL;

	gen = f->gen + 1;
	memset(f, 0, sizeof(*f));
	memset(&tc->ctr[id], 0, sizeof(tc->ctr[id]));
	f->gen = gen;
	f->cfg = *cfg;
	f->cfg.wnd_segs = pick(cfg->wnd_segs, tc->cfg.wnd_bits, 0);
	f->cfg.init_cwnd = pick(cfg->init_cwnd, p->def_cwnd, TONIC_DEF_CWND);
	f->cfg.init_rate_kbps = pick(cfg->init_rate_kbps, p->def_rate_kbps, TONIC_DEF_RATE_KBPS);
	f->cfg.init_credit = pick(cfg->init_credit, p->def_credit, 0);
	f->cfg.rto_cycles = cfg->rto_cycles ? :
			    us_cycles(tc, p->def_rto_us ? : TONIC_DEF_RTO_US);
	f->cfg.ack_notify = pick(cfg->ack_notify, 1, 0);

	f->scheme = p->credit;
	f->wnd_start = cfg->start_seg;
	f->highest_sent = cfg->start_seg;
	f->tail = cfg->start_seg;
	f->last_len = cfg->seg_size;
	f->cwnd = f->cfg.init_cwnd;
	f->rto = f->cfg.rto_cycles;
	f->rto_at = TONIC_IDLE;
	f->periodic_at = TONIC_IDLE;
	f->credit = f->cfg.init_credit;
	f->rate_kbps = f->cfg.init_rate_kbps;
	f->rate.t0 = tc->now;
	tonic_cr_set_rate(tc, id, f->rate_kbps, 0);
	for (i = 0; i < TONIC_BM_NUM; i++) {
		struct tonic_bitmap bm = tonic_flow_bm(tc, id, i);

		tonic_bm_zero(&bm);
	}
	memset(tonic_flow_user(tc, id), 0, tc->user_stride);
	f->flags = TF_USED;
	if (p->credit == TONIC_CREDIT_CWND || p->cwnd_cap)
		f->flags |= TF_CWND_CAP;
	tonic_prog_init_flow(tc, id);
	/* A rate flow starts with a full bucket (D as set by init()). */
	f->rate.credit = (u64)f->rate.burst << f->rate.shift;
	return 0;
}

int tonic_flow_remove(struct tonic_core *tc, u32 id)
{
	struct tonic_flow *f;

	f = tonic_flow_in_use(tc, id);
	if (!f)
		return -ENOENT;
	tonic_fifo_remove(&tc->active, id);
	tonic_cr_flush(tc, id);
	tonic_timer_del(&tc->dd_timers, id);
	f->flags = 0;
	f->rto_at = TONIC_IDLE;
	f->periodic_at = TONIC_IDLE;
	f->gen++;	/* queued input for the old incarnation is dropped */
	return 0;
}

int tonic_flow_set_param(struct tonic_core *tc, u32 id, u32 idx, u32 value)
{
	struct tonic_flow *f = tonic_flow_in_use(tc, id);

	if (!f)
		return -ENOENT;
	if (idx >= TONIC_PROG_PARAMS)
		return -EINVAL;
	f->cfg.param[idx] = value;
	return 0;
}

int tonic_flow_xoff(struct tonic_core *tc, u32 id, bool on, u16 credit)
{
	struct tonic_flow *f;

	f = tonic_flow_in_use(tc, id);
	if (!f)
		return -ENOENT;
	if (on)
		f->flags |= TF_XOFF;
	else
		f->flags &= ~TF_XOFF;
	f->host_credit = on ? 0 : credit;
	tonic_cr_update(tc, id);
	return 0;
}

int tonic_push(struct tonic_core *tc, u32 id, u32 tail, u32 last_len)
{
	struct tonic_flow *f;

	f = tonic_flow_in_use(tc, id);
	if (!f)
		return -ENOENT;
	if (f->flags & TF_FAILED)
		return -EPIPE;
	if (f->flags & TF_SUB)
		return -EBUSY;
	if (!tonic_after(tail, f->tail) || tail - f->wnd_start > TONIC_PUSH_MAX ||
	    !last_len || last_len > f->cfg.seg_size) {
		tc->st.bad_push++;
		return -EINVAL;
	}
	f->tail = tail;
	f->last_len = last_len;
	if (last_len < f->cfg.seg_size && !(f->cfg.flags & TONIC_FLOW_SHORT_SEGS))
		f->flags |= TF_SUB;
	tonic_dd_update(tc, id);
	return 0;
}

int tonic_flow_stats(const struct tonic_core *tc, u32 id, struct tonic_flow_stats *st)
{
	const struct tonic_flow *f;
	const struct tonic_flow_counters *c;

	if (id >= tc->cfg.max_flows || !(tc->flows[id].flags & TF_USED))
		return -ENOENT;
	f = &tc->flows[id];
	c = &tc->ctr[id];
	memset(st, 0, sizeof(*st));
	st->segs_sent = c->segs_sent;
	st->segs_rtx = c->segs_rtx;
	st->segs_acked = c->segs_acked;
	st->bytes_sent = c->bytes_sent;
	st->timeouts = c->timeouts;
	st->nacks = c->nacks;
	st->cnps = c->cnps;
	st->grants = c->grants;
	st->wnd_start = f->wnd_start;
	st->highest_sent = f->highest_sent;
	st->tail = f->tail;
	st->cwnd = f->cwnd;
	st->rate_kbps = f->rate_kbps;
	st->credit = f->scheme == TONIC_CREDIT_RATE ? tonic_rate_bytes(&f->rate) : f->credit;
	st->outstanding = f->ring_cnt;
	st->last_rtt = c->last_rtt;
	if (f->flags & TF_FAILED)
		st->state |= TONIC_FLOW_FAILED;
	if (f->flags & TF_SUB)
		st->state |= TONIC_FLOW_SUB_BURST;
	if (f->cfg.prog->get_info) {
		f->cfg.prog->get_info(tc->user + (size_t)id * tc->user_stride, st->prog_info);
		st->state |= TONIC_FLOW_INFO;
	}
	return 0;
}
