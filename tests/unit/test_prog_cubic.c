// SPDX-License-Identifier: GPL-2.0
/*
 * CUBIC (RFC 9438) through the engine.  Numbers from the RFC's equations
 * with C = 0.4 and beta_cubic = 0.7: a loss at cwnd 100 gives ssthresh 70,
 * W_max 100, K = cbrt((100 - 70) / 0.4) = cbrt(75) = 4.2172 s and
 * W_cubic(t) = 0.4 (t - 4.2172)^3 + 100: 70 at t = 0, 86.68 at 1 s, 100 at
 * K, 108.62 at 7 s.  alpha_cubic = 3 (1 - 0.7) / (1 + 0.7) = 0.5294.
 *
 * The test plays an ACK clock: every RTT one ACK for everything sent (with
 * an RTT sample), so cwnd after each ACK is W_cubic(t + RTT) in the cubic
 * region and W_est in the Reno-friendly one.
 */
#include <math.h>
#include "prog_harness.h"
#include "core.h"	/* tonic_flow_user(): the program's state, white box */

/* cubic.c's user state, as the test reads it. */
struct cubic_view {
	struct tonic_tcp t;
	u32 epoch_ms, w_est, rtt_us;
	u16 w_max, k_ms;
};

#define PS_10NS		10000

static const struct cubic_view *view(struct ph *ph)
{
	return tonic_flow_user(ph->tc, 0);
}

static u64 us_to_cycles(u32 cycle_ps, u64 us)
{
	return us * 1000000 / cycle_ps;
}

static double w_cubic(double w_max, double k, double t)
{
	return 0.4 * (t - k) * (t - k) * (t - k) + w_max;
}

static void math(void)
{
	is(tonic_cubic_k_ms(30), 4217, "K for W_max 100, cwnd_epoch 70: cbrt(75) s = 4217 ms");
	is(tonic_cubic_k_ms(0), 0, "K = 0 at W_max");
	is(tonic_cubic_k_ms(256), 8617, "K for 256 segments: cbrt(640) s");
	is(tonic_cubic_w(100, 4217, 0), 70, "W_cubic(0) = cwnd_epoch = 70");
	is(tonic_cubic_w(100, 4217, 1000), 87, "W_cubic(1 s) = 86.68 -> 87");
	is(tonic_cubic_w(100, 4217, 2000), 96, "W_cubic(2 s) = 95.64 -> 96");
	is(tonic_cubic_w(100, 4217, 4217), 100, "W_cubic(K) = W_max");
	is(tonic_cubic_w(100, 4217, 7000), 109, "W_cubic(7 s) = 108.62 -> 109");
	is(tonic_cubic_w(100, 4217, 10000), 177, "W_cubic(10 s) = 177.39 -> 177 (convex)");
	is(tonic_cubic_w(10, 0, 200000), 400010, "far past K: bounded, no overflow");
}

/* A flow behind an ACK clock: one ACK per RTT for everything sent. */
struct clk {
	struct ph *ph;
	u32 cycle_ps;
	u64 rtt;		/* cycles */
	u32 t_ack;		/* ms since the engine started, at the last ACK */
};

static void clk_start(struct clk *k, u32 cycle_ps, u32 rtt_us, u32 init_cwnd)
{
	struct tonic_flow_cfg c;

	k->ph = ph_new_ps(256, cycle_ps);
	k->cycle_ps = cycle_ps;
	k->rtt = us_to_cycles(cycle_ps, rtt_us);
	c = ph_cfg(&tonic_prog_cubic);
	c.init_cwnd = init_cwnd;
	c.rto_cycles = (u32)(k->rtt * 4);
	ph_add(k->ph, 0, &c);
	ph_push(k->ph, 0, 1000000);
	ph_run(k->ph, k->rtt);
}

static u32 clk_ms(struct clk *k)
{
	return (u32)(ph_now(k->ph) * k->cycle_ps / 1000000000ULL);
}

