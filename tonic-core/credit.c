// SPDX-License-Identifier: GPL-2.0
/*
 * Credit engine (Tonic §3.1, §3.3): a ring of ring_depth segment addresses
 * per flow, the ready-to-tx set (ring non-empty and credit for the head
 * address), and the three credit schemes:
 *  - window: the DD engine already enforced it, so always eligible;
 *  - rate:   credit(t) = min(R (t - t0) + c0, D); a flow short of L bytes
 *            gets an eligibility timer at T = ceil(L / R) cycles;
 *  - grant:  credit = tokens granted - bytes sent.
 * One address leaves per cycle.
 */
#include "compat.h"
#include "tonic.h"
#include "program.h"
#include "core.h"

static inline u32 *tonic_ring(struct tonic_core *tc, u32 id)
{
	return tc->ring + (size_t)id * tc->cfg.ring_depth;
}

static inline u32 tonic_seg_len(const struct tonic_flow *f, u32 seg)
{
	return seg == f->tail - 1 ? f->last_len : f->cfg.seg_size;
}

/* Cycles until the flow's head address has credit: 0 now, TONIC_IDLE never. */
static u64 tonic_cr_wait(struct tonic_core *tc, struct tonic_flow *f, u32 len)
{
	switch (f->scheme) {
	case TONIC_CREDIT_RATE:
		tonic_rate_update(&f->rate, tc->now);
		return tonic_rate_wait(&f->rate, len);
	case TONIC_CREDIT_GRANT:
		return f->credit >= len ? 0 : TONIC_IDLE;
	default:
		return 0;
	}
}

/* Re-evaluate membership in the ready set (queue module). */
void tonic_cr_update(struct tonic_core *tc, u32 id)
{
	struct tonic_flow *f = &tc->flows[id];
	u64 wait;

	if (!f->ring_cnt || (f->flags & (TF_USED | TF_FAILED | TF_XOFF)) != TF_USED) {
		tonic_fifo_remove(&tc->ready, id);
		tonic_timer_del(&tc->cr_timers, id);
		return;
	}
	if (tonic_fifo_member(&tc->ready, id))
		return;
	wait = tonic_cr_wait(tc, f, tonic_seg_len(f, tonic_ring(tc, id)[f->ring_head]));
	if (!wait) {
		tonic_timer_del(&tc->cr_timers, id);
		tonic_fifo_push(&tc->ready, id);
	} else if (wait == TONIC_IDLE) {
		tonic_timer_del(&tc->cr_timers, id);
	} else {
		tonic_timer_set(&tc->cr_timers, id, tc->now + wait);
	}
}

void tonic_cr_enqueue(struct tonic_core *tc, u32 id, u32 seg, bool rtx)
{
	struct tonic_flow *f = &tc->flows[id];
	u32 slot = (f->ring_head + f->ring_cnt) & (tc->cfg.ring_depth - 1);

	tonic_ring(tc, id)[slot] = seg;
	if (rtx)
		f->ring_rtx |= 1ULL << slot;
	else
		f->ring_rtx &= ~(1ULL << slot);
	f->ring_cnt++;
	if (f->ring_cnt == 1)
		tonic_cr_update(tc, id);
}

static void tonic_ring_pop(struct tonic_core *tc, struct tonic_flow *f)
{
	f->ring_rtx &= ~(1ULL << f->ring_head);
	f->ring_head = (f->ring_head + 1) & (tc->cfg.ring_depth - 1);
	f->ring_cnt--;
}

