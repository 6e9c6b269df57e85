// SPDX-License-Identifier: GPL-2.0
/*
 * IRN (Mittal et al., SIGCOMM'18): RoCE without PFC.  The receiver NACKs
 * every out-of-order packet with the cumulative ack and the PSN that
 * triggered it; stage 1 records that PSN in `acked`.  A NACK starts loss
 * recovery, whose end is the recovery sequence (the last new packet sent
 * before it).  In recovery the cumulative-ack packet goes first, and a later
 * unacked packet only once a higher PSN has been selectively acked -- so
 * reordering below the highest SACK is the only thing taken as loss.
 * BDP-FC caps packets in flight at ceil(BDP / MTU); the timeout is RTO_low
 * when at most IRN_N packets are in flight (tail of a short message), else
 * RTO_high: the flow's RTO, 320 us unless the flow is given another, with
 * RTO_low at the paper's 100 : 320 of it.
 *
 * IRN is rate-based (Tonic's Table 3): the flow is paced at its rate and
 * BDP-FC is the engine's cwnd cap for rate flows (.cwnd_cap).  Two
 * programs:
 *
 * Toward a RoCE receiver, which drops what follows a hole and NACKs
 * (TONIC_PKT_F_GBN) the PSN it expects, the sender goes back N instead.
 *
 *   irn        paced at a constant rate (init_rate_kbps, the line rate).
 *              Parameters (cfg->param[], 0 = default), read on every call:
 *              [0] BDP-FC cap in packets (default IRN_BDP_CAP; IRN_BDP_OFF
 *              disables BDP-FC, leaving only the window limit K)
 *   irn-dcqcn  IRN with DCQCN's reaction point as its rate control, as the
 *              IRN paper pairs them (4.3): CNPs cut the rate, loss is
 *              IRN's.  Parameters are DCQCN's (dcqcn.c); BDP-FC is the
 *              flow's init_cwnd (default IRN_BDP_CAP).
 */
#include "../program.h"
#include "programs.h"

#define IRN_BDP_CAP		110	/* packets: 100 Gb/s x ~9 us / 1 KB, the paper's setting */
#define IRN_BDP_OFF		(~0u)	/* param[0]: no BDP-FC */
#define IRN_N			3	/* RTO_low applies at this many packets in flight or fewer */
#define IRN_RTO_LOW_US		100
#define IRN_RTO_HIGH_US		320

struct irn_state {
	u32 recover;		/* recovery sequence + 1 */
	u32 rtx_next;		/* holes below were already retransmitted */
	u32 sack_hi;		/* one past the highest selectively acked PSN */
	u8 in_recovery;
	u8 timeouts;		/* consecutive, to give up a dead peer */
	u8 deferred;		/* the running timer was stretched to RTO_high */
	u8 pad;
};

static u32 irn_inflight(const struct tonic_prog_ctx *ctx)
{
	u32 hi = tonic_flight(ctx);

	return hi ? hi - tonic_bm_count(ctx->acked, 0, hi) : 0;
}

/*
 * RTO_high is the flow's RTO (cfg->rto_cycles: the program's default of
 * IRN_RTO_HIGH_US, or what the flow was given -- an RDMA QP's local ACK
 * timeout); RTO_low keeps the paper's ratio to it, 100 : 320 us.
 */
static u32 irn_rto_high(const struct tonic_prog_ctx *ctx)
{
	return ctx->cfg ? ctx->cfg->rto_cycles : (u32)tonic_us_cycles(ctx, IRN_RTO_HIGH_US);
}

static u32 irn_rto_low(const struct tonic_prog_ctx *ctx)
{
	return (u32)((u64)irn_rto_high(ctx) * IRN_RTO_LOW_US / IRN_RTO_HIGH_US);
}

/* Static two-level timeout: short when the tail cannot produce NACKs. */
static void irn_set_rto(struct tonic_prog_ctx *ctx)
{
	ctx->rto = irn_inflight(ctx) <= IRN_N ? irn_rto_low(ctx) : irn_rto_high(ctx);
}

/* BDP-FC from param[0]: the window limit K still applies on top. */
static void irn_bdp_fc(struct tonic_prog_ctx *ctx)
{
	u32 cap = ctx->cfg ? ctx->cfg->param[0] : 0;

	if (!cap)
		cap = IRN_BDP_CAP;
	ctx->cwnd = cap < ctx->wnd_bits ? cap : ctx->wnd_bits;
}