/* Everything sent is acked (with an RTT sample); one RTT passes. */
static void clk_round(struct clk *k)
{
	struct tonic_pkt p = { .type = TONIC_PKT_ACK, .rtt = (u32)k->rtt };

	p.cum_ack = ph_stats(k->ph, 0).highest_sent;
	k->t_ack = clk_ms(k);
	ph_in(k->ph, 0, &p);
	ph_run(k->ph, k->rtt);
}

/* The first unacked segment is lost: three dupacks, then rounds until CA. */
static void clk_loss(struct clk *k)
{
	u32 una = ph_stats(k->ph, 0).wnd_start;
	int i;

	for (i = 0; i < 3; i++)
		ph_ack(k->ph, 0, una);
	ph_run(k->ph, 1000);
}

static void clk_to_ca(struct clk *k)
{
	while (!view(k->ph)->epoch_ms)
		clk_round(k);
}

/* ms since the start of congestion avoidance at the last ACK */
static u32 clk_t(struct clk *k)
{
	return k->t_ack - view(k->ph)->epoch_ms;
}

static void loss_and_growth(void)
{
	struct clk k;
	double K = cbrt(75.0);
	u32 checks[] = { 900, 4100, 6900 }, i = 0, w, flight;

	clk_start(&k, PS_10NS, 100000, 100);	/* RTT 100 ms */
	is(ph_stats(k.ph, 0).highest_sent, 100, "cwnd 100: 100 segments in flight");
	clk_loss(&k);
	is(view(k.ph)->t.ssthresh, 70, "loss: ssthresh = cwnd 100 * beta_cubic 0.7");
	is(view(k.ph)->w_max, 100, "loss: W_max = cwnd before the cut");
	is(ph_stats(k.ph, 0).cwnd, 73, "fast recovery: cwnd = ssthresh + 3");
	clk_to_ca(&k);
	is(view(k.ph)->k_ms, 4217, "congestion avoidance from cwnd_epoch 70: K = 4217 ms");
	is(view(k.ph)->rtt_us, 100000, "RTT sample in us: 100000");

	while (i < ARRAY_SIZE(checks)) {
		clk_round(&k);
		if (clk_t(&k) < checks[i])
			continue;
		/* cwnd after the ACK at t is W_cubic(t + RTT) */
		w = ph_stats(k.ph, 0).cwnd;
		ok(fabs(w - w_cubic(100, K, clk_t(&k) / 1000.0 + 0.1)) <= 1.0,
		   "ACK at t = %u ms: cwnd %u, RFC W_cubic(t + RTT) = %.2f", clk_t(&k), w,
		   w_cubic(100, K, clk_t(&k) / 1000.0 + 0.1));
		ok(view(k.ph)->w_est >> 16 < w, "... W_est %u below it: the cubic region",
		   view(k.ph)->w_est >> 16);
		i++;
	}
	is(ph_stats(k.ph, 0).timeouts, 0, "no RTO");
	ph_free(k.ph);

	/* Fast convergence: a loss before the window got back to W_max. */
	clk_start(&k, PS_10NS, 100000, 100);
	clk_loss(&k);
	clk_to_ca(&k);
	while (clk_t(&k) < 1000)
		clk_round(&k);
	w = ph_stats(k.ph, 0).cwnd;
	flight = ph_stats(k.ph, 0).highest_sent - ph_stats(k.ph, 0).wnd_start;
	clk_loss(&k);
	ok(w < 100, "second loss at cwnd %u, below W_max 100", w);
	is(view(k.ph)->w_max, w * 17 / 20, "fast convergence: W_max = cwnd (1 + 0.7) / 2");
	is(view(k.ph)->t.ssthresh, w * 7 / 10, "ssthresh = cwnd %u * 0.7 (flight %u)", w, flight);
	is(view(k.ph)->epoch_ms, 0, "the epoch ends");
	clk_to_ca(&k);
	is(view(k.ph)->k_ms, tonic_cubic_k_ms(w * 17 / 20 - w * 7 / 10),
	   "next K from the lowered W_max (%u ms)", view(k.ph)->k_ms);
	ph_free(k.ph);
}

