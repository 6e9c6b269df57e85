// SPDX-License-Identifier: GPL-2.0
/*
 * InfiniBand congestion control (IBA vol. 1 annex A10), source side.
 *
 * A Congestion Control Table of injection rate delays (IRD), ascending, is
 * indexed by the per-QP CCTI.  A BECN moves CCTI up by CCTI_Increase (up to
 * CCTI_Limit); every CCTI_Timer without one moves it down by one (down to
 * CCTI_Min).  The source may inject one aggregate of IBCC_AGG packets per
 * IRD, which the credit engine enforces as rate = aggregate bits / IRD with
 * a burst of one aggregate.  CCT[0] = 0 means "not limited": line rate.
 *
 * Flows whose CCTI_Increase differ by 1 : N settle at rates N : 1, which is
 * how the seed 001 partitions bandwidth between tenants.  BECNs arrive as
 * TONIC_PKT_CNP, or as an ACK with ECE set.  Reliability is IB RC's
 * go-back-N.
 *
 * Parameters (cfg->param[], 0 = default), read on every call so that a
 * tonic_flow_set_param() applies from the next BECN or timer step:
 *   [0] CCTI_Increase (default 1, at most CCTI_Limit)
 *   [1] CCTI_Min      (default 0, at most CCTI_Limit)
 *   [2] CCTI_Limit    (default and maximum IBCC_CCT_SIZE - 1)
 *   [3] CCTI_Timer    in microseconds (default 150, at most 1 s)
 *   [4] CCT scale     IRD = CCT[CCTI] x this (default 1, at most 1024): the
 *                     table for a slower link.  The subnet manager programs
 *                     an HCA's CCT; the reference table is written for
 *                     40 Gb/s and cannot go below 155 Mb/s with 1 KiB
 *                     packets.
 * A CCTI outside a changed [CCTI_Min, CCTI_Limit] is clamped into it.
 */
#include "../program.h"
#include "programs.h"

#define IBCC_AGG		4	/* packets per aggregate (the IB spec's example) */
#define IBCC_CCT_SIZE		128
#define IBCC_CCTI_LIMIT		(IBCC_CCT_SIZE - 1)
#define IBCC_CCTI_MIN		0
#define IBCC_CCTI_INCREASE	1
#define IBCC_TIMER_US		150	/* CCTI_Timer (the seed's Table 1) */
#define IBCC_TIMER_MAX_US	1000000
#define IBCC_SCALE_MAX		1024

/* The seed's reference table, CCT(i) = 14 i^2 / 1062 us, in ns, rounded. */
#define CCT(i)		((14000u * (i) * (i) + 531) / 1062)
#define CCT4(i)		CCT(i), CCT(i + 1), CCT(i + 2), CCT(i + 3)
#define CCT16(i)	CCT4(i), CCT4(i + 4), CCT4(i + 8), CCT4(i + 12)
static const u32 ibcc_cct_ns[IBCC_CCT_SIZE] = {
	CCT16(0), CCT16(16), CCT16(32), CCT16(48),
	CCT16(64), CCT16(80), CCT16(96), CCT16(112),
};

struct ibcc_state {
	u32 line;		/* rate when not limited, kbps */
	u32 timer_due;		/* cycle (low 32 bits) of the next CCTI decrement */
	struct tonic_rto rto;
	u16 ccti;
	u16 pad;
};

static u32 ibcc_timer(const struct tonic_prog_ctx *ctx)
{
	u32 us = tonic_prog_param(ctx, 3, IBCC_TIMER_US, IBCC_TIMER_MAX_US);

	return (u32)tonic_us_cycles(ctx, us);
}

static u32 ibcc_limit(const struct tonic_prog_ctx *ctx)
{
	return tonic_prog_param(ctx, 2, IBCC_CCTI_LIMIT, IBCC_CCTI_LIMIT);
}

static u32 ibcc_min(const struct tonic_prog_ctx *ctx)
{
	return tonic_prog_param(ctx, 1, IBCC_CCTI_MIN, ibcc_limit(ctx));
}

