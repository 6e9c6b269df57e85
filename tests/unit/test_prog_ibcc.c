// SPDX-License-Identifier: GPL-2.0
/*
 * IB congestion control through the engine: the CCTI walk on BECNs (capped
 * at CCTI_Limit), one step down per quiet CCTI_Timer (floored at CCTI_Min),
 * rate = one 4-packet aggregate per CCT[CCTI], and the seed's theorem:
 * CCTI_Increase 1 : N between two flows sharing a bottleneck settles at
 * rates N : 1.  CCTI_Increase / CCTI_Min / CCTI_Limit come from the flow's
 * param[0..2] and can be changed on a live flow (tonic_flow_set_param);
 * param[3] is CCTI_Timer, param[4] scales the CCT.
 */
#include "prog_harness.h"

#define LINE	40000000u	/* kbps */
#define TIMER	15000		/* CCTI_Timer, cycles */
#define SEG	1024

/* The seed's reference table, in ns, as the program rounds it. */
static u32 cct(u32 i)
{
	return (14000u * i * i + 531) / 1062;
}

static u32 want_rate(u32 ccti)
{
	u64 k;

	if (!cct(ccti))
		return LINE;
	k = (u64)4 * SEG * 8 * 1000000 / cct(ccti);
	return k < LINE ? (u32)k : LINE;
}

static u32 rate(struct ph *ph, u32 flow)
{
	return ph_stats(ph, flow).rate_kbps;
}

static void walk(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_ibcc);
	u32 i;

	c.seg_size = SEG;
	ph_add(ph, 0, &c);
	is(rate(ph, 0), LINE, "CCTI_Min = 0: not limited, line rate");
	for (i = 0; i < 10; i++)
		ph_cnp(ph, 0);
	ph_run(ph, 20);
	is(rate(ph, 0), want_rate(10), "10 BECNs: CCTI 10, IRD %u ns", cct(10));
	ok(rate(ph, 0) < LINE, "... below line rate");
	ok((ph_stats(ph, 0).state & TONIC_FLOW_INFO) && ph_stats(ph, 0).prog_info[0] == 10 &&
	   !strcmp(tonic_prog_ibcc.info_names[0], "ccti") && !tonic_prog_ibcc.info_names[1],
	   "the flow's statistics show its CCTI (get_info): %u", ph_stats(ph, 0).prog_info[0]);
	ph_run(ph, TIMER + TIMER / 10);
	is(rate(ph, 0), want_rate(9), "one quiet CCTI_Timer: CCTI 9");
	is(ph_stats(ph, 0).prog_info[0], 9, "... and shows it");
	ph_run(ph, TIMER);
	is(rate(ph, 0), want_rate(8), "another: CCTI 8");
	ph_run(ph, 20 * TIMER);
	is(rate(ph, 0), LINE, "decrements stop at CCTI_Min: line rate");
	ph_cnp(ph, 0);
	ph_run(ph, TIMER / 2);
	ph_cnp(ph, 0);
	ph_run(ph, TIMER / 2 + TIMER / 5);
	is(rate(ph, 0), want_rate(2), "a BECN restarts the timer: no step within TIMER of it");

	for (i = 0; i < 300; i++) {
		ph_cnp(ph, 0);
		ph_run(ph, 2);
	}
	is(rate(ph, 0), want_rate(127), "300 BECNs: capped at CCTI_Limit 127 (%u kbps)",
	   want_rate(127));
	ph_free(ph);
}

/*
 * Two flows, CCTI_Increase 1 and 2, behind a 10 Gb/s bottleneck that,
 * while overloaded, returns one BECN per 8 packets each flow sends (the
 * seed's FECN marking ratio).  A fluid model of the link: rates come from
 * the engine, marks go back as CNPs.
 */