/*
 * RFC 9438 4.3: with a 1 ms RTT, W_cubic barely moves in 100 RTTs (W(0.1 s)
 * = 72.09) while W_est gains alpha_cubic = 0.5294 per RTT: cwnd follows
 * W_est, 70 + 100 * 0.5294 = 122.9 (Reno's +1 per RTT would be 170).
 */
static void reno_friendly(void)
{
	struct clk k;
	u32 i, w_est0;

	clk_start(&k, PS_10NS, 1000, 100);
	clk_loss(&k);
	clk_to_ca(&k);
	w_est0 = view(k.ph)->w_est;
	is(w_est0 >> 16, 70, "W_est starts at cwnd_epoch 70");
	for (i = 0; i < 100; i++)
		clk_round(&k);
	ok(tonic_cubic_w(100, 4217, clk_t(&k)) < 75, "W_cubic(%u ms) = %u: far below W_est",
	   clk_t(&k), tonic_cubic_w(100, 4217, clk_t(&k)));
	ok(fabs((view(k.ph)->w_est - w_est0) / 65536.0 - 100 * 9.0 / 17) < 0.1,
	   "100 RTTs: W_est grew by %.2f = 100 alpha_cubic (52.94)",
	   (view(k.ph)->w_est - w_est0) / 65536.0);
	is(ph_stats(k.ph, 0).cwnd, view(k.ph)->w_est >> 16, "cwnd = W_est (%u)",
	   ph_stats(k.ph, 0).cwnd);
	ph_free(k.ph);
}

/* RFC 9438 4.8: an RTO; the next stage starts at its own plateau (K = 0). */
static void timeout(void)
{
	struct clk k;

	clk_start(&k, PS_10NS, 100000, 100);
	ph_run(k.ph, k.rtt * 4 + 1000);
	is(ph_stats(k.ph, 0).timeouts, 1, "no ack for 4 RTTs: RTO");
	is(ph_stats(k.ph, 0).cwnd, 1, "cwnd 1");
	is(view(k.ph)->t.ssthresh, 70, "ssthresh = cwnd 100 * 0.7");
	ph_run(k.ph, k.rtt * 8 + 1000);
	is(ph_stats(k.ph, 0).timeouts, 2, "no ack since: the backed-off RTO fires again ...");
	is(view(k.ph)->t.ssthresh, 70, "... and keeps ssthresh: one cut a window (tcp_enter_loss())");
	clk_to_ca(&k);
	is(view(k.ph)->k_ms, 0, "after an RTO: K = 0 ...");
	is(view(k.ph)->w_max, ph_stats(k.ph, 0).cwnd, "... W_max = cwnd at the stage's start");
	ph_free(k.ph);
}

/*
 * The same flow with 10 ns and 2.5 ns cycles (RTT 100 ms: 10^7 or 4 x 10^7
 * cycles): the program keeps time in microseconds, so the windows match
 * ACK for ACK.
 */
static void clock_independent(void)
{
	static u32 w[2][200];
	u32 ps[2] = { 10000, 2500 }, i, j, same = 1;
	struct clk k;

	for (j = 0; j < 2; j++) {
		clk_start(&k, ps[j], 100000, 100);
		clk_loss(&k);
		for (i = 0; i < 200; i++) {
			clk_round(&k);
			w[j][i] = ph_stats(k.ph, 0).cwnd;
		}
		if (j == 0)
			ok(w[0][199] > 100, "200 RTTs after a loss the window is past W_max (%u)",
			   w[0][199]);
		ph_free(k.ph);
	}
	for (i = 0; i < 200; i++)
		if (w[0][i] != w[1][i]) {
			diag("RTT %u: cwnd %u at 10 ns, %u at 2.5 ns", i, w[0][i], w[1][i]);
			same = 0;
			break;
		}
	ok(same, "cycle_ps 10000 and 2500: the same cwnd after each of 200 ACKs");
}

