// SPDX-License-Identifier: GPL-2.0
/*
 * NDP sender (Handley et al., SIGCOMM'17): the first window goes out on
 * initial credit, after that the receiver paces us with pulls (grants),
 * which stage 1 already adds to the flow's credit.
 * Switches trim payloads instead of dropping, so a loss usually arrives as a
 * NACK naming the trimmed segment, which is resent at once; the receiver
 * will pull for it like for any other packet.  Whole-packet losses are left
 * to the timeout; the receiver cannot pull for packets it never heard of,
 * so the engine's fixed timeout path grants the credit for what we mark.
 */
#include "../program.h"
#include "programs.h"

#define NDP_IW_SEGS	12	/* initial window: about one BDP in a 10 us, 10 Gb/s fabric */
#define NDP_RTO_US	1000	/* NDP's timeouts are rare backstops */

static void ndp_init(struct tonic_prog_ctx *ctx)
{
	/* Zero credit means "one initial window", which depends on the segment size. */
	if (!ctx->credit)
		ctx->credit = NDP_IW_SEGS * ctx->seg_size;
	tonic_rto_init(ctx, ctx->user);
}

static void ndp_incoming(struct tonic_prog_ctx *ctx)
{
	struct tonic_rto *r = ctx->user;
	const struct tonic_pkt *pkt = ctx->pkt;
	u32 off;

	switch (pkt->type) {
	case TONIC_PKT_ACK:
		if (ctx->new_acked)
			tonic_rto_progress(ctx, r);
		break;
	case TONIC_PKT_NACK:
		/* Only a segment that is in flight and not acked can be resent. */
		off = pkt->nack - ctx->wnd_start;
		if (off < tonic_flight(ctx) && !tonic_bm_test(ctx->acked, off))
			tonic_mark_rtx(ctx, pkt->nack, pkt->nack + 1);
		/* A trimmed header still proves the path and the receiver alive. */
		tonic_rto_progress(ctx, r);
		break;
	default:
		break;
	}
}

static void ndp_periodic(struct tonic_prog_ctx *ctx)
{
	if (!ctx->timeout || !tonic_flight(ctx))
		return;
	/* Everything unacked; the engine skips SACKed segments and pays for the rest. */
	tonic_gbn_mark(ctx);
	tonic_rto_backoff(ctx, ctx->user);
}

const struct tonic_prog_ops tonic_prog_ndp = {
	.name		= "ndp",
	.credit		= TONIC_CREDIT_GRANT,
	.user_size	= sizeof(struct tonic_rto),
	.prio		= TONIC_PRIO_INCOMING,
	.def_rto_us	= NDP_RTO_US,
	.init		= ndp_init,
	.incoming	= ndp_incoming,
	.periodic	= ndp_periodic,
};
