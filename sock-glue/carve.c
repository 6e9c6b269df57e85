// SPDX-License-Identifier: GPL-2.0
/*
 * Carving the send buffer into segments for the device (BRIEF §2):
 * full C-byte segments are announced at once; fewer than C bytes left are
 * announced as a sub-segment when nothing is outstanding (Nagle-like), with
 * TCP_NODELAY or T = 0, or when they have waited T.  After a sub-segment the
 * next burst follows it at once (TONIC_FLOW_SHORT_SEGS: the bursts' table
 * maps segments to bytes), as kernel TCP sends a small segment and goes
 * on; only with TONIC_BURSTS of them in flight does carving wait for an
 * ack.  Only what fits in the peer's receive window is announced; with
 * a closed window and nothing in flight, one segment is announced after T
 * (at least 200 ms) as a window probe.
 */
#include <linux/hrtimer.h>
#include <net/tcp.h>
#include "glue.h"
#include <trace/events/tonic.h>

#define TONIC_PROBE_NS	(200 * NSEC_PER_MSEC)

/* The newest burst that begins at or before @seg or @off: its first segment's index. */
static u32 tonic_burst_find(const struct tonic_sk *ctx, u32 seg, u64 off, bool by_off,
			    u64 *start)
{
	u32 i = ctx->nbursts;

	while (i--) {
		const struct tonic_burst *b = &ctx->bursts[i];

		if (by_off ? off >= b->off : !tonic_before(seg, b->seg)) {
			*start = b->off;
			return b->seg;
		}
	}
	*start = ctx->base_off;
	return ctx->base_seg;
}

/* Offset of segment @seg, base_seg <= seg <= tail_seg. */
u64 tonic_seg_off(const struct tonic_sk *ctx, u32 seg)
{
	u64 start;
	u32 first;

	if (seg == ctx->tail_seg)
		return ctx->ttail;
	first = tonic_burst_find(ctx, seg, 0, false, &start);
	return start + (u64)(seg - first) * ctx->seg;
}

/*
 * The segment offset @off >= base_off falls in, or with @round_up the
 * first that begins at or after it.  In a sub-segment (shorter than C)
 * rounding up gives the next burst's first segment.
 */
u32 tonic_off_seg(const struct tonic_sk *ctx, u64 off, bool round_up)
{
	u64 start;
	u32 first;

	if (off >= ctx->ttail)
		return ctx->tail_seg;
	first = tonic_burst_find(ctx, 0, off, true, &start);
	return first + (u32)div_u64(off - start + (round_up ? ctx->seg - 1 : 0), ctx->seg);
}

/* Bytes of segment @seg; 0 outside [base_seg, tail_seg): acked, or never announced. */
u32 tonic_seg_len(const struct tonic_sk *ctx, u32 seg)
{
	if (tonic_before(seg, ctx->base_seg) || !tonic_before(seg, ctx->tail_seg))
		return 0;
	return tonic_seg_off(ctx, seg + 1) - tonic_seg_off(ctx, seg);
}

/*
 * The device acked every segment before @seg (offset @off): the bursts
 * that end there or before leave the table, the newest of them is the
 * base.  The ACK path reads sequence numbers as 32-bit distances from
 * base_off, so a base that falls TONIC_BASE_LAG behind the ack moves up to
 * it, burst or not; that far behind, it still maps the D-SACKs of old
 * segments.
 */
void tonic_bursts_acked(struct tonic_sk *ctx, u32 seg, u64 off)
{
	u32 n = 0;

	while (n < ctx->nbursts && !tonic_before(seg, ctx->bursts[n].seg))
		n++;
	if (!n && off - ctx->base_off < TONIC_BASE_LAG)
		return;
	spin_lock_bh(&ctx->lock);
	if (n) {
		ctx->base_seg = ctx->bursts[n - 1].seg;
		ctx->base_off = ctx->bursts[n - 1].off;
		ctx->nbursts -= n;
		memmove(ctx->bursts, ctx->bursts + n, ctx->nbursts * sizeof(ctx->bursts[0]));
	}
	if (off - ctx->base_off >= TONIC_BASE_LAG) {
		ctx->base_seg = seg;
		ctx->base_off = off;
	}
	spin_unlock_bh(&ctx->lock);
}

static enum hrtimer_restart tonic_ttimer_fn(struct hrtimer *t)
{
	struct tonic_sk *ctx = container_of(t, struct tonic_sk, ttimer);

	set_bit(TONIC_T_EXPIRED, &ctx->bits);
	tonic_flow_poke(ctx);
	tonic_timer_put(ctx);
	return HRTIMER_NORESTART;
}