static void irn_start(struct tonic_prog_ctx *ctx, struct irn_state *s)
{
	s->recover = ctx->wnd_start;
	s->rtx_next = ctx->wnd_start;
	s->sack_hi = ctx->wnd_start;
	/* Pace one packet at a time at the flow's rate. */
	if (!ctx->burst)
		ctx->burst = ctx->seg_size;
	irn_set_rto(ctx);
}

/*
 * Mark the next run of unacked packets after rtx_next that lies below the
 * highest selectively acked PSN.
 */
static void irn_mark_next(struct tonic_prog_ctx *ctx, struct irn_state *s)
{
	u32 hi = tonic_flight(ctx);
	u32 limit, from, end;

	if (tonic_before(s->rtx_next, ctx->wnd_start))
		s->rtx_next = ctx->wnd_start;
	from = tonic_bm_ffz(ctx->acked, s->rtx_next - ctx->wnd_start);
	if (!tonic_after(s->sack_hi, ctx->wnd_start))
		return;
	limit = s->sack_hi - ctx->wnd_start;
	/* Offset limit - 1 was received, so a run stops before it. */
	if (from + 1 >= limit || from >= hi)
		return;
	end = tonic_hole_end(ctx, from);
	if (end > limit - 1)
		end = limit - 1;
	tonic_mark_rtx(ctx, ctx->wnd_start + from, ctx->wnd_start + end);
	s->rtx_next = ctx->wnd_start + end;
}

static void irn_enter_recovery(struct tonic_prog_ctx *ctx, struct irn_state *s)
{
	if (s->in_recovery)
		return;
	s->in_recovery = 1;
	s->recover = ctx->highest_sent;
	s->rtx_next = ctx->wnd_start;
}

/* ACKs and NACKs: selective repeat. */
static void irn_ack(struct tonic_prog_ctx *ctx, struct irn_state *s)
{
	const struct tonic_pkt *pkt = ctx->pkt;
	u32 i;

	if (pkt->type != TONIC_PKT_ACK && pkt->type != TONIC_PKT_NACK)
		return;
	if (ctx->wnd_start != ctx->old_wnd_start) {
		s->timeouts = 0;
		s->deferred = 0;
		irn_set_rto(ctx);
		ctx->rearm_rto = true;
	}
	if (s->in_recovery && !tonic_before(ctx->wnd_start, s->recover))
		s->in_recovery = 0;
	if (pkt->type == TONIC_PKT_NACK && (pkt->flags & TONIC_PKT_F_GBN)) {
		/*
		 * The peer is a RoCE receiver, not IRN's: it dropped everything
		 * after the hole, so selective repeat would find the rest only
		 * by timeouts.  Fall back to its own recovery, go-back-N.
		 */
		irn_enter_recovery(ctx, s);
		tonic_gbn_mark(ctx);
		s->rtx_next = ctx->highest_sent;
	} else if (pkt->type == TONIC_PKT_NACK) {
		/* The PSN that triggered the NACK arrived; so did any SACK block. */
		if (tonic_after(pkt->nack + 1, s->sack_hi))
			s->sack_hi = pkt->nack + 1;
		for (i = 0; i < pkt->nsack && i < TONIC_MAX_SACK; i++)
			if (tonic_after(pkt->sack[i].end, s->sack_hi))
				s->sack_hi = pkt->sack[i].end;
		irn_enter_recovery(ctx, s);
		irn_mark_next(ctx, s);
	} else if (s->in_recovery) {
		irn_mark_next(ctx, s);
	}
}

