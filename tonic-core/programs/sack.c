// SPDX-License-Identifier: GPL-2.0
/*
 * TCP with selective acks, after RFC 6675.  Stage 1 has already set `acked`
 * for every SACK block, so loss detection is a bitmap question: a run of
 * unacked segments is lost once TONIC_DUPTHRESH segments above it are acked
 * (IsLost()).  Each ack in recovery retransmits at most the next lost run
 * after the last one retransmitted (HighRxt), so every hole goes out once
 * and nothing SACKed or still in flight is resent.
 */
#include "../program.h"
#include "programs.h"

static void sack_init(struct tonic_prog_ctx *ctx)
{
	tonic_tcp_init(ctx, ctx->user);
}

/* Mark the next lost run at or after rtx_next; false if there is none yet. */
static bool sack_mark_next_hole(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	u32 hi = tonic_flight(ctx);
	u32 from, end;

	if (tonic_before(t->rtx_next, ctx->wnd_start))
		t->rtx_next = ctx->wnd_start;
	from = tonic_bm_ffz(ctx->acked, t->rtx_next - ctx->wnd_start);
	if (from >= hi)
		return false;
	end = tonic_hole_end(ctx, from);
	if (tonic_bm_count(ctx->acked, end, hi) < TONIC_DUPTHRESH)
		return false;
	tonic_mark_rtx(ctx, ctx->wnd_start + from, ctx->wnd_start + end);
	t->rtx_next = ctx->wnd_start + end;
	return true;
}

static void sack_enter_recovery(struct tonic_prog_ctx *ctx, struct tonic_tcp *t)
{
	tonic_tcp_enter_recovery(ctx, t);
	t->rtx_next = ctx->wnd_start;
	if (sack_mark_next_hole(ctx, t))
		return;
	/* Entered on plain dupacks (peer sent no SACK): the first segment is lost. */
	tonic_mark_rtx(ctx, ctx->wnd_start, ctx->wnd_start + 1);
	t->rtx_next = ctx->wnd_start + 1;
}

static void sack_incoming(struct tonic_prog_ctx *ctx)
{
	struct tonic_tcp *t = ctx->user;
	u32 acked = ctx->wnd_start - ctx->old_wnd_start;
	u32 hi = tonic_flight(ctx);
	bool marked = false;

	if (ctx->pkt->type != TONIC_PKT_ACK)
		return;
	if (acked) {
		tonic_tcp_new_ack(ctx, t);
		if (t->in_recovery && !tonic_before(ctx->wnd_start, t->recover)) {
			t->in_recovery = 0;
			ctx->cwnd = t->ssthresh;
			return;
		}
		if (!t->in_recovery) {
			tonic_tcp_open(ctx, t, acked);
		} else if (!tonic_before(ctx->wnd_start, t->rtx_next)) {
			/*
			 * Partial ack past everything retransmitted: the run it
			 * names was sent before recovery and is still missing
			 * after our retransmissions arrived, so it is lost even
			 * without DupThresh SACKs above it (NewReno's rule, as
			 * RFC 6675 NextSeg() rule 3 would also resend it).
			 */
			marked = sack_mark_next_hole(ctx, t);
			if (!marked) {
				tonic_mark_rtx(ctx, ctx->wnd_start, ctx->wnd_start + 1);
				t->rtx_next = ctx->wnd_start + 1;
				marked = true;
			}
		}
	} else if (hi && !t->in_recovery) {
		tonic_tcp_dupack(t);
	}
	if (!hi)
		return;
	if (!t->in_recovery) {
		/* Offset 0 is unacked after stage 1, so count(1, hi) is "SACKed above". */
		if (t->dupacks < TONIC_DUPTHRESH &&
		    tonic_bm_count(ctx->acked, 1, hi) < TONIC_DUPTHRESH)
			return;
		if (tonic_before(ctx->wnd_start, t->recover))
			return;		/* echo of a loss handled by an RTO */
		sack_enter_recovery(ctx, t);
	} else if (!marked) {
		sack_mark_next_hole(ctx, t);
	}
	/* Like pipe in 6675: what the receiver holds does not count against cwnd. */
	ctx->cwnd = t->ssthresh + tonic_bm_count(ctx->acked, 0, hi);
	if (ctx->cwnd > ctx->wnd_bits)
		ctx->cwnd = ctx->wnd_bits;
}

const struct tonic_prog_ops tonic_prog_sack = {
	.name		= "sack",
	.credit		= TONIC_CREDIT_CWND,
	.user_size	= sizeof(struct tonic_tcp),
	.prio		= TONIC_PRIO_INCOMING,
	.def_cwnd	= 10,
	.def_rto_cycles	= 20000000,
	.init		= sack_init,
	.incoming	= sack_incoming,
	.periodic	= tonic_tcp_periodic,
};
