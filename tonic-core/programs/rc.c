// SPDX-License-Identifier: GPL-2.0
/*
 * IB RC reliability alone: what an RC queue pair's requester does without
 * congestion control (tonic_rdma.ko's default per-QP program).  A fixed
 * window of cwnd segments (init_cwnd, default RC_WINDOW) past the first
 * unacked one; cumulative ACKs; a NACK (NAK sequence error naming the
 * expected PSN) or a timeout goes back N -- everything from the first
 * unacked segment to the last one sent goes again -- as RoCE's dcqcn and
 * ibcc do, through the same helpers (common.c).  The retransmission timer
 * backs off exponentially and the flow is given up after TONIC_RTX_LIMIT
 * timeouts in a row.
 *
 * Unlike those, no periodic() clock runs: periodic() is called only when
 * the timer fires (ctx->period 0), so an idle or window-limited flow costs
 * nothing between events.
 */
#include "../program.h"
#include "programs.h"

#define RC_WINDOW	128	/* packets in flight, default */

struct rc_state {
	struct tonic_rto rto;
};

static void rc_init(struct tonic_prog_ctx *ctx)
{
	struct rc_state *s = ctx->user;

	tonic_rto_init(ctx, &s->rto);
	if (!ctx->cwnd)
		ctx->cwnd = RC_WINDOW;
	if (ctx->cwnd > ctx->wnd_bits)
		ctx->cwnd = ctx->wnd_bits;
	ctx->period = 0;
}

static void rc_incoming(struct tonic_prog_ctx *ctx)
{
	struct rc_state *s = ctx->user;

	tonic_gbn_incoming(ctx, &s->rto);
}

static void rc_periodic(struct tonic_prog_ctx *ctx)
{
	struct rc_state *s = ctx->user;

	tonic_gbn_timeout(ctx, &s->rto);
}

const struct tonic_prog_ops tonic_prog_rc = {
	.name		= "rc",
	.credit		= TONIC_CREDIT_CWND,
	.user_size	= sizeof(struct rc_state),
	.prio		= TONIC_PRIO_INCOMING,
	.def_cwnd	= RC_WINDOW,
	.def_rto_us	= 4000,
	.init		= rc_init,
	.incoming	= rc_incoming,
	.periodic	= rc_periodic,
};