static void irn_timeout(struct tonic_prog_ctx *ctx, struct irn_state *s)
{
	u32 first;

	if (!ctx->timeout || !tonic_flight(ctx))
		return;
	/*
	 * The engine armed the timer when the first packet left, with RTO_low;
	 * if the flight has grown past IRN_N since, stretch it to RTO_high.
	 */
	if (!s->deferred && ctx->rto == irn_rto_low(ctx) && irn_inflight(ctx) > IRN_N) {
		s->deferred = 1;
		ctx->rto = irn_rto_high(ctx) - irn_rto_low(ctx);
		return;
	}
	s->deferred = 0;
	if (++s->timeouts > TONIC_RTX_LIMIT) {
		ctx->fail = true;
		return;
	}
	/*
	 * A timeout is a loss of the cumulative-ack packet: recovery resends it
	 * first, and later ones only once a higher PSN is selectively acked
	 * (3.1) -- which the timeout knows nothing of.  That packet is the
	 * first one not acked: a glue may hold the cumulative ack back while
	 * later packets are selectively acked (rdma-glue: behind a READ whose
	 * responses are missing), and resending an acked one sends nothing.
	 */
	irn_enter_recovery(ctx, s);
	first = ctx->wnd_start + tonic_bm_ffz(ctx->acked, 0);
	if (tonic_before(first, ctx->highest_sent))
		tonic_mark_rtx(ctx, first, first + 1);
	s->rtx_next = first + 1;
	irn_set_rto(ctx);
}

static void irn_init(struct tonic_prog_ctx *ctx)
{
	irn_bdp_fc(ctx);
	irn_start(ctx, ctx->user);
}

static void irn_incoming(struct tonic_prog_ctx *ctx)
{
	irn_bdp_fc(ctx);
	irn_ack(ctx, ctx->user);
}

static void irn_periodic(struct tonic_prog_ctx *ctx)
{
	irn_bdp_fc(ctx);
	irn_timeout(ctx, ctx->user);
}

const struct tonic_prog_ops tonic_prog_irn = {
	.name		= "irn",
	.credit		= TONIC_CREDIT_RATE,
	.cwnd_cap	= true,			/* BDP-FC */
	.user_size	= sizeof(struct irn_state),
	.prio		= TONIC_PRIO_INCOMING,
	.def_cwnd	= IRN_BDP_CAP,
	.def_rate_kbps	= 100000000,		/* 100 Gb/s line rate */
	.def_rto_us	= IRN_RTO_HIGH_US,
	.selective	= true,
	.init		= irn_init,
	.incoming	= irn_incoming,
	.periodic	= irn_periodic,
};

struct irn_dcqcn_state {
	struct irn_state irn;
	struct tonic_dcqcn rp;
};

static void irn_dcqcn_init(struct tonic_prog_ctx *ctx)
{
	struct irn_dcqcn_state *s = ctx->user;

	tonic_dcqcn_init(ctx, &s->rp);
	irn_start(ctx, &s->irn);
}

static void irn_dcqcn_incoming(struct tonic_prog_ctx *ctx)
{
	struct irn_dcqcn_state *s = ctx->user;

	if (ctx->pkt->type == TONIC_PKT_CNP)
		tonic_dcqcn_cnp(ctx, &s->rp);
	else
		irn_ack(ctx, &s->irn);
}

static void irn_dcqcn_periodic(struct tonic_prog_ctx *ctx)
{
	struct irn_dcqcn_state *s = ctx->user;

	irn_timeout(ctx, &s->irn);
	tonic_dcqcn_periodic(ctx, &s->rp);
}

static void irn_dcqcn_get_info(const void *user, u32 *vals)
{
	tonic_dcqcn_get_info(&((const struct irn_dcqcn_state *)user)->rp, vals);
}

const struct tonic_prog_ops tonic_prog_irn_dcqcn = {
	.name		= "irn-dcqcn",
	.credit		= TONIC_CREDIT_RATE,
	.cwnd_cap	= true,			/* BDP-FC, fixed at init_cwnd */
	.cnp		= true,
	.user_size	= sizeof(struct irn_dcqcn_state),
	/* A CNP's cut must not be undone by an increase in the same cycle. */
	.prio		= TONIC_PRIO_INCOMING,
	.def_cwnd	= IRN_BDP_CAP,
	.def_rate_kbps	= 40000000,		/* 40 Gb/s, DCQCN's setting */
	.def_rto_us	= IRN_RTO_HIGH_US,
	.selective	= true,
	.info_names	= tonic_dcqcn_info_names,
	.get_info	= irn_dcqcn_get_info,
	.init		= irn_dcqcn_init,
	.incoming	= irn_dcqcn_incoming,
	.periodic	= irn_dcqcn_periodic,
};