/*
 * Toward a peer that SACKs, loss recovery is RFC 6675's, as Linux's cubic
 * gets it from TCP: a coalesced ACK (receive GRO) SACKs 3..19 behind lost
 * segment 2.  ssthresh = cwnd = 0.7 x cwnd 22 = 15; pipe = 5 unSACKed -
 * 1 lost = 4, so the retransmission of 2 and 10 new segments (24..33) go
 * out on that one ACK.  NewReno's window (ssthresh + 3 = 18 past the
 * hole, 22 already out) let nothing new go until 4 more duplicate ACKs:
 * in the guest the sender starved through every recovery.
 */
static void sack_recovery(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_cubic);
	const struct ph_rec *r;

	c.init_cwnd = 20;
	c.rto_cycles = 100000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 100);
	ph_run(ph, 2000);
	ph_ack(ph, 0, 1);
	ph_run(ph, 2000);
	ph_ack(ph, 0, 2);
	ph_run(ph, 2000);
	is(ph_stats(ph, 0).highest_sent, 24, "slow start: 20..23 sent");
	ph_mark(ph);
	ph_sack(ph, 0, 2, 3, 20);
	ph_run(ph, 2000);
	is(view(ph)->t.ssthresh, 15, "one ACK SACKing 17 segments: ssthresh 0.7 x 22 = 15");
	is(ph_count(ph, 0, 1), 1, "the hole is resent at once ...");
	ok(ph_seg_sent(ph, 0, 2) == 1, "... segment 2");
	is(ph_count(ph, 0, 0), 10, "pipe 4 + 1 of cwnd 15: 10 new segments on the same ACK");
	r = ph_nth(ph, 0, 0, 9);
	ok(r && r->d.seg == 33, "... 24..33");
	ph_ack(ph, 0, 24);
	ph_run(ph, 2000);
	is(ph_stats(ph, 0).cwnd, 15, "the retransmission acked past recover: cwnd = ssthresh");
	is(ph_stats(ph, 0).segs_rtx, 1, "nothing else resent");
	ph_free(ph);
}

/*
 * A congestion event never opens the window.  RFC 6675's recovery sends new
 * data while the holes are out, so when it ends (cwnd = ssthresh) the flight
 * can be far above cwnd, and a loss in that new data starts the next
 * recovery at once.  Linux cuts from cwnd there (tcp_cubic's
 * recalc_ssthresh(), tcp_reno_ssthresh()); a cut from that flight raised
 * the window: in the guest's sharing cell 268 went to 0.7 x 480 = 336.
 * Here: segment 2 lost at cwnd 22, recovery to 24 sends 24..33 and, as the
 * rest is SACKed, 34..; the ACK that ends it SACKs nothing, the next SACKs
 * past a lost 24.
 */
/*
 * The scenario's first half: returns the flow with the first recovery
 * over, its cwnd in @cwnd, and the next loss (24) SACKed past, up to @hi.
 */
static struct ph *second_recovery(const struct tonic_prog_ops *prog, u32 *cwnd, u32 *hi)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(prog);

	c.init_cwnd = 20;
	c.rto_cycles = 100000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 1000);
	ph_run(ph, 2000);
	ph_ack(ph, 0, 1);
	ph_ack(ph, 0, 2);
	ph_run(ph, 2000);
	ph_sack(ph, 0, 2, 3, 24);
	ph_run(ph, 2000);
	ph_sack(ph, 0, 2, 3, 34);
	ph_run(ph, 2000);
	ph_ack(ph, 0, 24);
	ph_run(ph, 2000);
	*cwnd = ph_stats(ph, 0).cwnd;
	*hi = ph_stats(ph, 0).highest_sent;
	ok(*hi - 24 > *cwnd, "%s: the recovery ends with %u out, above cwnd %u", prog->name,
	   *hi - 24, *cwnd);
	ph_sack(ph, 0, 24, 25, *hi);
	ph_run(ph, 2000);
	ok(((const struct tonic_tcp *)tonic_flow_user(ph->tc, 0))->in_recovery,
	   "%s: a loss in it starts the next recovery", prog->name);
	return ph;
}

