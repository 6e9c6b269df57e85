// SPDX-License-Identifier: GPL-2.0
/*
 * DCQCN through the engine: the cut on a CNP (Rt = Rc, Rc *= 1 - alpha/2),
 * alpha's decay by (1 - 1/256) per alpha-timer period, and the climb back:
 * five fast-recovery halvings towards Rt, then additive increase.  The
 * parameters (timer period, R_AI) and their independence of the cycle
 * length: the same microseconds give the same rates at 100 ns cycles; the
 * constants the paper fixes (g, F, K apart from T), which a device sets.
 */
#include "prog_harness.h"

#define LINE	40000000u	/* kbps */
#define K	5500		/* alpha timer and rate timer, cycles */

static u32 rate(struct ph *ph)
{
	return ph_stats(ph, 0).rate_kbps;
}

static void cut_and_recover(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_dcqcn);
	u32 rc, rt, i;

	ph_add(ph, 0, &c);
	is(rate(ph), LINE, "starts at line rate (40 Gb/s)");
	ph_cnp(ph, 0);
	ph_run(ph, 10);
	is(rate(ph), LINE / 2, "first CNP: alpha = 1 halves the rate");
	ph_cnp(ph, 0);
	ph_run(ph, 10);
	is(rate(ph), LINE / 4, "second CNP at once: alpha still 1, halves again");

	/* Five timer events of fast recovery: Rc halfway to Rt = 20 Gb/s each. */
	rc = LINE / 4;
	rt = LINE / 2;
	ph_run(ph, 550);	/* the timers are checked every 550 cycles: skip the phase */
	for (i = 1; i <= 5; i++) {
		ph_run(ph, K);
		rc = (rc + rt + 1) / 2;
		is(rate(ph), rc, "fast recovery step %u: Rc = (Rc + Rt) / 2", i);
	}
	ph_run(ph, K);
	rt += 40000;
	rc = (rc + rt + 1) / 2;
	is(rate(ph), rc, "after F steps: additive increase, Rt += 40 Mb/s");
	ph_run(ph, 200 * K);
	ok(rate(ph) > LINE / 2 && rate(ph) <= LINE, "keeps climbing towards line rate (%u)",
	   rate(ph));
	ph_run(ph, 2000 * K);
	is(rate(ph), LINE, "back at line rate, never beyond");
	ph_free(ph);
}

/* alpha, estimated from the cut a CNP makes: after = before (1 - alpha / 2). */
static u32 cut_alpha(struct ph *ph)
{
	u32 before = rate(ph), after;

	ph_cnp(ph, 0);
	ph_run(ph, 1);
	after = rate(ph);
	return (u32)(((u64)(before - after) << 17) / before);
}

static void alpha_decay(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_dcqcn);
	u32 n, alpha = 65536, before, after, est;

	ph_add(ph, 0, &c);
	ph_cnp(ph, 0);
	ph_run(ph, 10);
	/* 100 quiet alpha periods: alpha = (1 - 1/256)^100 ~ 0.676. */
	ph_run(ph, 100 * K);
	for (n = 0; n < 100; n++)
		alpha -= alpha >> 8;
	before = rate(ph);
	est = cut_alpha(ph);
	after = rate(ph);
	ok(est + 700 >= alpha && est <= alpha + 700,
	   "alpha decayed by 1/256 per period: %u/65536 (model %u)", est, alpha);
	ok(after > before / 2, "second cut is milder than the first (%u -> %u)", before, after);
	ph_free(ph);
}

/*
 * param[0] = 300 us, param[1] = 5 Mb/s, on an engine of 100 ns cycles;
 * param[5] = F fast-recovery steps (@f, 0: the paper's 5), then additive
 * increase.
 */
static void params(u32 f)
{
	struct ph *ph = ph_new_ps(128, 100000);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_dcqcn);
	u32 rc = LINE / 4, rt = LINE / 2, steps = f ? f : 5, i;

	c.param[0] = 300;
	c.param[1] = 5000;
	c.param[5] = f;
	ph_add(ph, 0, &c);
	ph_cnp(ph, 0);
	ph_run(ph, 1);
	ph_cnp(ph, 0);
	ph_run(ph, 1);
	is(rate(ph), rc, "two CNPs: a quarter, target a half of line rate");
	ph_run(ph, 2800);	/* 280 us: not yet a period */
	is(rate(ph), rc, "no increase before the 300 us timer");
	for (i = 1; i <= steps + 1; i++) {
		ph_run(ph, 3000);
		if (i > steps)
			rt += 5000;	/* additive increase by param[1] */
		rc = (rc + rt + 1) / 2;
		is(rate(ph), rc, "F = %u, after %u us: %s", steps, 280 + 300 * i,
		   i > steps ? "additive increase, Rt += 5 Mb/s" : "fast recovery, Rc = (Rc + Rt) / 2");
	}
	ph_free(ph);
}

/* param[4] g = 1/16, param[6] K = 100 us apart from T = 100 ms. */
static void g_and_k(void)
{
	struct ph *ph = ph_new_ps(128, 100000);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_dcqcn);
	u32 alpha = 65536, est, n;

	c.param[0] = 100000;
	c.param[4] = 4096;
	c.param[6] = 100;
	ph_add(ph, 0, &c);
	ph_cnp(ph, 0);
	ph_run(ph, 1);
	/* Ten K periods (and a tick): alpha = (1 - g)^10 = 0.524, no increase yet. */
	ph_run(ph, 10050);
	for (n = 0; n < 10; n++)
		alpha -= (u32)(((u64)alpha * 4096) >> 16);
	is(rate(ph), LINE / 2, "no rate increase before T (100 ms)");
	is(ph_stats(ph, 0).prog_info[0], alpha, "the flow's statistics show alpha (get_info)");
	is(ph_stats(ph, 0).prog_info[1], LINE, "... and the target rate");
	est = cut_alpha(ph);
	ok(est + 700 >= alpha && est <= alpha + 700,
	   "alpha decayed by g = 1/16 per K = 100 us: %u/65536 (model %u)", est, alpha);
	/* That CNP raised alpha by g (1 - alpha): the next cut shows it. */
	alpha += (65536 - alpha + 15) / 16;
	est = cut_alpha(ph);
	ok(est + 700 >= alpha && est <= alpha + 700,
	   "a CNP raises alpha by g (1 - alpha): %u/65536 (model %u)", est, alpha);
	ph_free(ph);
}

int main(void)
{
	cut_and_recover();
	alpha_decay();
	params(0);
	params(2);
	g_and_k();
	return tap_done();
}