static void partition(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_ibcc);
	const u64 step = 1000;		/* 10 us */
	const u64 cap = 10000000;	/* kbps */
	u64 sum[2] = { 0, 0 }, carry[2] = { 0, 0 };
	u32 f, t, n;

	c.seg_size = SEG;
	ph_add(ph, 0, &c);
	c.param[0] = 2;		/* CCTI_Increase */
	ph_add(ph, 1, &c);
	for (t = 0; t < 4000; t++) {
		u64 r[2] = { rate(ph, 0), rate(ph, 1) };

		for (f = 0; f < 2; f++) {
			/* packets this step = kbps * 10 us / (SEG * 8 bits) */
			carry[f] += r[f] * 10;
			if (r[0] + r[1] > cap) {
				n = (u32)(carry[f] / ((u64)SEG * 8 * 1000 * 8));
				carry[f] -= (u64)n * SEG * 8 * 1000 * 8;
				while (n--)
					ph_cnp(ph, f);
			} else {
				carry[f] = 0;
			}
			if (t >= 2000)
				sum[f] += r[f];
		}
		ph_run(ph, step);
	}
	diag("mean rates: CCTI_Increase 1: %llu kbps, 2: %llu kbps",
	     (unsigned long long)(sum[0] / 2000), (unsigned long long)(sum[1] / 2000));
	ok(sum[0] > sum[1] * 3 / 2 && sum[0] < sum[1] * 5 / 2,
	   "CCTI_Increase 1 : 2 -> rates about 2 : 1 (%llu.%02llu)",
	   (unsigned long long)(sum[0] / sum[1]),
	   (unsigned long long)(sum[0] * 100 / sum[1] % 100));
	ok((sum[0] + sum[1]) / 2000 <= cap * 11 / 10 && (sum[0] + sum[1]) / 2000 >= cap / 2,
	   "together they hold the bottleneck (%llu kbps)",
	   (unsigned long long)((sum[0] + sum[1]) / 2000));
	ph_free(ph);
}

/* param[0..2]: CCTI_Increase, CCTI_Min, CCTI_Limit; live changes. */
static void params(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_ibcc);

	c.seg_size = SEG;
	c.param[0] = 3;
	c.param[1] = 2;
	c.param[2] = 10;
	ph_add(ph, 0, &c);
	is(rate(ph, 0), want_rate(2), "CCTI_Min 2: starts at CCTI 2");
	ph_cnp(ph, 0);
	ph_run(ph, 20);
	is(rate(ph, 0), want_rate(5), "CCTI_Increase 3: one BECN moves CCTI 2 -> 5");
	ph_cnp(ph, 0);
	ph_cnp(ph, 0);
	ph_run(ph, 20);
	is(rate(ph, 0), want_rate(10), "CCTI_Limit 10 caps it");
	ph_run(ph, 20 * TIMER);
	is(rate(ph, 0), want_rate(2), "quiet timers stop at CCTI_Min 2");

	/* Reconfigure the live flow: applied at its next call. */
	is(tonic_flow_set_param(ph->tc, 0, 0, 1), 0, "set_param: CCTI_Increase 3 -> 1");
	ph_cnp(ph, 0);
	ph_run(ph, 20);
	is(rate(ph, 0), want_rate(3), "... the next BECN moves CCTI by 1");
	tonic_flow_set_param(ph->tc, 0, 1, 6);
	ph_run(ph, TIMER / 5);
	is(rate(ph, 0), want_rate(6), "CCTI_Min raised to 6: CCTI clamped up on the next tick");
	tonic_flow_set_param(ph->tc, 0, 1, 0);
	tonic_flow_set_param(ph->tc, 0, 2, 4);
	ph_run(ph, TIMER / 5);
	is(rate(ph, 0), want_rate(4), "CCTI_Limit lowered to 4: clamped down");
	tonic_flow_set_param(ph->tc, 0, 2, 1000);
	tonic_flow_set_param(ph->tc, 0, 0, 1000);
	ph_cnp(ph, 0);
	ph_run(ph, 20);
	is(rate(ph, 0), want_rate(127), "out-of-range values are clamped to 127");
	is(tonic_flow_set_param(ph->tc, 0, TONIC_PROG_PARAMS, 1), -EINVAL, "bad index: -EINVAL");
	is(tonic_flow_set_param(ph->tc, 1, 0, 1), -ENOENT, "no such flow: -ENOENT");
	ph_free(ph);
}

