// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 with DCQCN (Zhu et al., SIGCOMM'15), reaction point only.
 *
 * A CNP cuts the current rate Rc by alpha/2 after remembering it as the
 * target Rt, and pushes alpha towards 1.  Without CNPs, alpha decays every
 * K, and two independent clocks -- a timer of period T and a byte counter
 * of B bytes -- drive rate increase: the first F events of either are fast
 * recovery (Rc halfway back to Rt), then Rt grows additively by R_AI, and
 * once both clocks passed F, by i * R_HAI (hyper increase).
 *
 * The floats of the original become integers: alpha is Q16 (65536 = 1), so
 * g = 1/256 is a shift by 8 and Rc * alpha / 2 a 64-bit product shifted by
 * 17; rates are kbps.  Times are microseconds of the engine clock
 * (tonic_time_us), so the behaviour does not depend on the cycle length.
 * Reliability is RoCE's go-back-N; the reaction point (tonic_dcqcn_*) is
 * also IRN's rate control in the irn-dcqcn program (irn.c).
 *
 * Parameters (cfg->param[], 0 = the paper's value), read on every call
 * (a device sets them for all its flows, as a NIC keeps one set):
 * param[0] = the rate-increase timer T in us, 55, and K unless param[6];
 * param[1] = R_AI and param[2] = R_HAI in kbps, 40 and 400 Mb/s;
 * param[3] = the byte counter B in bytes, 10 MB; param[4] = g in 1/65536,
 * 256 (1/256); param[5] = F, the fast-recovery steps, 5; param[6] = the
 * alpha-update period K in us, T.  The timers are checked ten times per
 * the shorter period.
 */
#include "../program.h"
#include "programs.h"

#define DCQCN_ALPHA_ONE		65536		/* Q16 */
#define DCQCN_G			256		/* g = 1/256, Q16 */
#define DCQCN_TIMER_US		55		/* K and T */
#define DCQCN_TIMER_MAX_US	1000000
#define DCQCN_TICKS		10		/* periodic() calls per timer period */
#define DCQCN_B_BYTES		(10u << 20)	/* byte counter, 10 MB */
#define DCQCN_F			5		/* fast-recovery steps */
#define DCQCN_F_MAX		254		/* the stage counters stop at 255 */
#define DCQCN_R_AI		40000		/* kbps: 40 Mb/s */
#define DCQCN_R_HAI		400000		/* kbps: 400 Mb/s */
#define DCQCN_R_MIN		1000		/* kbps: rate floor, ConnectX's rpg_min_rate default */

struct dcqcn_state {
	struct tonic_dcqcn rp;
	struct tonic_rto rto;
};

/* T, the rate-increase timer. */
static u32 dcqcn_timer_us(const struct tonic_prog_ctx *ctx)
{
	return tonic_prog_param(ctx, 0, DCQCN_TIMER_US, DCQCN_TIMER_MAX_US);
}

/* K, the alpha-update period: T unless set apart. */
static u32 dcqcn_alpha_us(const struct tonic_prog_ctx *ctx)
{
	return tonic_prog_param(ctx, 6, dcqcn_timer_us(ctx), DCQCN_TIMER_MAX_US);
}

static u32 dcqcn_g(const struct tonic_prog_ctx *ctx)
{
	return tonic_prog_param(ctx, 4, DCQCN_G, DCQCN_ALPHA_ONE);
}

/* The engine calls periodic() DCQCN_TICKS times per the shorter clock. */
static void dcqcn_period(struct tonic_prog_ctx *ctx)
{
	u32 t = dcqcn_timer_us(ctx), k = dcqcn_alpha_us(ctx);

	ctx->period = (u32)tonic_us_cycles(ctx, t < k ? t : k) / DCQCN_TICKS;
}

/* Restart both clocks: the next alpha decay and rate increase are a period away. */
static void dcqcn_clocks(struct tonic_prog_ctx *ctx, struct tonic_dcqcn *d, u32 now)
{
	d->alpha_due = now + dcqcn_alpha_us(ctx);
	d->rate_due = now + dcqcn_timer_us(ctx);
	dcqcn_period(ctx);
}

void tonic_dcqcn_init(struct tonic_prog_ctx *ctx, struct tonic_dcqcn *d)
{
	u32 now = (u32)tonic_time_us(ctx);

	d->rt = ctx->rate_kbps;
	d->alpha = DCQCN_ALPHA_ONE;	/* the paper starts at 1: the first CNP halves */
	dcqcn_clocks(ctx, d, now);
	/* Per-packet pacing: a hardware rate limiter holds one packet of credit. */
	if (!ctx->burst)
		ctx->burst = ctx->seg_size;
}

void tonic_dcqcn_cnp(struct tonic_prog_ctx *ctx, struct tonic_dcqcn *d)
{
	u32 rc = ctx->rate_kbps;

	d->rt = rc;
	rc -= (u32)(((u64)rc * d->alpha) >> (16 + 1));
	ctx->rate_kbps = rc > DCQCN_R_MIN ? rc : DCQCN_R_MIN;
	/* alpha = (1 - g) alpha + g, rounded up so that it reaches 1 */
	d->alpha += (u32)(((u64)(DCQCN_ALPHA_ONE - d->alpha) * dcqcn_g(ctx) + 65535) >> 16);
	/* A CNP restarts every clock: increase begins anew from fast recovery. */
	dcqcn_clocks(ctx, d, (u32)tonic_time_us(ctx));
	d->bytes = 0;
	d->t_stage = 0;
	d->bc_stage = 0;
	d->limited = 1;
}

/* One increase event from either clock; the flow's initial rate is the ceiling. */
static void dcqcn_increase(struct tonic_prog_ctx *ctx, struct tonic_dcqcn *d)
{
	u32 line = ctx->cfg->init_rate_kbps, f = tonic_prog_param(ctx, 5, DCQCN_F, DCQCN_F_MAX);
	u8 lo = d->t_stage < d->bc_stage ? d->t_stage : d->bc_stage;
	u8 hi = d->t_stage < d->bc_stage ? d->bc_stage : d->t_stage;

	if (lo > f)
		d->rt += (lo - f) * tonic_prog_param(ctx, 2, DCQCN_R_HAI, line);
	else if (hi > f)
		d->rt += tonic_prog_param(ctx, 1, DCQCN_R_AI, line);
	if (d->rt > line)
		d->rt = line;
	ctx->rate_kbps = (ctx->rate_kbps + d->rt + 1) / 2;
	if (ctx->rate_kbps >= line)
		d->limited = 0;
}

/* The timer and byte-counter clocks: alpha decay and rate increase. */
void tonic_dcqcn_periodic(struct tonic_prog_ctx *ctx, struct tonic_dcqcn *d)
{
	u32 now = (u32)tonic_time_us(ctx);
	u32 b = tonic_prog_param(ctx, 3, DCQCN_B_BYTES, ~0u);

	/* A period changed on the live flow takes effect from here. */
	dcqcn_period(ctx);
	if (!tonic_before(now, d->alpha_due)) {
		d->alpha -= (u32)(((u64)d->alpha * dcqcn_g(ctx)) >> 16);
		d->alpha_due = now + dcqcn_alpha_us(ctx);
	}
	if (!d->limited)
		return;
	/* One increase per call keeps the work constant; a late one waits a tick. */
	d->bytes += ctx->bytes_sent;
	if (d->bytes >= b) {
		d->bytes -= b;
		if (d->bc_stage < 255)
			d->bc_stage++;
		dcqcn_increase(ctx, d);
	} else if (!tonic_before(now, d->rate_due)) {
		d->rate_due = now + dcqcn_timer_us(ctx);
		if (d->t_stage < 255)
			d->t_stage++;
		dcqcn_increase(ctx, d);
	}
}

/* alpha (Q16, 65536 = 1) and the target rate Rt: what a CNP cuts to and climbs back to. */
const char *const tonic_dcqcn_info_names[] = { "alpha", "target_kbps", NULL };

void tonic_dcqcn_get_info(const struct tonic_dcqcn *d, u32 *vals)
{
	vals[0] = d->alpha;
	vals[1] = d->rt;
}

static void dcqcn_get_info(const void *user, u32 *vals)
{
	tonic_dcqcn_get_info(&((const struct dcqcn_state *)user)->rp, vals);
}

static void dcqcn_init(struct tonic_prog_ctx *ctx)
{
	struct dcqcn_state *d = ctx->user;

	tonic_dcqcn_init(ctx, &d->rp);
	tonic_rto_init(ctx, &d->rto);
}

static void dcqcn_incoming(struct tonic_prog_ctx *ctx)
{
	struct dcqcn_state *d = ctx->user;

	if (ctx->pkt->type == TONIC_PKT_CNP)
		tonic_dcqcn_cnp(ctx, &d->rp);
	else
		tonic_gbn_incoming(ctx, &d->rto);
}

static void dcqcn_periodic(struct tonic_prog_ctx *ctx)
{
	struct dcqcn_state *d = ctx->user;

	tonic_gbn_timeout(ctx, &d->rto);
	tonic_dcqcn_periodic(ctx, &d->rp);
}

const struct tonic_prog_ops tonic_prog_dcqcn = {
	.name		= "dcqcn",
	.credit		= TONIC_CREDIT_RATE,
	.cnp		= true,
	.user_size	= sizeof(struct dcqcn_state),
	.info_names	= tonic_dcqcn_info_names,
	.get_info	= dcqcn_get_info,
	/* A CNP's cut must not be undone by an increase in the same cycle. */
	.prio		= TONIC_PRIO_INCOMING,
	.def_rate_kbps	= 40000000,	/* 40 Gb/s, the paper's DCQCN setting */
	.def_rto_us	= 4000,
	.init		= dcqcn_init,
	.incoming	= dcqcn_incoming,
	.periodic	= dcqcn_periodic,
};
