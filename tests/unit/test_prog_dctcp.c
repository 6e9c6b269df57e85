// SPDX-License-Identifier: GPL-2.0
/*
 * DCTCP (RFC 8257) through the engine: alpha = (1 - g) alpha + g M once
 * per window of data with g = 1/16, the ECE cut cwnd (1 - alpha / 2) at
 * most once per window, Reno's halving on a loss, and alpha settling at
 * the marked fraction under steady marking.
 */
#include "prog_harness.h"
#include "core.h"	/* tonic_flow_user(): the program's state, white box */

/* dctcp.c's user state, as the test reads it. */
struct dctcp_view {
	struct tonic_tcp t;
	u32 window_end, alpha;
	u16 acked, marked;
};

#define SETTLE	2000

static const struct dctcp_view *view(struct ph *ph)
{
	return tonic_flow_user(ph->tc, 0);
}

static void ack(struct ph *ph, u32 cum, bool ece)
{
	struct tonic_pkt p = { .type = TONIC_PKT_ACK, .cum_ack = cum };

	if (ece)
		p.flags = TONIC_PKT_F_ECE;
	ph_in(ph, 0, &p);
	ph_run(ph, SETTLE);
}

/*
 * alpha starts at 1 (1024 in Q10).  Segments 0..9 out; WindowEnd = 0.
 *   ack 1           window 1 ends (1 > 0): M = 0/1, alpha = 1024 - 64 = 960;
 *                   WindowEnd = SND.NXT = 10; slow start: cwnd 11
 *   ack 3 + ECE     cut: 11 - 11 * 960 / 2048 = 11 - 5 = 6 (11 x 0.531)
 *   ack 5 + ECE     same window of data: no second cut
 *   ack 7, 9, 10    ack <= WindowEnd: alpha unchanged
 *   ack 11          window 2 ends: M = 4 marked / 10 acked,
 *                   alpha = 960 - 60 + 256 / 10 = 925 (0.9034; RFC 0.9039)
 */
static void alpha_and_cut(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_dctcp);

	c.init_cwnd = 10;
	c.rto_cycles = 100000000;
	ph_add(ph, 0, &c);
	is(view(ph)->alpha, 1024, "alpha starts at 1");
	ph_push(ph, 0, 1000);
	ph_run(ph, SETTLE);
	ack(ph, 1, false);
	is(view(ph)->alpha, 960, "first window, nothing marked: alpha = 15/16");
	is(view(ph)->window_end, 10, "next window ends at SND.NXT = 10");
	is(ph_stats(ph, 0).cwnd, 11, "slow start: cwnd 11");
	ack(ph, 3, true);
	is(ph_stats(ph, 0).cwnd, 6, "ECE: cwnd 11 x (1 - 0.9375 / 2) = 5.84 -> 6");
	is(view(ph)->t.ssthresh, 6, "... ssthresh too");
	ack(ph, 5, true);
	is(ph_stats(ph, 0).cwnd, 6, "second ECE in the same window: no second cut");
	ack(ph, 7, false);
	ack(ph, 9, false);
	ack(ph, 10, false);
	is(view(ph)->alpha, 960, "ack 10 <= WindowEnd 10: the window is not over");
	ack(ph, 11, false);
	is(view(ph)->alpha, 925, "ack 11: M = 4/10, alpha = 0.9375 x 15/16 + 0.4/16 -> 925/1024");
	ph_free(ph);

	/* With alpha = 1 an ECE halves the window, as RFC 3168. */
	ph = ph_new(128);
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 1000);
	ph_run(ph, SETTLE);
	ack(ph, 1, true);
	is(view(ph)->alpha, 1024, "first window all marked: alpha stays 1");
	is(ph_stats(ph, 0).cwnd, 5, "ECE at alpha 1: cwnd 10 -> 5");
	ph_free(ph);
}

/*
 * No marks for a long transfer: alpha decays to 0 (g = 1/16 per window,
 * the last steps to 0 as in Linux); then a loss is handled as Reno:
 * ssthresh = FlightSize / 2, not cwnd (1 - alpha / 2).
 */
static void loss_is_reno(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_dctcp);
	struct tonic_flow_stats st;

	c.init_cwnd = 10;
	c.wnd_segs = 16;	/* windows of 16: ~190 of them */
	c.rto_cycles = 1000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 4000);
	ph_net(ph, 0, PH_RX_CUM, 200);
	ok(ph_net_run(ph, 0, 3000, 50000000), "3000 segments without a mark");
	is(view(ph)->alpha, 0, "alpha decayed to 0");
	st = ph_stats(ph, 0);
	ph_net(ph, 0, 0, 200);	/* the test answers from here on */
	ack(ph, st.wnd_start, false);
	ack(ph, st.wnd_start, false);
	ack(ph, st.wnd_start, false);
	is(view(ph)->t.ssthresh, st.cwnd / 2,
	   "loss with alpha 0: ssthresh = cwnd %u / 2, not cwnd (1 - alpha / 2)", st.cwnd);
	ph_free(ph);
}

/*
 * Every 4th ACK carries ECE, one ACK per segment: M = 1/4 in every
 * window, so alpha settles near 0.25 (256) and each window's cut is
 * about 12 %.
 */
static void steady_marking(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_dctcp);
	struct tonic_flow_stats st;

	c.init_cwnd = 10;
	c.rto_cycles = 1000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 4000);
	ph_net(ph, 0, PH_RX_CUM, 200);
	ph->rx[0].ece_every = 4;
	ok(ph_net_run(ph, 0, 4000, 50000000), "4000 segments, a quarter of the ACKs marked");
	ok(view(ph)->alpha >= 220 && view(ph)->alpha <= 290, "alpha %u ~ 0.25 x 1024",
	   view(ph)->alpha);
	st = ph_stats(ph, 0);
	is(st.timeouts, 0, "no RTO");
	is(st.segs_rtx, 0, "no retransmission: an ECN cut resends nothing");
	is(ph->rx[0].dup, 0, "receiver saw no duplicates");
	ph_free(ph);
}

int main(void)
{
	alpha_and_cut();
	loss_is_reno();
	steady_marking();
	return tap_done();
}