void tonic_carve_init(struct tonic_sk *ctx)
{
	hrtimer_init(&ctx->ttimer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	ctx->ttimer.function = tonic_ttimer_fn;
}

static void tonic_arm_t(struct tonic_sk *ctx, u64 ns)
{
	if (ctx->t_armed)
		return;
	ctx->t_armed = true;
	ctx->t_ns = ns;
	ctx->t_due = ktime_add_ns(ktime_get(), ns);
	tonic_timer_start(ctx, &ctx->ttimer, ctx->t_due);
}

/*
 * Has T run out?  Not if it was put off since it was armed (a push sent
 * the bytes it waited for with later ones): then it waits on, to the new
 * time.
 */
static bool tonic_t_expired(struct tonic_sk *ctx)
{
	if (!test_and_clear_bit(TONIC_T_EXPIRED, &ctx->bits))
		return false;
	if (ktime_before(ktime_get(), ctx->t_due)) {
		tonic_timer_start(ctx, &ctx->ttimer, ctx->t_due);
		return false;
	}
	ctx->t_armed = false;
	return true;
}

void tonic_carve(struct sock *sk, struct tonic_sk *ctx)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u64 pending, room, avail, nfull, new_ttail, rem;
	u32 new_tail_seg, last_len = ctx->seg;
	bool expired, sub = false, blocked;
	s32 wnd;
	int err;

	/* A refused push waits for the handback: no second one. */
	if (!ctx->attached || test_bit(TONIC_HANDBACK, &ctx->bits) ||
	    (ctx->sub_pending && ctx->nbursts == TONIC_BURSTS))
		return;
	expired = tonic_t_expired(ctx);
	pending = ctx->tail - ctx->ttail;
	if (!pending)
		return;
	wnd = (s32)(READ_ONCE(ctx->peer_right) - (ctx->isn + (u32)ctx->ttail));
	room = wnd > 0 ? wnd : 0;
	avail = min(pending, room);
	blocked = avail < pending;
	/*
	 * Not even one segment fits (a closed window, or one open by less
	 * than C) and nothing is in flight to bring a window update: probe
	 * after a while, as TCP's persist timer does.
	 */
	if (avail < min_t(u64, pending, ctx->seg) && ctx->head == ctx->ttail) {
		if (!expired) {
			tonic_arm_t(ctx, max_t(u64, TONIC_PROBE_NS,
					       (u64)ctx->sub_delay_us * NSEC_PER_USEC));
			WRITE_ONCE(ctx->wnd_blocked, true);
			return;
		}
		avail = min_t(u64, pending, ctx->seg);
	}
	nfull = div_u64(avail, ctx->seg);
	new_tail_seg = ctx->tail_seg + (u32)nfull;
	new_ttail = ctx->ttail + nfull * ctx->seg;
	rem = avail - nfull * ctx->seg;
	if (rem && new_ttail + rem == ctx->tail) {
		bool nodelay = tp->nonagle & TCP_NAGLE_OFF;
		bool idle = !nfull && ctx->head == ctx->ttail && !(tp->nonagle & TCP_NAGLE_CORK);
		bool shut = sk->sk_shutdown & SEND_SHUTDOWN;	/* no more will come */
		/* T ran out for these bytes: not for bytes since completed, sent whole now. */
		bool waited = (expired || ctx->t_spent) && !nfull;
		/*
		 * Without TCP_NODELAY one small segment is unacked at a time, as
		 * Nagle's rule with Minshall's variant has it (tcp_minshall_check()):
		 * later ones wait for its ack, which carves again.
		 */
		bool sml_out = ctx->head < ctx->sml;

		if (!ctx->sub_delay_us || nodelay || idle || shut || (waited && !sml_out)) {
			sub = true;
			new_tail_seg++;
			new_ttail += rem;
			last_len = rem;
		} else if (waited) {
			ctx->t_spent = true;
		} else {
			tonic_arm_t(ctx, (u64)ctx->sub_delay_us * NSEC_PER_USEC);
		}
	}
	WRITE_ONCE(ctx->wnd_blocked, blocked);
	if (new_tail_seg == ctx->tail_seg)
		return;
	tonic_inline(ctx, true, false);
	err = ctx->dev->ops->push(ctx->dev, ctx->flow, new_tail_seg, last_len);
	tonic_inline(ctx, false, false);
	if (err == -EBUSY)
		return;	/* the device's command queue is full: again at the next carve */
	if (err == -ENODEV || err == -EPIPE) {
		/*
		 * Lost with the device (in reset, or the flow failed and its note
		 * is still on the way): fail over, as that note would.
		 */
		trace_tonic_sock_push_refused(sk, ctx->flow, new_tail_seg, err);
		tonic_flow_failed(ctx);
		return;
	}
	if (err) {
		/* Refused: TCP sends these bytes instead (the flow's work hands back). */
		TONIC_INC(push_refused);
		trace_tonic_sock_push_refused(sk, ctx->flow, new_tail_seg, err);
		set_bit(TONIC_HANDBACK, &ctx->bits);
		tonic_flow_kick(ctx);
		return;
	}
	spin_lock_bh(&ctx->lock);
	if (ctx->sub_pending) {
		/* A sub-segment ended the burst before: this one begins here. */
		ctx->bursts[ctx->nbursts].seg = ctx->tail_seg;
		ctx->bursts[ctx->nbursts].off = ctx->ttail;
		ctx->nbursts++;
	}
	ctx->tail_seg = new_tail_seg;
	ctx->ttail = new_ttail;
	spin_unlock_bh(&ctx->lock);
	/*
	 * The bytes T waited for went out with later ones: the bytes left
	 * over have waited for nothing yet.  Without this, a sender writing
	 * without pause would cut a needless sub-segment every T.
	 */
	if (ctx->t_armed)
		ctx->t_due = ktime_add_ns(ktime_get(), ctx->t_ns);
	ctx->sub_pending = sub;
	ctx->t_spent = false;
	if (sub) {
		ctx->sml = new_ttail;
		TONIC_INC(sub_segments);
	}
	tonic_tx_ring(sk, ctx);	/* what the device decided in the push, kicked or not */
}