/* Transmit module: one descriptor per cycle. */
void tonic_cr_transmit(struct tonic_core *tc)
{
	struct tonic_flow_counters *c;
	struct tonic_desc *d;
	struct tonic_flow *f;
	u32 id, seg, len;
	bool rtx;

	id = tonic_fifo_pop(&tc->ready);
	if (id == TONIC_FIFO_NIL)
		return;
	f = &tc->flows[id];
	if (unlikely(!f->ring_cnt))
		return;
	seg = tonic_ring(tc, id)[f->ring_head];
	rtx = (f->ring_rtx >> f->ring_head) & 1;
	if (tonic_before(seg, f->wnd_start)) {
		/* Acked while it waited in the ring: drop, don't send. */
		tc->st.stale_desc++;
		tonic_ring_pop(tc, f);
		tonic_dd_update(tc, id);
		tonic_cr_update(tc, id);
		return;
	}
	len = tonic_seg_len(f, seg);
	if (unlikely(tonic_cr_wait(tc, f, len))) {
		/* Credit went away (a program lowered it): wait again. */
		tonic_cr_update(tc, id);
		return;
	}
	d = &tc->out->desc[tc->out->ndesc++];
	d->flow = id;
	d->seg = seg;
	d->len = len;
	d->flags = 0;
	if (rtx)
		d->flags |= TONIC_DESC_RTX;
	if (seg == f->tail - 1)
		d->flags |= TONIC_DESC_LAST;
	/*
	 * Nothing new goes out after it until an ACK moves the window: a
	 * receiver that acks only when asked (RoCE's AckReq) must be asked.
	 */
	else if (!rtx && seg + 1 - f->wnd_start >= tonic_dd_limit(f))
		d->flags |= TONIC_DESC_WND;
	if (f->flags & TF_CWR) {
		d->flags |= TONIC_DESC_CWR;
		f->flags &= ~TF_CWR;
	}
	if (f->scheme == TONIC_CREDIT_RATE)
		tonic_rate_take(&f->rate, len);
	else if (f->scheme == TONIC_CREDIT_GRANT)
		f->credit -= len;
	c = &tc->ctr[id];
	c->segs_sent++;
	c->segs_rtx += rtx;
	c->bytes_sent += len;
	f->bytes_since_periodic += len;
	/* The host's credit (tonic_flow_xoff()) is spent: held again. */
	if (f->host_credit && !--f->host_credit)
		f->flags |= TF_XOFF;
	tonic_ring_pop(tc, f);
	tonic_dd_transmitted(tc, id);
	tonic_cr_update(tc, id);
}

/* Eligibility timer module: one expiry per cycle. */
void tonic_cr_timer(struct tonic_core *tc)
{
	u32 id = 0;

	if (tonic_timer_first(&tc->cr_timers, &id) > tc->now)
		return;
	tonic_timer_del(&tc->cr_timers, id);
	tonic_cr_update(tc, id);
}

void tonic_cr_add_credit(struct tonic_core *tc, u32 id, s64 delta)
{
	struct tonic_flow *f = &tc->flows[id];
	s64 c = (s64)f->credit + delta;

	if (c < 0)
		c = 0;
	if (c > 0xffffffffLL)
		c = 0xffffffffLL;
	f->credit = (u32)c;
	if (delta > 0)
		tonic_cr_update(tc, id);
}

void tonic_cr_set_rate(struct tonic_core *tc, u32 id, u32 kbps, u32 burst)
{
	struct tonic_flow *f = &tc->flows[id];

	if (burst < f->cfg.seg_size)
		burst = f->cfg.seg_size;
	f->rate_kbps = kbps;
	tonic_rate_set(&f->rate, kbps, tc->cfg.cycle_ps, burst, tc->now);
	if (f->scheme == TONIC_CREDIT_RATE && !tonic_fifo_member(&tc->ready, id))
		tonic_cr_update(tc, id);
}

u32 tonic_cr_credit(struct tonic_core *tc, u32 id)
{
	struct tonic_flow *f = &tc->flows[id];

	if (f->scheme == TONIC_CREDIT_RATE) {
		tonic_rate_update(&f->rate, tc->now);
		return tonic_rate_bytes(&f->rate);
	}
	return f->credit;
}

/* Drop the flow's addresses and take it out of the ready set. */
void tonic_cr_flush(struct tonic_core *tc, u32 id)
{
	struct tonic_flow *f = &tc->flows[id];

	f->ring_cnt = 0;
	f->ring_head = 0;
	f->ring_rtx = 0;
	tonic_fifo_remove(&tc->ready, id);
	tonic_timer_del(&tc->cr_timers, id);
}