static void cut_from_cwnd(const struct tonic_prog_ops *prog, u32 beta_num, u32 beta_den)
{
	u32 cwnd, hi;
	struct ph *ph = second_recovery(prog, &cwnd, &hi);
	const struct tonic_tcp *t = tonic_flow_user(ph->tc, 0);

	is(t->ssthresh, cwnd * beta_num / beta_den, "%s: ... with ssthresh = cwnd %u x %u/%u, not from the flight",
	   prog->name, cwnd, beta_num, beta_den);
	ph_free(ph);
}

/*
 * An undo goes back to the window the recovery cut, as Linux's
 * tcp_undo_cwnd_reduction() goes back to prior_cwnd, not to the flight:
 * after cut_from_cwnd's recovery, the late original of 24 arrives and the
 * resent 24 comes back as a D-SACK.  Undone to the flight (24 out at cwnd
 * 15), a spurious recovery opened the window as the cut from the flight
 * did.
 */
static void undo_to_cwnd(const struct tonic_prog_ops *prog)
{
	struct tonic_pkt d = { .type = TONIC_PKT_ACK, .nsack = 1, .flags = TONIC_PKT_F_DSACK };
	u32 cwnd, hi;
	struct ph *ph = second_recovery(prog, &cwnd, &hi);
	const struct tonic_tcp *t = tonic_flow_user(ph->tc, 0);

	ph_ack(ph, 0, hi);
	ph_run(ph, 2000);
	d.cum_ack = hi;
	d.sack[0].start = 24;
	d.sack[0].end = 25;
	ph_in(ph, 0, &d);
	ph_run(ph, 2000);
	ok(ph_stats(ph, 0).cwnd == cwnd, "%s: its resend D-SACKed: undone to cwnd %u (%u), not the flight %u",
	   prog->name, cwnd, ph_stats(ph, 0).cwnd, hi - 24);
	ok(t->ssthresh <= cwnd,
	   "%s: ... and ssthresh at most Linux's prior_ssthresh, max(ssthresh, 3/4 cwnd) = cwnd %u (%u)",
	   prog->name, cwnd, t->ssthresh);
	ph_free(ph);
}

/*
 * RFC 9438 4.8, Linux's cubictcp_state(): every RTO restarts the curve,
 * even one in a window a recovery already cut, which keeps ssthresh.
 */
static void timeout_in_recovery(void)
{
	struct clk k;

	clk_start(&k, PS_10NS, 100000, 100);
	clk_loss(&k);
	ph_run(k.ph, k.rtt * 4 + 1000);
	is(ph_stats(k.ph, 0).timeouts, 1, "an RTO in fast recovery ...");
	is(view(k.ph)->t.ssthresh, 70, "... keeps the recovery's ssthresh 70 ...");
	is(view(k.ph)->w_max, 0, "... and restarts the curve: W_max 0 ...");
	clk_to_ca(&k);
	is(view(k.ph)->k_ms, 0, "... K = 0");
	ph_free(k.ph);
}

int main(void)
{
	math();
	loss_and_growth();
	reno_friendly();
	timeout();
	clock_independent();
	sack_recovery();
	cut_from_cwnd(&tonic_prog_cubic, 7, 10);
	cut_from_cwnd(&tonic_prog_sack, 1, 2);
	undo_to_cwnd(&tonic_prog_cubic);
	undo_to_cwnd(&tonic_prog_sack);
	timeout_in_recovery();
	return tap_done();
}
