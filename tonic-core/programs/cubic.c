// SPDX-License-Identifier: GPL-2.0
/*
 * CUBIC (RFC 9438; Linux tcp_cubic.c) over TCP's loss recovery: RFC 6675
 * toward a peer that SACKs, NewReno otherwise (tonic_tcp_incoming()).
 *
 * After a congestion event the window follows
 *
 *	W_cubic(t) = C * (t - K)^3 + W_max,  K = cbrt((W_max - cwnd_epoch) / C)
 *
 * with C = 0.4 segments/s^3 and t the time since congestion avoidance
 * started: concave up to the old maximum W_max, flat around it, convex
 * beyond.  A loss cuts the window to beta_cubic = 0.7 of the flight; a
 * loss below the last W_max lowers W_max further (fast convergence).  Where
 * Reno would be faster (short RTTs, small windows) cwnd follows W_est, a
 * Reno with alpha = 3 (1 - beta) / (1 + beta) segments per RTT instead.
 *
 * Times are microseconds of the engine's clock (tonic_time_us()), so the
 * curve is the same whatever the cycle length; the cubic is evaluated in
 * milliseconds, like Linux's 1/1024 s.  No HyStart: slow start ends at
 * ssthresh or at the first loss.
 */
#include "../program.h"
#include "programs.h"

#define CUBIC_BETA		7	/* beta_cubic = 7 / 10 */
#define CUBIC_BETA_SCALE	10
/* C = 0.4 segments/s^3 = 2 / 5e9 segments/ms^3 */
#define CUBIC_C_NUM		2ULL
#define CUBIC_C_DEN		5000000000ULL
/* alpha_cubic = 3 (1 - 0.7) / (1 + 0.7) = 9 / 17, W_est kept in 1/65536 segment */
#define CUBIC_ALPHA_NUM		9
#define CUBIC_ALPHA_DEN		17
#define CUBIC_EST_SHIFT		16
/* |t - K| beyond this (ms) gives windows far past any bitmap */
#define CUBIC_T_MAX		100000

struct cubic {
	struct tonic_tcp t;
	u32 epoch_ms;		/* start of congestion avoidance, 0 = not started */
	u32 w_est;		/* Reno-friendly window, 1/65536 segment */
	u32 rtt_us;		/* smallest RTT sample (Linux's delay_min), 0 = none */
	u16 w_max;		/* segments: the origin of the cubic */
	u16 k_ms;		/* K */
};

/* floor(cbrt(a)), bit by bit (Hacker's Delight icbrt): 22 fixed steps. */
static u32 cubic_root(u64 a)
{
	u64 y = 0, b;
	int s;

	for (s = 63; s >= 0; s -= 3) {
		y += y;
		b = 3 * y * (y + 1) + 1;
		if ((a >> s) >= b) {
			a -= b << s;
			y++;
		}
	}
	return (u32)y;
}

/* K in ms for a window @dw segments below W_max: cbrt(dw / C). */
u32 tonic_cubic_k_ms(u32 dw)
{
	return cubic_root(tonic_div64((u64)dw * CUBIC_C_DEN, CUBIC_C_NUM));
}

/* W_cubic(t) in segments, t in ms since the epoch. */
u32 tonic_cubic_w(u32 w_max, u32 k_ms, u32 t_ms)
{
	u64 d = t_ms > k_ms ? t_ms - k_ms : k_ms - t_ms;
	u32 delta;

	if (d > CUBIC_T_MAX)
		d = CUBIC_T_MAX;
	/* rounded: K itself is rounded down, so W_cubic(0) is cwnd_epoch */
	delta = (u32)tonic_div64(CUBIC_C_NUM * d * d * d + CUBIC_C_DEN / 2, CUBIC_C_DEN);
	if (t_ms >= k_ms)
		return w_max + delta;
	return delta < w_max ? w_max - delta : 0;
}

static void cubic_init(struct tonic_prog_ctx *ctx)
{
	tonic_tcp_init_sack(ctx, ctx->user);
}