/* rate = IBCC_AGG * seg_size bytes per CCT[ccti] ns, capped at line rate. */
static void ibcc_set_rate(struct tonic_prog_ctx *ctx, struct ibcc_state *s)
{
	u64 ird = (u64)ibcc_cct_ns[s->ccti] * tonic_prog_param(ctx, 4, 1, IBCC_SCALE_MAX);
	u64 kbps;

	if (!ird) {
		ctx->rate_kbps = s->line;
		return;
	}
	/* bits / ns = Gb/s = 10^6 kb/s */
	kbps = tonic_div64((u64)IBCC_AGG * ctx->seg_size * 8 * 1000000, ird);
	ctx->rate_kbps = kbps < s->line ? (u32)kbps : s->line;
}

/* Parameters changed at run time: bring CCTI back into [CCTI_Min, CCTI_Limit]. */
static void ibcc_clamp(struct tonic_prog_ctx *ctx, struct ibcc_state *s)
{
	u32 lo = ibcc_min(ctx), hi = ibcc_limit(ctx);

	if (s->ccti >= lo && s->ccti <= hi)
		return;
	s->ccti = (u16)(s->ccti < lo ? lo : hi);
	ibcc_set_rate(ctx, s);
}

static void ibcc_init(struct tonic_prog_ctx *ctx)
{
	struct ibcc_state *s = ctx->user;
	u32 timer = ibcc_timer(ctx);

	s->line = ctx->rate_kbps;
	s->ccti = (u16)ibcc_min(ctx);
	s->timer_due = (u32)ctx->now + timer;
	tonic_rto_init(ctx, &s->rto);
	ctx->burst = IBCC_AGG * ctx->seg_size;
	/* The timer is looked at ten times per CCTI_Timer. */
	ctx->period = timer / 10 ? : 1;
	ibcc_set_rate(ctx, s);
}

static void ibcc_incoming(struct tonic_prog_ctx *ctx)
{
	struct ibcc_state *s = ctx->user;
	const struct tonic_pkt *pkt = ctx->pkt;
	u32 limit = ibcc_limit(ctx), ccti;

	/* IB echoes congestion in a CNP or in the BECN bit of an ACK. */
	if (pkt->type != TONIC_PKT_CNP)
		tonic_gbn_incoming(ctx, &s->rto);
	if (pkt->type != TONIC_PKT_CNP && !(pkt->flags & TONIC_PKT_F_ECE)) {
		ibcc_clamp(ctx, s);
		return;
	}
	/*
	 * Algorithm 1, lines 4-7: only a BECN that finds CCTI below the limit
	 * moves it, and restarts the recovery timer.
	 */
	ibcc_clamp(ctx, s);
	if (s->ccti >= limit)
		return;
	ccti = s->ccti + tonic_prog_param(ctx, 0, IBCC_CCTI_INCREASE, limit);
	s->ccti = (u16)(ccti < limit ? ccti : limit);
	s->timer_due = (u32)ctx->now + ibcc_timer(ctx);
	ibcc_set_rate(ctx, s);
}

static void ibcc_periodic(struct tonic_prog_ctx *ctx)
{
	struct ibcc_state *s = ctx->user;
	u32 now = (u32)ctx->now, timer = ibcc_timer(ctx);

	/* A CCTI_Timer changed on the live flow: looked at as often from here. */
	ctx->period = timer / 10 ? : 1;
	tonic_gbn_timeout(ctx, &s->rto);
	ibcc_clamp(ctx, s);
	if (tonic_before(now, s->timer_due))
		return;
	s->timer_due = now + timer;
	if (s->ccti > ibcc_min(ctx)) {
		s->ccti--;
		ibcc_set_rate(ctx, s);
	}
}

static const char *const ibcc_info_names[] = { "ccti", NULL };

static void ibcc_get_info(const void *user, u32 *vals)
{
	const struct ibcc_state *s = user;

	vals[0] = s->ccti;
}

const struct tonic_prog_ops tonic_prog_ibcc = {
	.name		= "ibcc",
	.credit		= TONIC_CREDIT_RATE,
	.cnp		= true,
	.tenant_param	= 1,	/* CCTI_Increase: 1 : N increases share N : 1 */
	.info_names	= ibcc_info_names,
	.get_info	= ibcc_get_info,
	.user_size	= sizeof(struct ibcc_state),
	/* A BECN's decrease must not be undone by a timer step in the same cycle. */
	.prio		= TONIC_PRIO_INCOMING,
	.def_rate_kbps	= 40000000,	/* QDR, 40 Gb/s */
	.def_rto_us	= 4000,
	.init		= ibcc_init,
	.incoming	= ibcc_incoming,
	.periodic	= ibcc_periodic,
};