/*
 * The seed's Algorithm 1, lines 4-7: "if receive BECN && CCTI < CCTI_Limit
 * then CCTI = CCTI + CCTI_Increase; IRD = CCT[CCTI]; Timer = 0".  A BECN
 * at the limit changes nothing, the timer included: it still steps CCTI
 * down one CCTI_Timer after the BECN that reached the limit.
 */
static void algorithm1(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_ibcc);
	u32 i;

	c.seg_size = SEG;
	c.param[2] = 10;
	ph_add(ph, 0, &c);
	for (i = 0; i < 10; i++)
		ph_cnp(ph, 0);
	ph_run(ph, TIMER / 2);
	is(rate(ph, 0), want_rate(10), "10 BECNs: at CCTI_Limit 10");
	ph_cnp(ph, 0);
	ph_run(ph, TIMER / 2 + TIMER / 5);
	is(rate(ph, 0), want_rate(9),
	   "a BECN at CCTI_Limit does not restart the timer: CCTI 9 one CCTI_Timer after reaching it");
	ph_cnp(ph, 0);
	ph_run(ph, TIMER / 2);
	is(rate(ph, 0), want_rate(10), "below the limit a BECN moves CCTI again: 10");
	ph_run(ph, TIMER / 2 + TIMER / 5);
	is(rate(ph, 0), want_rate(9), "... and restarts the timer (line 7): one step a CCTI_Timer later");
	ph_free(ph);
}

/* param[3]: CCTI_Timer in microseconds (the seed's Table 1 lists it per QP). */
static void timer_param(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_ibcc);
	u32 i;

	c.seg_size = SEG;
	c.param[3] = 300;	/* 300 us = 2 x TIMER */
	ph_add(ph, 0, &c);
	c.param[3] = 50;
	ph_add(ph, 1, &c);
	for (i = 0; i < 10; i++) {
		ph_cnp(ph, 0);
		ph_cnp(ph, 1);
	}
	ph_run(ph, TIMER + TIMER / 5);
	is(rate(ph, 0), want_rate(10), "CCTI_Timer 300 us: no step after 150 us");
	ok(rate(ph, 1) >= want_rate(7) && rate(ph, 1) <= want_rate(6),
	   "CCTI_Timer 50 us: three or four steps in 180 us (CCTI 10 -> 6 or 7)");
	ph_run(ph, TIMER);
	is(rate(ph, 0), want_rate(9), "... one step after 300 us");
	ph_free(ph);
}

/*
 * param[4]: the CCT scaled, as a subnet manager would program a table for
 * a slower link: IRD = CCT[CCTI] x scale, so the rate divides by it.
 */
static void scale_param(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_ibcc);
	u64 agg_bits_ns = (u64)4 * SEG * 8 * 1000000;

	c.seg_size = SEG;
	c.param[4] = 256;
	ph_add(ph, 0, &c);
	is(rate(ph, 0), LINE, "CCT scale 256, CCTI 0: CCT[0] = 0 stays line rate");
	tonic_flow_set_param(ph->tc, 0, 1, 127);
	ph_run(ph, TIMER / 5);
	is(rate(ph, 0), (u32)(agg_bits_ns / ((u64)cct(127) * 256)),
	   "CCTI 127: IRD 256 x %u ns, %u kbps (unscaled %u)", cct(127),
	   (u32)(agg_bits_ns / ((u64)cct(127) * 256)), want_rate(127));
	tonic_flow_set_param(ph->tc, 0, 4, 100000);
	ph_run(ph, TIMER / 5);
	is(rate(ph, 0), (u32)(agg_bits_ns / ((u64)cct(127) * 256)),
	   "a new scale: rate unchanged until CCTI moves");
	tonic_flow_set_param(ph->tc, 0, 1, 126);
	tonic_flow_set_param(ph->tc, 0, 2, 126);
	ph_run(ph, TIMER / 5);
	is(rate(ph, 0), (u32)(agg_bits_ns / ((u64)cct(126) * 1024)),
	   "CCTI clamped to 126: the scale above 1024 is taken as 1024");
	ph_free(ph);
}

int main(void)
{
	scale_param();
	walk();
	params();
	algorithm1();
	timer_param();
	partition();
	return tap_done();
}
