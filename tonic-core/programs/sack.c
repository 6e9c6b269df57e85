// SPDX-License-Identifier: GPL-2.0
/*
 * TCP with selective acks, RFC 6675.  Stage 1 has already set `acked` for
 * every SACK block, so the scoreboard is the bitmap:
 *
 * - IsLost(S): DupThresh segments above S are SACKed.  Every unSACKed
 *   segment below the DupThresh-th highest SACKed one is lost, so one
 *   offset (lost_end) answers IsLost for the whole window.
 * - SetPipe(): unSACKed segments not lost, plus those retransmitted in this
 *   recovery (below HighRxt, kept as rtx_next = HighRxt + 1).
 * - (C): while cwnd - pipe >= 1, NextSeg(): (1) lost segments after
 *   HighRxt, (2) new data, (3) unSACKed segments after HighRxt below the
 *   highest SACKed one, (4) one rescue retransmission of the highest
 *   unSACKed segment per recovery.
 *
 * The engine sends marked segments without looking at cwnd, so a program
 * marks at most cwnd - pipe of them, and lets new data out by setting the
 * engine's window (segments past wnd_start) to flight + what is left.  One
 * range is marked per ACK; the rest of the budget waits for the next one.
 */
#include "../program.h"
#include "programs.h"

/* RACK's reordering timer (sack_reo_wnd()). */
#define TONIC_REO_MIN_US	2000
#define TONIC_REO_PERSIST	15

static void sack_init(struct tonic_prog_ctx *ctx)
{
	tonic_tcp_init(ctx, ctx->user);
	tonic_sack_start(ctx, ctx->user);
}

/* Segments in [from, to) (offsets) that are SACKed (@set) or not. */
static u32 sack_cnt(const struct tonic_prog_ctx *ctx, u32 from, u32 to, bool set)
{
	u32 n = tonic_bm_count(ctx->acked, from, to);

	return set ? n : to - from - n;
}

/*
 * Offset of the @n-th (n >= 1) segment at or after @from that is SACKed
 * (@set) or not, or the flight if there are fewer.  A select over the
 * bitmap as a binary search of popcounts: log2(wnd_bits) + 1 steps.
 */