/* RFC 9438 4.2-4.5, on new data acked outside recovery. */
static void cubic_cong_avoid(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, u32 acked)
{
	struct cubic *ca = (struct cubic *)t;
	u32 now = (u32)tonic_div64(tonic_time_us(ctx), 1000);
	u32 cwnd, t_ms, w_est, target, cnt;

	acked = tonic_tcp_slow_start(ctx, t, acked);
	if (!acked)
		return;
	cwnd = ctx->cwnd;
	if (!ca->epoch_ms) {
		/* A new congestion avoidance stage: cwnd_epoch = cwnd. */
		ca->epoch_ms = now ? now : 1;
		ca->w_est = cwnd << CUBIC_EST_SHIFT;
		t->cwnd_cnt = 0;
		if (ca->w_max <= cwnd) {
			/* No loss yet, or after an RTO: start at the plateau. */
			ca->w_max = cwnd;
			ca->k_ms = 0;
		} else {
			ca->k_ms = tonic_cubic_k_ms(ca->w_max - cwnd);
		}
	}
	t_ms = now - ca->epoch_ms;

	/* 4.3: W_est += alpha_cubic * segments_acked / cwnd */
	ca->w_est += (acked * CUBIC_ALPHA_NUM << CUBIC_EST_SHIFT) / (CUBIC_ALPHA_DEN * cwnd);
	w_est = ca->w_est >> CUBIC_EST_SHIFT;
	if (tonic_cubic_w(ca->w_max, ca->k_ms, t_ms) < w_est) {
		/* Reno-friendly region: "cwnd SHOULD be set to W_est". */
		if (w_est > cwnd)
			cwnd = w_est;
	} else {
		/*
		 * 4.4/4.5: target = W_cubic(t + RTT) within [cwnd, 1.5 cwnd];
		 * cwnd grows by (target - cwnd) / cwnd per acked segment.
		 */
		target = tonic_cubic_w(ca->w_max, ca->k_ms, t_ms + ca->rtt_us / 1000);
		if (target < cwnd)
			target = cwnd;
		if (target > cwnd + cwnd / 2)
			target = cwnd + cwnd / 2;
		cnt = t->cwnd_cnt + acked * (target - cwnd);
		t->cwnd_cnt = cnt % cwnd;
		cwnd += cnt / cwnd;
	}
	ctx->cwnd = cwnd < ctx->wnd_bits ? cwnd : ctx->wnd_bits;
}

/*
 * 4.6/4.7: ssthresh = cwnd * beta_cubic, as Linux's recalc_ssthresh()
 * (4.6 allows cwnd for flight_size where cwnd grows only while it limits
 * the flow: window validation); W_max is the window before the cut,
 * lowered to cwnd (1 + beta) / 2 if the window did not get back to the
 * last W_max (fast convergence).  4.8: after an RTO the next stage starts
 * with K = 0 and W_max = its first cwnd.
 */
static u32 cubic_ssthresh(struct tonic_prog_ctx *ctx, struct tonic_tcp *t,
			  enum tonic_cong_event ev)
{
	struct cubic *ca = (struct cubic *)t;
	u32 ssthresh = ctx->cwnd * CUBIC_BETA / CUBIC_BETA_SCALE;

	ca->epoch_ms = 0;
	if (ev == TONIC_CE_RTO)
		ca->w_max = 0;
	else if (ctx->cwnd < ca->w_max)
		ca->w_max = ctx->cwnd * (CUBIC_BETA_SCALE + CUBIC_BETA) / (2 * CUBIC_BETA_SCALE);
	else
		ca->w_max = ctx->cwnd;
	return ssthresh > 2 ? ssthresh : 2;
}

static const struct tonic_tcp_cc cubic_cc = {
	.cong_avoid	= cubic_cong_avoid,
	.ssthresh	= cubic_ssthresh,
};

static void cubic_incoming(struct tonic_prog_ctx *ctx)
{
	struct cubic *ca = ctx->user;

	if (ctx->pkt->rtt) {
		u32 rtt = (u32)tonic_cycles_us(ctx, ctx->pkt->rtt);

		if (!rtt)
			rtt = 1;
		if (!ca->rtt_us || rtt < ca->rtt_us)
			ca->rtt_us = rtt;
	}
	tonic_tcp_incoming(ctx, &cubic_cc);
}

static void cubic_periodic(struct tonic_prog_ctx *ctx)
{
	if (ctx->timeout)
		tonic_tcp_timeout(ctx, ctx->user, &cubic_cc);
}

const struct tonic_prog_ops tonic_prog_cubic = {
	.name		= "cubic",
	.credit		= TONIC_CREDIT_CWND,
	.user_size	= sizeof(struct cubic),
	.info_names	= tonic_tcp_info_names,
	.get_info	= tonic_tcp_get_info,
	.prio		= TONIC_PRIO_INCOMING,
	.def_cwnd	= 10,		/* RFC 6928 */
	.def_rto_us	= 200000,	/* Linux's RTOmin */
	.init		= cubic_init,
	.incoming	= cubic_incoming,
	.periodic	= cubic_periodic,
};
