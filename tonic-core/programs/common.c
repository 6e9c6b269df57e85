// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the transport programs.  They are what a Verilog
 * programmer would put in an `include file: a handful of adders,
 * comparators and one bitmap lookup each, no loops.
 */
#include "../program.h"
#include "programs.h"

/* Segments sent and not yet cumulatively acked. */
u32 tonic_flight(const struct tonic_prog_ctx *ctx)
{
	return ctx->highest_sent - ctx->wnd_start;
}

/*
 * Offset (from wnd_start) just past the run of unacked segments starting at
 * @off: the next selectively acked segment, or highest_sent when nothing
 * above is acked.  Never past highest_sent, so a mark never covers data
 * that was not sent yet.
 */
u32 tonic_hole_end(const struct tonic_prog_ctx *ctx, u32 off)
{
	u32 hi = tonic_flight(ctx);
	u32 end = tonic_bm_ffs(ctx->acked, off);

	return end < hi ? end : hi;
}

/*
 * @cycles of the engine clock in microseconds.  Programs that keep times
 * in their state use these, so their behaviour does not change with the
 * cycle length (hardware would offer a microsecond counter).  The product
 * cycles * cycle_ps would overflow 64 bits after 213 days: split it.
 */
u64 tonic_cycles_us(const struct tonic_prog_ctx *ctx, u64 cycles)
{
	u64 m = tonic_div64(cycles, 1000000);

	return m * ctx->cycle_ps + tonic_div64((cycles - m * 1000000) * ctx->cycle_ps, 1000000);
}

/* Microseconds since the engine started. */
u64 tonic_time_us(const struct tonic_prog_ctx *ctx)
{
	return tonic_cycles_us(ctx, ctx->now);
}

/* @us microseconds in engine cycles, at least one. */
u64 tonic_us_cycles(const struct tonic_prog_ctx *ctx, u64 us)
{
	return tonic_us_to_cycles(ctx->cycle_ps, us);
}

/* Program parameter @i of the flow, @def when it is 0, at most @max. */
u32 tonic_prog_param(const struct tonic_prog_ctx *ctx, u32 i, u32 def, u32 max)
{
	u32 v = ctx->cfg ? ctx->cfg->param[i] : 0;

	v = v ? v : def;
	return v < max ? v : max;
}

/*
 * Go-back-N (RoCE, and TCP after an RTO): everything from the first unacked
 * segment to the last one sent goes again.  Selectively acked segments in
 * the range are skipped by segment generation, which tests `acked` first.
 */
void tonic_gbn_mark(struct tonic_prog_ctx *ctx)
{
	if (ctx->highest_sent != ctx->wnd_start)
		tonic_mark_rtx(ctx, ctx->wnd_start, ctx->highest_sent);
}

void tonic_rto_init(struct tonic_prog_ctx *ctx, struct tonic_rto *r)
{
	r->base = ctx->rto;
	r->backoff = 0;
}

/* The peer made progress: forget the backoff and restart the timer. */
void tonic_rto_progress(struct tonic_prog_ctx *ctx, struct tonic_rto *r)
{
	r->backoff = 0;
	ctx->rto = r->base;
	ctx->rearm_rto = true;
}

/* RFC 6298 5.5: double the RTO, bounded; give up after TONIC_RTX_LIMIT in a row. */
void tonic_rto_backoff(struct tonic_prog_ctx *ctx, struct tonic_rto *r)
{
	if (++r->backoff > TONIC_RTX_LIMIT) {
		ctx->fail = true;
		return;
	}
	if (ctx->rto < (r->base << TONIC_RTO_MAX_SHIFT))
		ctx->rto <<= 1;
}

/*
 * RoCE / IB RC reliability for the rate-based programs: cumulative acks,
 * and a NAK (sequence error) naming the expected PSN, after which the
 * sender goes back N.  Returns false for packets it does not handle.
 */
bool tonic_gbn_incoming(struct tonic_prog_ctx *ctx, struct tonic_rto *r)
{
	switch (ctx->pkt->type) {
	case TONIC_PKT_NACK:
		tonic_gbn_mark(ctx);
		tonic_rto_progress(ctx, r);
		return true;
	case TONIC_PKT_ACK:
		if (ctx->wnd_start != ctx->old_wnd_start)
			tonic_rto_progress(ctx, r);
		return true;
	default:
		return false;
	}
}

void tonic_gbn_timeout(struct tonic_prog_ctx *ctx, struct tonic_rto *r)
{
	if (!ctx->timeout || !tonic_flight(ctx))
		return;
	tonic_gbn_mark(ctx);
	tonic_rto_backoff(ctx, r);
}

void tonic_tcp_init(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	/* RFC 5681: ssthresh starts "arbitrarily high"; the window is the real cap. */
	t->ssthresh = ctx->wnd_bits;
	t->recover = ctx->wnd_start;
	t->rtx_next = ctx->wnd_start;
	tonic_rto_init(ctx, &t->rto);
	if (!ctx->cwnd)
		ctx->cwnd = 1;
}

/* cubic, dctcp: RFC 6675 from the start when the handshake said the peer SACKs. */
void tonic_tcp_init_sack(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	tonic_tcp_init(ctx, t);
	if (ctx->cfg && (ctx->cfg->flags & TONIC_FLOW_SACK))
		tonic_sack_start(ctx, t);
}

/* The cumulative ack advanced: it is not a duplicate and the peer is alive. */
void tonic_tcp_new_ack(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	t->dupacks = 0;
	tonic_rto_progress(ctx, &t->rto);
	/*
	 * `recover` trails the window by at most TONIC_RECOVER_LAG: 2^31
	 * segments past it with no congestion event, tonic_before() would wrap
	 * and take the window for one already cut -- no recovery on a loss, no
	 * cut on an ECE or a timeout.
	 */
	if (!tonic_before(ctx->wnd_start, t->recover) &&
	    ctx->wnd_start - t->recover > TONIC_RECOVER_LAG)
		t->recover = ctx->wnd_start - TONIC_RECOVER_LAG;
}

/* Count a duplicate ack, saturating so the DupThresh edge fires only once. */
u8 tonic_tcp_dupack(struct tonic_tcp *t)
{
	if (t->dupacks < 15)
		t->dupacks++;
	return t->dupacks;
}

/*
 * Slow start (tcp_slow_start): grow ctx->cwnd by the acked segments up to
 * ssthresh; returns the acked segments left for congestion avoidance.
 */
u32 tonic_tcp_slow_start(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, u32 acked)
{
	u32 room, ss;

	if (ctx->cwnd >= t->ssthresh)
		return acked;
	room = t->ssthresh - ctx->cwnd;
	ss = acked < room ? acked : room;
	ctx->cwnd += ss;
	if (ctx->cwnd > ctx->wnd_bits)
		ctx->cwnd = ctx->wnd_bits;
	return acked - ss;
}

/*
 * Slow start below ssthresh, then +1 segment per window of acked segments
 * (tcp_slow_start + tcp_cong_avoid_ai).  cwnd never exceeds the bitmap:
 * segment generation could not use more.
 */
void tonic_reno_cong_avoid(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, u32 acked)
{
	u32 cwnd;

	acked = tonic_tcp_slow_start(ctx, t, acked);
	cwnd = ctx->cwnd;
	if (acked) {
		u32 cnt = t->cwnd_cnt + acked;

		if (cnt >= cwnd) {
			u32 inc = cnt / cwnd;

			cnt -= inc * cwnd;
			cwnd += inc;
		}
		t->cwnd_cnt = cnt;
	}
	ctx->cwnd = cwnd < ctx->wnd_bits ? cwnd : ctx->wnd_bits;
}

/*
 * RFC 5681 (4)'s max(FlightSize / 2, 2 SMSS) with cwnd for FlightSize, as
 * Linux's tcp_reno_ssthresh(), whatever the event.  The flight is not the
 * window: when an RFC 6675 recovery ends, the new data it sent past the
 * holes can be twice cwnd, and a loss in it, cut from the flight, opened
 * the window.  Window validation keeps cwnd from growing past what is used.
 */
static u32 tonic_reno_ssthresh(struct tonic_prog_ctx *ctx, struct tonic_tcp *t,
			       enum tonic_cong_event ev)
{
	u32 half = ctx->cwnd / 2;

	return half > 2 ? half : 2;
}

/* srtt_us: RFC 6675 recovery's, which its probe timeout counts from (sack.c); else 0. */
const char *const tonic_tcp_info_names[] = { "ssthresh", "srtt_us", NULL };

void tonic_tcp_get_info(const void *user, u32 *vals)
{
	const struct tonic_tcp *t = user;

	vals[0] = t->ssthresh;
	vals[1] = t->rto.tlp & TONIC_TLP_RTT ? t->rto.srtt * 16u : 0;
}

const struct tonic_tcp_cc tonic_reno_cc = {
	.cong_avoid	= tonic_reno_cong_avoid,
	.ssthresh	= tonic_reno_ssthresh,
};

/*
 * Whether cwnd is what limits the flow, so that an ACK may grow it (RFC
 * 7661; Linux's tcp_is_cwnd_limited()): what could have been out when the
 * ACK came reaches cwnd, or in slow start half of it.  That is the data
 * announced -- as far as the peer's receive window lets the glue announce
 * it -- within the window K; or, while the host holds the flow back
 * (ctx->xoff: TCP Small Queues), only what it took, as TSQ-held data is
 * not in Linux's packets_out.  A window grown past what the flow can use
 * says nothing about the path, and cubic would keep it as W_max.
 */
static bool tonic_tcp_cwnd_limited(const struct tonic_prog_ctx *ctx, const struct tonic_tcp *t)
{
	u32 avail = ctx->tail - ctx->old_wnd_start;
	u32 out = ctx->highest_sent - ctx->old_wnd_start;

	if (avail > ctx->cfg->wnd_segs)
		avail = ctx->cfg->wnd_segs;
	if (ctx->xoff)
		avail = out > ctx->outstanding ? out - ctx->outstanding : 0;
	if (ctx->cwnd < t->ssthresh)
		return ctx->cwnd < 2 * avail;
	return ctx->cwnd <= avail;
}

/*
 * New data acked outside fast recovery: react to ECE or grow the window,
 * and after an RTO keep going back N at the pace the window allows --
 * segment generation does not hold retransmissions to cwnd, so marking the
 * whole flight at once would burst it.
 */
void tonic_tcp_open(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, u32 acked,
		    const struct tonic_tcp_cc *cc)
{
	u32 from, to;

	if (!tonic_tcp_ecn(ctx, t, cc) && tonic_tcp_cwnd_limited(ctx, t))
		cc->cong_avoid(ctx, t, acked);
	if (!tonic_before(ctx->wnd_start, t->recover))
		return;
	from = tonic_before(t->rtx_next, ctx->wnd_start) ? ctx->wnd_start : t->rtx_next;
	to = ctx->wnd_start + ctx->cwnd;
	if (tonic_after(to, t->recover))
		to = t->recover;
	if (tonic_before(from, to)) {
		tonic_mark_rtx(ctx, from, to);
		t->rtx_next = to;
	}
}

/*
 * A loss or an ECE: ssthresh from @cc, remember `recover`, flag CWR.  A
 * loss in the window an ECE already cut is repaired without a second cut,
 * as Linux enters recovery from its CWR state (tcp_enter_recovery()).
 */
void tonic_tcp_enter_recovery(struct tonic_prog_ctx *ctx, struct tonic_tcp *t,
			      const struct tonic_tcp_cc *cc, enum tonic_cong_event ev)
{
	if (!tonic_tcp_in_cwr(ctx, t))
		t->ssthresh = cc->ssthresh(ctx, t, ev);
	t->cwr = ev == TONIC_CE_ECN;
	t->recover = ctx->highest_sent;
	t->in_recovery = TONIC_REC_FAST;
	t->cwnd_cnt = 0;
	ctx->cwr = true;
}

/*
 * RFC 6675's IsLost(HighACK + 1): DupThresh segments above wnd_start are
 * SACKed.  The receiver says how much arrived behind the hole however few
 * ACKs carried it: receive GRO, ACK compression and stretch ACKs turn many
 * segments into one duplicate ACK, and three may never come (Linux's Reno
 * counts SACKed segments too, tcp_dupack_heuristics()).
 */
static bool tonic_tcp_sack_lost(const struct tonic_prog_ctx *ctx)
{
	u32 hi = tonic_flight(ctx);

	return hi > TONIC_DUPTHRESH && tonic_bm_count(ctx->acked, 1, hi) >= TONIC_DUPTHRESH;
}

/* Fast retransmit (RFC 5681 3.2 steps 2-4): wnd_start, into fast recovery. */
static void tonic_tcp_fast_retransmit(struct tonic_prog_ctx *ctx, struct tonic_tcp *t,
				      const struct tonic_tcp_cc *cc)
{
	tonic_tcp_enter_recovery(ctx, t, cc, TONIC_CE_LOSS);
	ctx->cwnd = t->ssthresh + TONIC_DUPTHRESH;
	tonic_mark_rtx(ctx, ctx->wnd_start, ctx->wnd_start + 1);
}

/*
 * A duplicate ack (no cumulative progress) for the Reno family.  In fast
 * recovery each one means a segment left the network: inflate by one.
 * Otherwise the third, or DupThresh segments SACKed above the hole, starts
 * fast retransmit of wnd_start, unless @may_enter says the loss it reports
 * was already handled.
 */
void tonic_tcp_dupack_event(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, bool may_enter,
			    const struct tonic_tcp_cc *cc)
{
	/* Nothing in flight: a window update, not a duplicate. */
	if (!tonic_flight(ctx))
		return;
	if (t->in_recovery) {
		if (ctx->cwnd < ctx->wnd_bits)
			ctx->cwnd++;
		return;
	}
	if ((tonic_tcp_dupack(t) == TONIC_DUPTHRESH || tonic_tcp_sack_lost(ctx)) && may_enter)
		tonic_tcp_fast_retransmit(ctx, t, cc);
}

/*
 * RFC 3168 6.1.2: an ECE halves the window once per window of data, as a
 * loss would, but retransmits nothing.  So does a CNP, the host's word
 * that its own qdisc refused a segment: Linux's tcp_enter_cwr() on
 * NET_XMIT_DROP or _CN.  Returns true when it acted.
 */
bool tonic_tcp_ecn(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, const struct tonic_tcp_cc *cc)
{
	if (!(ctx->pkt->flags & TONIC_PKT_F_ECE) && ctx->pkt->type != TONIC_PKT_CNP)
		return false;
	if (t->in_recovery ||
	    tonic_before(ctx->wnd_start, t->recover))
		return false;
	tonic_tcp_enter_recovery(ctx, t, cc, TONIC_CE_ECN);
	t->in_recovery = 0;
	t->undo_rtx = 0;	/* no D-SACK undoes this cut (Linux's tcp_enter_cwr()) */
	/*
	 * `recover` now only stops a second cut in this window: nothing was
	 * lost, so tell tonic_tcp_open()'s post-RTO go-back-N that everything
	 * before it has been "resent" (it used to resend the whole flight).
	 */
	t->rtx_next = t->recover;
	ctx->cwnd = t->ssthresh;
	return true;
}

/*
 * RTO (RFC 5681 (4), RFC 6582 4.2): collapse to one segment, resend the
 * first unacked one (the rest follows as acks open the window, see
 * tonic_tcp_open()) and ignore dupacks for data sent before the timeout.
 */
void tonic_tcp_timeout(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, const struct tonic_tcp_cc *cc)
{
	u32 ssthresh;

	if (t->rto.tlp & TONIC_TLP_ARMED) {
		tonic_sack_probe_timeout(ctx, cc);
		return;
	}
	t->rto.tlp &= ~TONIC_TLP_OUT;
	/*
	 * One cut a window, as tcp_enter_loss(): not in a window a recovery or
	 * an ECE already cut (cwnd is not the window there), nor at a timeout
	 * repeating the last one with no ACK in between (cwnd is 1).  The cc
	 * hears of every timeout all the same, as Linux's does of the Loss
	 * state (cubic restarts its curve).
	 */
	ssthresh = cc->ssthresh(ctx, t, TONIC_CE_RTO);
	if (!tonic_before(ctx->wnd_start, t->recover) ||
	    (!t->in_recovery && !t->cwr && !t->rto.backoff))
		t->ssthresh = ssthresh;
	t->recover = ctx->highest_sent;
	t->in_recovery = 0;
	t->undo_rtx = 0;
	t->cwr = 0;
	t->dupacks = 0;
	t->cwnd_cnt = 0;
	ctx->cwnd = 1;
	if (tonic_flight(ctx)) {
		tonic_mark_rtx(ctx, ctx->wnd_start, ctx->wnd_start + 1);
		t->rtx_next = ctx->wnd_start + 1;
	}
	tonic_rto_backoff(ctx, &t->rto);
}

/*
 * Loss recovery as Linux's TCP picks it under any congestion control:
 * RFC 6675 with a peer that SACKs, NewReno (RFC 6582) with one that does
 * not.  SACK is negotiated in the handshake, which the engine does not
 * see; a SACK-capable receiver puts blocks in every duplicate ACK, so the
 * first block decides, before any recovery starts.  Without SACK, RFC
 * 6675's pipe would count every hole as in flight and wait for the RTO.
 */
void tonic_tcp_incoming(struct tonic_prog_ctx *ctx, const struct tonic_tcp_cc *cc)
{
	struct tonic_tcp *t = ctx->user;

	if (ctx->pkt->type == TONIC_PKT_ACK && ctx->pkt->nsack)
		t->sack = 1;
	if (t->sack)
		tonic_sack_incoming(ctx, cc);
	else
		tonic_newreno_incoming(ctx, cc);
}

/* The Reno-family programs only use the periodic module for their RTO. */
void tonic_tcp_periodic(struct tonic_prog_ctx *ctx)
{
	if (ctx->timeout)
		tonic_tcp_timeout(ctx, ctx->user, &tonic_reno_cc);
}
