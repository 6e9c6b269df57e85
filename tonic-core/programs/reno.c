// SPDX-License-Identifier: GPL-2.0
/*
 * TCP Reno (RFC 5681): cumulative acks only.  Three duplicate acks trigger a
 * fast retransmit of the first unacked segment; the window is inflated by
 * one per further dupack, and the first ack that advances the window ends
 * fast recovery.  Reno therefore repairs one loss per window quickly; a
 * second loss waits for three fresh dupacks or for the RTO.
 */
#include "../program.h"
#include "programs.h"

static void reno_init(struct tonic_prog_ctx *ctx)
{
	tonic_tcp_init(ctx, ctx->user);
}

static void reno_incoming(struct tonic_prog_ctx *ctx)
{
	struct tonic_tcp *t = ctx->user;
	/* Cumulative progress only: Reno ignores SACK blocks if the peer sends them. */
	u32 acked = ctx->wnd_start - ctx->old_wnd_start;

	if (ctx->pkt->type == TONIC_PKT_CNP)
		tonic_tcp_ecn(ctx, t, &tonic_reno_cc);
	if (ctx->pkt->type != TONIC_PKT_ACK)
		return;
	if (acked) {
		tonic_tcp_new_ack(ctx, t);
		if (t->in_recovery) {
			/* Deflate: leave fast recovery on any new ack. */
			t->in_recovery = 0;
			ctx->cwnd = t->ssthresh;
		} else {
			tonic_tcp_open(ctx, t, acked, &tonic_reno_cc);
		}
		return;
	}
	tonic_tcp_dupack_event(ctx, t, true, &tonic_reno_cc);
}

const struct tonic_prog_ops tonic_prog_reno = {
	.name		= "reno",
	.credit		= TONIC_CREDIT_CWND,
	.user_size	= sizeof(struct tonic_tcp),
	.info_names	= tonic_tcp_info_names,
	.get_info	= tonic_tcp_get_info,
	.prio		= TONIC_PRIO_INCOMING,
	.def_cwnd	= 10,		/* RFC 6928 */
	.def_rto_us	= 200000,	/* Linux's RTOmin */
	.init		= reno_init,
	.incoming	= reno_incoming,
	.periodic	= tonic_tcp_periodic,
};
