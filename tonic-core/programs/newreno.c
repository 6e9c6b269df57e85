// SPDX-License-Identifier: GPL-2.0
/*
 * TCP NewReno (RFC 6582): Reno's fast retransmit, but fast recovery lasts
 * until everything sent before it began (`recover`) is acked.  A partial ack
 * inside recovery names the next hole, which is retransmitted at once, so
 * n losses in one window cost n round trips instead of an RTO.
 */
#include "../program.h"
#include "programs.h"

static void newreno_init(struct tonic_prog_ctx *ctx)
{
	tonic_tcp_init(ctx, ctx->user);
}

static void newreno_new_ack(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, u32 acked,
			    const struct tonic_tcp_cc *cc)
{
	if (!t->in_recovery) {
		tonic_tcp_new_ack(ctx, t);
		tonic_tcp_open(ctx, t, acked, cc);
		return;
	}
	if (!tonic_before(ctx->wnd_start, t->recover)) {
		/* Full ack (6582 3.2 step 3): deflate, without a burst. */
		u32 flight = tonic_flight(ctx) + 1;

		tonic_tcp_new_ack(ctx, t);
		t->in_recovery = 0;
		ctx->cwnd = flight < t->ssthresh ? flight : t->ssthresh;
		return;
	}
	/*
	 * Partial ack (3.2 step 3): the segment it names was lost too.  Deflate by
	 * the amount acked and add one back, so the retransmission fits.
	 */
	tonic_mark_rtx(ctx, ctx->wnd_start, ctx->wnd_start + 1);
	ctx->cwnd = ctx->cwnd > acked ? ctx->cwnd - acked + 1 : 1;
	/*
	 * "For the first partial ACK that arrives during fast recovery, also
	 * reset the retransmit timer" (3.2 step 3); later ones leave it running,
	 * the "Impatient" variant of section 4: with many losses in a window
	 * the RTO ends recovery instead of one retransmission per round trip.
	 */
	t->dupacks = 0;
	if (t->in_recovery == TONIC_REC_FAST) {
		t->in_recovery = TONIC_REC_PARTIAL;
		tonic_rto_progress(ctx, &t->rto);
	}
}

/*
 * Also the loss recovery of cubic and dctcp: @cc says how the window grows
 * and how far it is cut.
 */
void tonic_newreno_incoming(struct tonic_prog_ctx *ctx, const struct tonic_tcp_cc *cc)
{
	struct tonic_tcp *t = ctx->user;
	u32 acked = ctx->wnd_start - ctx->old_wnd_start;

	if (ctx->pkt->type == TONIC_PKT_CNP)
		tonic_tcp_ecn(ctx, t, cc);
	if (ctx->pkt->type != TONIC_PKT_ACK)
		return;
	if (acked) {
		newreno_new_ack(ctx, t, acked, cc);
		return;
	}
	tonic_tcp_dupack_event(ctx, t, tonic_tcp_may_enter(ctx, t), cc);
}

static void newreno_incoming(struct tonic_prog_ctx *ctx)
{
	tonic_newreno_incoming(ctx, &tonic_reno_cc);
}

const struct tonic_prog_ops tonic_prog_newreno = {
	.name		= "newreno",
	.credit		= TONIC_CREDIT_CWND,
	.user_size	= sizeof(struct tonic_tcp),
	.info_names	= tonic_tcp_info_names,
	.get_info	= tonic_tcp_get_info,
	.prio		= TONIC_PRIO_INCOMING,
	.def_cwnd	= 10,		/* RFC 6928 */
	.def_rto_us	= 200000,	/* Linux's RTOmin */
	.init		= newreno_init,
	.incoming	= newreno_incoming,
	.periodic	= tonic_tcp_periodic,
};