static u32 sack_nth(const struct tonic_prog_ctx *ctx, u32 from, u32 n, bool set)
{
	u32 lo = from, hi = tonic_flight(ctx);

	if (!n || from >= hi || sack_cnt(ctx, from, hi, set) < n)
		return hi;
	hi--;
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (sack_cnt(ctx, from, mid + 1, set) >= n)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * DupThresh, or RFC 5827's ER_thresh when fewer than DupThresh + 1
 * segments are out and nothing new may go (none is left, or the window is
 * full): DupThresh segments can then never be SACKed above a hole, and
 * each such loss would wait for the RTO; oldSeg - 1 of them are enough.
 */
static u32 sack_thresh(const struct tonic_prog_ctx *ctx)
{
	u32 hi = tonic_flight(ctx);

	if (hi > TONIC_DUPTHRESH || hi < 2 ||
	    (tonic_before(ctx->highest_sent, ctx->tail) && hi < ctx->cwnd &&
	     hi < ctx->cfg->wnd_segs))
		return TONIC_DUPTHRESH;
	return hi - 1;
}

/*
 * Mark offsets [from, to) for retransmission, every path's way, and count
 * the unSACKed ones in the recovery's undo budget (sack_dsack()): counted
 * when marked, so a mark the engine drops (acked meanwhile) only makes an
 * undo less likely.
 */
static void sack_resend(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, u32 from, u32 to)
{
	u32 n = sack_cnt(ctx, from, to, false);

	if (t->undo_rtx)
		t->undo_rtx = n < 0xffffu - t->undo_rtx ? t->undo_rtx + n : 0xffff;
	tonic_mark_rtx(ctx, ctx->wnd_start + from, ctx->wnd_start + to);
}

/*
 * Retransmit offsets [from, to): HighRxt becomes to - 1, and what is sent
 * from now on is newer than every retransmission so far (sack_lost_rtx()).
 */
static void sack_mark(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, u32 from, u32 to)
{
	sack_resend(ctx, t, from, to);
	t->rtx_next = ctx->wnd_start + to;
	t->rtx_hi = (u16)ctx->highest_sent;
}

/* Offset from wnd_start of the segment whose low 16 bits @seg16 keeps (rtx_hi). */
static u32 sack_off16(const struct tonic_prog_ctx *ctx, u16 seg16)
{
	return (u16)(seg16 - (u16)ctx->wnd_start);
}

/* The ACK's first SACK block (RFC 2018: the latest arrival's), after any D-SACK. */
static const struct tonic_sack *sack_first(const struct tonic_pkt *p)
{
	u32 i = tonic_pkt_sack0(p);

	return i < p->nsack ? &p->sack[i] : NULL;
}

/*
 * This duplicate ACK SACKed a segment resent after the first hole's
 * retransmission: the receiver reports the block holding the segment that
 * made it send the ACK first (RFC 2018), and every unSACKed segment in
 * (wnd_start, rtx_next) was resent after wnd_start was.  An ACK that
 * SACKed nothing new (a duplicate arrival) says nothing.
 */
static bool sack_rtx_overtaken(const struct tonic_prog_ctx *ctx, const struct tonic_tcp *t)
{
	const struct tonic_sack *b = sack_first(ctx->pkt);

	if (!b || ctx->wnd_start != ctx->old_wnd_start || !ctx->new_acked)
		return false;
	return tonic_after(b->start, ctx->wnd_start) && !tonic_after(b->end, t->rtx_next);
}

/*
 * A retransmission lost again.  RFC 6675 leaves it to the RTO; RACK (RFC
 * 8985 6.2) calls a segment lost once one sent after it was delivered,
 * and in recovery Linux gives that no reordering window until it has seen
 * reordering (tcp_rack_reo_wnd()).  Everything sent since the last
 * retransmission (offsets from rtx_hi) is newer than every retransmission
 * of this recovery, so one SACKed there while the first hole, already
 * resent, is still missing means that resend was lost: HighRxt goes back
 * to the hole, and rule (1) resends every hole still lost, pipe counting
 * them out again.  A segment resent after the hole and SACKed
 * (sack_rtx_overtaken()) says the same of the resends before it.
 */
static void sack_lost_rtx(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	u32 hi = tonic_flight(ctx);
	u32 newer = sack_off16(ctx, t->rtx_hi);

	if (!tonic_after(t->rtx_next, ctx->wnd_start))
		return;
	if (newer < hi && tonic_bm_count(ctx->acked, newer, hi)) {
		t->rtx_next = ctx->wnd_start;
		t->rtx_hi = (u16)ctx->highest_sent;
		t->remarked = 0;
	} else if (!t->remarked && sack_rtx_overtaken(ctx, t)) {
		/*
		 * Only what was resent before the SACKed segment is lost; what
		 * went after it is still on its way.  Each resend replaces a
		 * lost one in pipe.  These resends are newer than everything
		 * below rtx_next, which therefore tells no more about them.
		 */
		sack_resend(ctx, t, 0, sack_first(ctx->pkt)->start - ctx->wnd_start);
		t->rtx_hi = (u16)ctx->highest_sent;
		t->remarked = 1;
	}
}

/* The engine's clock in ms, low 16 bits (rtx_ms). */
static u16 sack_ms(const struct tonic_prog_ctx *ctx)
{
	return (u16)tonic_div64(tonic_time_us(ctx), 1000);
}

/*
 * Whether an ACK that covered a resent hole was the retransmission's, by
 * RFC 3522's test: its RTT sample, from the echo of the timestamp of the
 * segment that filled the hole, is no longer than the time since the
 * recovery's first retransmission (give or take a tick of each clock).
 * A longer one echoes the original, which came late: reordering, and the
 * ACK says nothing about what was sent after it.  Without a sample, or on
 * paths too short for the 1 ms tick to tell, it is taken for the
 * retransmission's.
 */
static bool sack_rtx_delivered(const struct tonic_prog_ctx *ctx, const struct tonic_tcp *t)
{
	u16 since = sack_ms(ctx) - t->rtx_ms;

	return !ctx->pkt->rtt || tonic_cycles_us(ctx, ctx->pkt->rtt) <= (since + 2) * 1000ULL;
}

/*
 * The last recovery was for reordering: undo it, as Linux does
 * (tcp_undo_cwnd_reduction(); RFC 3522's response).  The window goes
 * back to the one it cut (prior_cwnd, not the flight, which can be twice
 * that), and the recovery, if still running, ends: its cwnd was RFC
 * 6675's allowance, not a window.  So does ssthresh, as far as one bit
 * keeps it: slow start resumes if the recovery interrupted it, else
 * ssthresh is at least 3/4 of that window (Linux's prior_ssthresh,
 * tcp_current_ssthresh()).  The path reorders:
 * the reordering window widens (sack_reo_wnd()).
 */
static void sack_undo_window(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	if (t->in_recovery) {
		t->in_recovery = 0;
		t->cwnd_cnt = 0;
		ctx->cwnd = t->prior_cwnd;
	} else if (ctx->cwnd < t->prior_cwnd) {
		ctx->cwnd = t->prior_cwnd;
	}
	t->reord = TONIC_REO_PERSIST;
	t->undo_rtx = 0;
	if (tonic_before(ctx->wnd_start, t->recover))
		t->recover = ctx->wnd_start;	/* nothing to resend after it (tonic_tcp_open()) */
	if (t->undo_ss)
		t->ssthresh = ctx->wnd_bits;
	else if (t->ssthresh < t->prior_cwnd * 3 / 4u)
		t->ssthresh = t->prior_cwnd * 3 / 4u;
}

/*
 * The late original filled the hole (sack_rtx_delivered()).  Once no
 * retransmission is out -- all are below the new cumulative ACK, and no
 * rescue was sent -- the recovery is undone (tcp_try_undo_partial()).
 */
static bool sack_undo(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	if (!t->undo_rtx || t->in_recovery == TONIC_REC_RESCUED ||
	    tonic_after(t->rtx_next, ctx->wnd_start))
		return false;
	sack_undo_window(ctx, t);
	return true;
}

/*
 * A D-SACK (RFC 2883) of what the last recovery resent: that segment had
 * arrived before.  Once every retransmission of the recovery is reported
 * so, nothing was lost and the recovery is undone, running or over --
 * Linux's undo_retrans and tcp_try_undo_dsack(), which the 1 ms
 * timestamps cannot replace: on a path that delays segments by less than
 * two ticks the retransmission's echo and the original's look alike
 * (sack_rtx_delivered()).  Only segments sent since that recovery began
 * count, and above the cumulative ACK only those resent (the engine's
 * rtx_done): a copy the network made of another one answers for no
 * retransmission.  Below it the engine keeps no record, and every
 * segment counts, as in Linux.
 */
static void sack_dsack(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	const struct tonic_pkt *p = ctx->pkt;
	u32 lo = t->recover - t->prior, s, e, n = 0;

	if (!(p->flags & TONIC_PKT_F_DSACK) || !p->nsack || t->undo_rtx < 2)
		return;
	s = tonic_before(p->sack[0].start, lo) ? lo : p->sack[0].start;
	e = tonic_after(p->sack[0].end, ctx->highest_sent) ? ctx->highest_sent : p->sack[0].end;
	if (!tonic_before(s, e))
		return;
	if (tonic_before(s, ctx->wnd_start)) {
		u32 below = tonic_before(e, ctx->wnd_start) ? e : ctx->wnd_start;

		n = below - s;
		s = below;
	}
	if (tonic_before(s, e))
		n += tonic_bm_count(ctx->rtx_done, s - ctx->wnd_start, e - ctx->wnd_start);
	if (!n)
		return;
	t->undo_rtx = n < t->undo_rtx - 1u ? t->undo_rtx - n : 1;
	if (t->undo_rtx == 1)
		sack_undo_window(ctx, t);
}

/*
 * RFC 6675 step (C) on one ACK of a recovery.  @force: the first unSACKed
 * segment goes out whatever pipe says (step 4.3, entering recovery).
 * @partial: the ACK delivered a retransmission (see below).
 */
static void sack_send(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, bool force, bool partial)
{
	u32 hi = tonic_flight(ctx);
	u32 sacked = tonic_bm_count(ctx->acked, 0, hi);
	u32 rtx = tonic_before(t->rtx_next, ctx->wnd_start) ? 0 : t->rtx_next - ctx->wnd_start;
	u32 thresh = sack_thresh(ctx), lost_end = 0, pipe, budget, first, to;

	/* IsLost(S): thresh (DupThresh, or ER_thresh) SACKed above S. */
	if (sacked >= thresh)
		lost_end = sack_nth(ctx, 0, sacked - thresh + 1, true);
	if (rtx > hi)
		rtx = hi;
	/*
	 * A partial ACK that delivered a retransmission: every segment sent
	 * before it and still unSACKed is lost -- RACK's rule (RFC 8985 6.2,
	 * no reordering window), of which RFC 6582's partial ACK is the first
	 * segment.  Everything below RecoveryPoint went out before any
	 * retransmission.  Without it a lost tail, with nothing above to
	 * SACK, stayed in pipe and waited for the RTO.
	 */
	if (partial && tonic_before(ctx->wnd_start, t->recover)) {
		u32 rp = t->recover - ctx->wnd_start;

		if (lost_end < rp)
			lost_end = rp < hi ? rp : hi;
	}
	/*
	 * SetPipe(): "(a) If IsLost (S1) returns false: pipe += 1 ...
	 * (b) If S1 <= HighRxt: pipe += 1" for every unSACKed S1.
	 */
	pipe = sack_cnt(ctx, 0, hi, false) - sack_cnt(ctx, 0, lost_end, false) +
	       sack_cnt(ctx, 0, rtx, false);
	budget = t->ssthresh > pipe ? t->ssthresh - pipe : 0;
	first = tonic_bm_ffz(ctx->acked, rtx);
	if (force) {
		if (!budget)
			budget = 1;
		if (lost_end <= first)
			lost_end = first + 1;
	}
	/* Nothing goes out until the next ACK unless something is left for (2). */
	ctx->cwnd = hi;
	if (!budget)
		return;
	if (first < lost_end) {
		/*
		 * (1) "the smallest unSACKed sequence number S2 ... greater
		 * than HighRxt ... IsLost (S2) returns true": lost segments
		 * from there, as many as cwnd - pipe allows.
		 */
		to = sack_nth(ctx, first, budget, false) + 1;
		if (to > lost_end)
			to = lost_end;
		sack_mark(ctx, t, first, to);
		budget -= sack_cnt(ctx, first, to, false);
		/* (2) only once no lost segment is left for this budget. */
		if (to == lost_end)
			ctx->cwnd = hi + budget;
		return;
	}
	/* (2) "available unsent data and the receiver's advertised window allows" */
	if (tonic_before(ctx->highest_sent, ctx->tail) && hi < ctx->cfg->wnd_segs) {
		ctx->cwnd = hi + budget;
		return;
	}
	if (first >= hi)
		return;		/* every unSACKed segment was retransmitted */
	if (tonic_bm_count(ctx->acked, first, hi)) {
		/*
		 * (3) "an unSACKed sequence number 'S3' ... greater than
		 * HighRxt ... less than the highest octet covered by any
		 * received SACK": not lost yet, but nothing else can go.
		 */
		u32 top = sack_nth(ctx, 0, sacked, true);

		to = sack_nth(ctx, first, budget, false) + 1;
		if (to > top)
			to = top;
		sack_mark(ctx, t, first, to);
		return;
	}
	/*
	 * (4) "a single 'rescue' retransmission per entry into loss
	 * recovery.  If HighACK is greater than RescueRxt ..., one segment
	 * ... that MUST include the highest outstanding unSACKed sequence
	 * number" -- RescueRxt = RecoveryPoint, HighRxt is not updated.
	 * Nothing is SACKed in [first, hi), so that is the last one sent.
	 * (We do not rescue a segment already resent in this recovery: its
	 * retransmission is still in flight.)
	 */
	if (t->in_recovery != TONIC_REC_PARTIAL)
		return;
	sack_resend(ctx, t, hi - 1, hi);
	t->rtx_hi = (u16)ctx->highest_sent;
	t->in_recovery = TONIC_REC_RESCUED;
}

/*
 * Step (4): "RecoveryPoint = HighData", "ssthresh = cwnd = (FlightSize /
 * 2)" (cwnd for FlightSize, as Linux: tonic_reno_ssthresh()), retransmit
 * HighACK + 1 "and set both HighRxt and RescueRxt" to it
 * (TONIC_REC_FAST: no rescue before HighACK moves).  @probe: this ACK
 * SACKed the tail loss probe.
 */
static void sack_enter_recovery(struct tonic_prog_ctx *ctx, struct tonic_tcp *t,
				const struct tonic_tcp_cc *cc, bool probe)
{
	bool ece = tonic_tcp_in_cwr(ctx, t) || (ctx->pkt && (ctx->pkt->flags & TONIC_PKT_F_ECE));

	t->undo_ss = ctx->cwnd < t->ssthresh;
	t->remarked = 0;
	t->prior = (u16)tonic_flight(ctx);
	t->prior_cwnd = (u16)ctx->cwnd;
	/*
	 * No undo of a window an ECE cut, or of one cut on an ECE (Linux
	 * keeps no prior_ssthresh then); a probe out, or SACKed by this ACK,
	 * is one more retransmission to be reported.
	 */
	t->undo_rtx = ece ? 0 : 1 + (probe || (t->rto.tlp & TONIC_TLP_OUT));
	tonic_tcp_enter_recovery(ctx, t, cc, TONIC_CE_LOSS);
	t->rtx_ms = sack_ms(ctx);
	t->rtx_next = ctx->wnd_start;
	t->rto.tlp &= ~TONIC_TLP_OUT;
	sack_send(ctx, t, true, false);
}

/* RFC 6298 2.3's SRTT (alpha 1/8) from an RTT sample, in 16 us units. */
static void sack_rtt_sample(struct tonic_tcp *t, u64 us)
{
	u32 r = us >= 0xffff * 16ULL ? 0xffff : (u32)us / 16;

	if (!(t->rto.tlp & TONIC_TLP_RTT))
		t->rto.srtt = r;
	else
		t->rto.srtt = (u16)((t->rto.srtt * 7 + r) / 8);
	t->rto.tlp |= TONIC_TLP_RTT;
}

/* The ACK's sample. */
static void sack_rtt(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	if (ctx->pkt->rtt)
		sack_rtt_sample(t, tonic_cycles_us(ctx, ctx->pkt->rtt));
}

/*
 * Tail loss probe (RFC 8985 7).  A loss at the tail of a flight leaves
 * nothing to SACK above it, and a small window never collects DupThresh
 * SACKs: such a loss waited for the RTO (200 ms at least, against round
 * trips of a millisecond), and at 5 % loss the guest's flows spent most of
 * their time there.  With two or more segments out, no recovery running,
 * no probe out and an RTT known, the timer runs at the probe timeout PTO
 * = 2 SRTT + TONIC_TLP_MIN_US (RFC 8985 7.2; Linux adds two jiffies)
 * instead.  With one segment out the receiver may delay its ACK: the RTO
 * stands, as Linux's PTO then adds RTO_min.
 */
#define TONIC_TLP_MIN_US	10000

/*
 * Segments out once this event's are sent: the flight, or as far as cwnd
 * and the announced data reach.  An ACK of everything out leaves a flight
 * of 0 that its own new segments fill right after.
 */
static u32 sack_out_next(const struct tonic_prog_ctx *ctx)
{
	u32 hi = tonic_flight(ctx), avail = ctx->tail - ctx->wnd_start;
	u32 w = ctx->cwnd < avail ? ctx->cwnd : avail;

	return w > hi ? w : hi;
}

static u64 sack_pto(const struct tonic_prog_ctx *ctx, const struct tonic_tcp *t)
{
	return tonic_us_cycles(ctx, t->rto.srtt * 32ULL + TONIC_TLP_MIN_US);
}

/*
 * RACK's reordering timer (RFC 8985 6.2, 6.3): how long a hole may still
 * be reordering once a segment sent after it was delivered.  A quarter of
 * the RTT (Linux takes min_rtt / 4; this program keeps only SRTT), all of
 * SRTT once the path was seen to reorder (Linux widens it on D-SACKs, up
 * to SRTT) and for the next TONIC_REO_PERSIST recoveries that were not
 * undone (Linux's reo_wnd_persist), plus the 2 ms Linux adds to every
 * such timer (TCP_TIMEOUT_MIN_US): without it, a path that delays some
 * segments by a millisecond had every one of them resent.
 */
static u64 sack_reo_wnd(const struct tonic_prog_ctx *ctx, const struct tonic_tcp *t)
{
	u32 us = t->rto.srtt * 16u;

	return tonic_us_cycles(ctx, (t->reord ? us : us / 4) + TONIC_REO_MIN_US);
}

/* Whether the timer may run at @when instead of the RTO (sack_arm_probe()). */
static bool sack_probe_ok(const struct tonic_prog_ctx *ctx, const struct tonic_tcp *t, u64 when)
{
	u8 tlp = t->rto.tlp;

	return !t->in_recovery && sack_out_next(ctx) >= 2 && !(tlp & TONIC_TLP_OUT) &&
	       (tlp & TONIC_TLP_RTT) && !t->rto.backoff && when < t->rto.base;
}

/*
 * Outside recovery, with two or more out and an RTT known, the timer runs
 * at the probe timeout -- or, while a segment is SACKed above the first
 * hole (too few for DupThresh: RFC 6675 would wait; or any number, on a
 * path seen to reorder, sack_ack()) and a recovery may
 * start for it, at RACK's reordering window: when it fires the hole is
 * lost (tonic_sack_probe_timeout()).  That window runs from the ACK that
 * first SACKed above the hole; a PTO waited 10 ms and more for each such
 * loss.  Holes below the point of an RTO are the RTO's go-back-N's to
 * resend (tonic_tcp_may_enter()): the probe timer, as before, for them.
 */
static void sack_arm_probe(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	u8 tlp = t->rto.tlp;
	bool reo = !t->in_recovery && tonic_tcp_may_enter(ctx, t) &&
		   tonic_bm_count(ctx->acked, 1, tonic_flight(ctx));
	u64 when;

	/*
	 * The hole the window ran for was filled by its original (armed only
	 * where nothing resends it): reordering.
	 */
	if ((tlp & TONIC_TLP_REO) && !t->in_recovery && ctx->wnd_start != ctx->old_wnd_start)
		t->reord = TONIC_REO_PERSIST;
	when = reo ? sack_reo_wnd(ctx, t) : sack_pto(ctx, t);

	if (sack_probe_ok(ctx, t, when)) {
		/*
		 * Restart it only where the RTO would restart (progress, or
		 * newly armed) or where the reordering window begins.
		 */
		if (!(tlp & TONIC_TLP_ARMED) || ctx->rearm_rto || (reo && !(tlp & TONIC_TLP_REO))) {
			ctx->rto = (u32)when;
			ctx->rearm_rto = true;
		}
		tlp |= TONIC_TLP_ARMED;
		tlp = reo ? tlp | TONIC_TLP_REO : tlp & ~TONIC_TLP_REO;
	} else if (tlp & TONIC_TLP_ARMED) {
		ctx->rto = t->rto.base;
		ctx->rearm_rto = true;
		tlp &= ~(TONIC_TLP_ARMED | TONIC_TLP_REO);
	}
	t->rto.tlp = tlp;
}

/*
 * At flow start.  Given an RTT measured before (the handshake's, as Linux
 * takes the SYN-ACK's), the timer the first segment starts runs at the
 * probe timeout, as Linux arms one after its first flight: without it a
 * first flight lost whole waited for the RTO.  Whether two segments went
 * out is known only when it fires (tonic_sack_probe_timeout()).
 */
void tonic_sack_start(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	u32 us = ctx->cfg ? ctx->cfg->init_rtt_us : 0;
	u64 pto;

	t->sack = 1;
	if (!us)
		return;
	sack_rtt_sample(t, us);
	pto = sack_pto(ctx, t);
	if (pto >= t->rto.base)
		return;
	ctx->rto = (u32)pto;
	t->rto.tlp |= TONIC_TLP_ARMED;
}

/*
 * The probe timeout fired: nothing was acked for 2 SRTT.  Send the probe,
 * the last segment sent (RFC 8985 7.3 prefers new data when there is
 * some: the engine would need a window one past cwnd for it), and leave
 * the window alone: the ACKs may only be late -- behind a queue that grew
 * faster than SRTT -- and then the probe costs one segment, where taking
 * the flight as lost cost a burst of needless retransmissions and a cut.
 * The RTO runs from here.  What the probe's ACK says is sack_probe_acked().
 */
void tonic_sack_probe_timeout(struct tonic_prog_ctx *ctx, const struct tonic_tcp_cc *cc)
{
	struct tonic_tcp *t = ctx->user;
	u32 hi = tonic_flight(ctx);

	t->rto.tlp &= ~(TONIC_TLP_ARMED | TONIC_TLP_REO);
	ctx->rto = t->rto.base;
	ctx->rearm_rto = true;
	if (!hi || t->in_recovery)
		return;
	/* One segment out: its ACK may be delayed, the RTO stands (from its start). */
	if (hi < 2) {
		u64 pto = sack_pto(ctx, t);

		/* Armed only while PTO < RTO (sack_arm_probe()): never wrap. */
		ctx->rto = pto < t->rto.base ? (u32)(t->rto.base - pto) : 1;
		return;
	}
	/*
	 * Something above the first hole was SACKed, too little for
	 * DupThresh: sent after the hole, and arrived RACK's reordering
	 * window ago (sack_arm_probe()), so the hole is lost.  The probe, the
	 * last segment, may be the SACKed one itself, which segment
	 * generation would skip: recover.
	 */
	if (tonic_bm_count(ctx->acked, 1, hi) && tonic_tcp_may_enter(ctx, t)) {
		sack_enter_recovery(ctx, t, cc, false);
		return;
	}
	/* A retransmission too: its D-SACK must not answer for another one. */
	sack_resend(ctx, t, hi - 1, hi);
	t->rtx_hi = (u16)(ctx->highest_sent - 1);
	t->rto.tlp |= TONIC_TLP_OUT;
}

/*
 * The probe (segment rtx_hi) is SACKed while segments below it are not:
 * on a FIFO path they were sent before it and should have been there
 * first, so they were lost (RACK's rule, RFC 8985 6.2) -- recovery.  Acked
 * cumulatively, it ends the episode: nothing was lost, or the probe
 * repaired the only loss.
 */
static bool sack_probe_acked(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	u32 probe = sack_off16(ctx, t->rtx_hi);

	if (!(t->rto.tlp & TONIC_TLP_OUT))
		return false;
	if (probe < tonic_flight(ctx) && !tonic_bm_test(ctx->acked, probe))
		return false;
	t->rto.tlp &= ~TONIC_TLP_OUT;
	return probe < tonic_flight(ctx);
}

/* Steps (A)-(C) and the entry into recovery, on one ACK. */
static void sack_ack(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, const struct tonic_tcp_cc *cc,
		     bool probe_sacked)
{
	u32 acked = ctx->wnd_start - ctx->old_wnd_start;
	u32 hi = tonic_flight(ctx);

	if (acked) {
		tonic_tcp_new_ack(ctx, t);
		/* (A) a cumulative ACK past RecoveryPoint ends recovery. */
		if (t->in_recovery && !tonic_before(ctx->wnd_start, t->recover)) {
			t->in_recovery = 0;
			t->cwnd_cnt = 0;
			if (t->reord)
				t->reord--;
			ctx->cwnd = t->ssthresh;
			/* An ECE on it cuts again, for good (tcp_try_to_open()). */
			tonic_tcp_ecn(ctx, t, cc);
			return;
		}
		if (!t->in_recovery)
			tonic_tcp_open(ctx, t, acked, cc);
		else if (t->in_recovery == TONIC_REC_FAST)
			t->in_recovery = TONIC_REC_PARTIAL;	/* HighACK > RescueRxt */
	} else if (hi && !t->in_recovery && ctx->new_acked) {
		/*
		 * RFC 6675's duplicate ACK SACKs what was not SACKed before.
		 * A D-SACK's (a resend arrived twice) counted: each needless
		 * retransmission then brought the next recovery nearer.
		 */
		tonic_tcp_dupack(t);
	}
	if (!hi)
		return;
	if (t->in_recovery) {
		bool rtx_acked = acked && tonic_before(ctx->old_wnd_start, t->rtx_next);
		bool late = rtx_acked && !sack_rtx_delivered(ctx, t);

		if (late && sack_undo(ctx, t))
			return;
		/* (B) SetPipe() and (C) on every ACK of the recovery. */
		sack_lost_rtx(ctx, t);
		sack_send(ctx, t, false, rtx_acked && !late);
		return;
	}
	/*
	 * (2) DupThresh dupacks, or IsLost(HighACK + 1): offset 0 is unacked
	 * after stage 1, so count(1, hi) is "SACKed above".
	 */
	if (t->dupacks < sack_thresh(ctx) && !probe_sacked &&
	    tonic_bm_count(ctx->acked, 1, hi) < sack_thresh(ctx))
		return;
	if (!tonic_tcp_may_enter(ctx, t))
		return;
	/*
	 * On a path seen to reorder, DupThresh SACKs wait for the reordering
	 * window too (sack_arm_probe() runs it, its expiry starts the
	 * recovery), as Linux's RACK gives up its zero window once it has
	 * seen reordering (tcp_rack_reo_wnd()).  A millisecond's delay let
	 * three segments overtake one at a gigabit, and the recovery that
	 * started, too short for the timestamps to undo, resent the flight.
	 */
	if (t->reord && !probe_sacked && sack_probe_ok(ctx, t, sack_reo_wnd(ctx, t)))
		return;
	sack_enter_recovery(ctx, t, cc, probe_sacked);
}

/*
 * Also the loss recovery of cubic and dctcp toward a peer that SACKs
 * (tonic_tcp_incoming()): @cc says how the window grows and how far it is
 * cut.
 */
void tonic_sack_incoming(struct tonic_prog_ctx *ctx, const struct tonic_tcp_cc *cc)
{
	struct tonic_tcp *t = ctx->user;

	if (ctx->pkt->type == TONIC_PKT_CNP)
		tonic_tcp_ecn(ctx, t, cc);
	if (ctx->pkt->type != TONIC_PKT_ACK)
		return;
	sack_rtt(ctx, t);
	sack_dsack(ctx, t);
	sack_ack(ctx, t, cc, sack_probe_acked(ctx, t));
	sack_arm_probe(ctx, t);
}

static void sack_incoming(struct tonic_prog_ctx *ctx)
{
	tonic_sack_incoming(ctx, &tonic_reno_cc);
}

const struct tonic_prog_ops tonic_prog_sack = {
	.name		= "sack",
	.credit		= TONIC_CREDIT_CWND,
	.user_size	= sizeof(struct tonic_tcp),
	.info_names	= tonic_tcp_info_names,
	.get_info	= tonic_tcp_get_info,
	.prio		= TONIC_PRIO_INCOMING,
	.def_cwnd	= 10,
	.def_rto_us	= 200000,	/* Linux's RTOmin */
	.init		= sack_init,
	.incoming	= sack_incoming,
	.periodic	= tonic_tcp_periodic,
};
