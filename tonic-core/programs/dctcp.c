// SPDX-License-Identifier: GPL-2.0
/*
 * DCTCP (RFC 8257; Linux tcp_dctcp.c) over NewReno's loss recovery.
 *
 * The sender estimates alpha, the fraction of its data that met congestion,
 * once per window of data (3.3):
 *
 *	alpha = (1 - g) * alpha + g * M,  g = 1/16,
 *	M = bytes acked with ECE / bytes acked in the window,
 *
 * and on ECE cuts cwnd to cwnd * (1 - alpha / 2), at most once per window
 * (RFC 3168's rule, tonic_tcp_ecn()).  Losses are handled as by TCP, RFC
 * 6675 or NewReno (tonic_tcp_incoming())
 * (3.4: "in the same way as conventional TCP").
 *
 * Tonic only sees segments and a per-ACK ECE flag: bytes acked are the
 * segments the cumulative ack advanced (3.3 ignores SACK for this), all
 * counted as marked when the ACK carries ECE.  That is exact when the
 * receiver follows 3.2 (an ACK's ECE stands for every segment it covers)
 * and segments are full-sized.  alpha is Q10 (1024 = 1), as in Linux.
 */
#include "../program.h"
#include "programs.h"

#define DCTCP_ALPHA_ONE		1024	/* alpha = 1 */
#define DCTCP_G_SHIFT		4	/* g = 1/16 */

struct dctcp {
	struct tonic_tcp t;
	u32 window_end;		/* DCTCP.WindowEnd: SND.NXT when the window began */
	u32 alpha;		/* Q10 */
	u16 acked;		/* DCTCP.BytesAcked, in segments */
	u16 marked;		/* DCTCP.BytesMarked, in segments */
};

static void dctcp_init(struct tonic_prog_ctx *ctx)
{
	struct dctcp *ca = ctx->user;

	tonic_tcp_init_sack(ctx, &ca->t);
	/* "The sender ... initializes DCTCP.Alpha to 1": cautious until measured. */
	ca->alpha = DCTCP_ALPHA_ONE;
	ca->window_end = ctx->highest_sent;
}

/* 3.3 steps 1-8, on every ACK. */
static void dctcp_update_alpha(struct tonic_prog_ctx *ctx, struct dctcp *ca)
{
	u32 acked = ctx->wnd_start - ctx->old_wnd_start;
	u32 a = ca->alpha;

	ca->acked = ca->acked + acked > 0xffff ? 0xffff : ca->acked + acked;
	if (ctx->pkt->flags & TONIC_PKT_F_ECE)
		ca->marked = ca->marked + acked > 0xffff ? 0xffff : ca->marked + acked;
	/* "If the acknowledgment number is less than or equal to WindowEnd, stop." */
	if (!tonic_after(ctx->wnd_start, ca->window_end))
		return;
	/* alpha -= alpha * g (to 0 once that rounds to nothing), += g * M */
	a -= (a >> DCTCP_G_SHIFT) ? a >> DCTCP_G_SHIFT : a;
	if (ca->acked)
		a += ((u32)ca->marked << (10 - DCTCP_G_SHIFT)) / ca->acked;
	ca->alpha = a < DCTCP_ALPHA_ONE ? a : DCTCP_ALPHA_ONE;
	ca->window_end = ctx->highest_sent;
	ca->acked = 0;
	ca->marked = 0;
}

/* 3.3 step 9: cwnd * (1 - alpha / 2) on ECE; a loss or an RTO halves (3.4). */
static u32 dctcp_ssthresh(struct tonic_prog_ctx *ctx, struct tonic_tcp *t,
			  enum tonic_cong_event ev)
{
	struct dctcp *ca = (struct dctcp *)t;
	u32 cwnd = ctx->cwnd;

	if (ev != TONIC_CE_ECN)
		return tonic_reno_cc.ssthresh(ctx, t, ev);
	cwnd -= (cwnd * ca->alpha) >> 11;
	return cwnd > 2 ? cwnd : 2;
}

static const struct tonic_tcp_cc dctcp_cc = {
	.cong_avoid	= tonic_reno_cong_avoid,
	.ssthresh	= dctcp_ssthresh,
};

static void dctcp_incoming(struct tonic_prog_ctx *ctx)
{
	if (ctx->pkt->type == TONIC_PKT_ACK)
		dctcp_update_alpha(ctx, ctx->user);
	tonic_tcp_incoming(ctx, &dctcp_cc);
}

static void dctcp_periodic(struct tonic_prog_ctx *ctx)
{
	if (ctx->timeout)
		tonic_tcp_timeout(ctx, ctx->user, &dctcp_cc);
}

const struct tonic_prog_ops tonic_prog_dctcp = {
	.name		= "dctcp",
	.credit		= TONIC_CREDIT_CWND,
	.user_size	= sizeof(struct dctcp),
	.info_names	= tonic_tcp_info_names,
	.get_info	= tonic_tcp_get_info,
	.prio		= TONIC_PRIO_INCOMING,
	.def_cwnd	= 10,
	.def_rto_us	= 200000,	/* Linux's RTOmin */
	.init		= dctcp_init,
	.incoming	= dctcp_incoming,
	.periodic	= dctcp_periodic,
};
