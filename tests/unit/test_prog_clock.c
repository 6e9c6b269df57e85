// SPDX-License-Identifier: GPL-2.0
/*
 * Program timers are times, not cycle counts: a program's retransmission
 * timeout (RFC 6298's RTO, IRN's RTO_low/RTO_high, NDP's backstop) and its
 * CC timers (IB CC's CCTI_Timer) last as long whatever the engine's cycle
 * -- 10 ns as Tonic's hardware, 832 ns as the simulator's experiments, or
 * the soft device's module parameter.  Each built-in program's first
 * retransmission of a lost segment comes after the same time on both
 * clocks, to one cycle of the coarser.
 */
#include "prog_harness.h"

#define FINE_PS		10000		/* 10 ns */
#define COARSE_PS	832000		/* 832 ns */
#define IBCC_TICK_PS	15000000	/* CCTI_Timer / 10 */

/* Picoseconds from the first transmission to the first retransmission. */
static u64 first_rtx_ps(const struct tonic_prog_ops *prog, u32 cycle_ps)
{
	struct ph *ph = ph_new_ps(128, cycle_ps);
	struct tonic_flow_cfg c = ph_cfg(prog);
	const struct ph_rec *a, *r;
	u64 at = 0;

	/* A grant flow may send what it was granted: one segment. */
	if (prog->credit == TONIC_CREDIT_GRANT)
		c.init_credit = 1000;
	if (ph_add(ph, 0, &c) || ph_push(ph, 0, 1))
		goto out;
	/* 10 s: longer than any program's first timeout. */
	ph_run(ph, 10000000000000ull / cycle_ps);
	a = ph_nth(ph, 0, 0, 0);
	r = ph_nth(ph, 0, 1, 0);
	if (a && r)
		at = (r->at - a->at) * cycle_ps;
out:
	ph_free(ph);
	return at;
}

/* When IB CC's CCTI first steps down after BECNs: the rate goes back up. */
static u64 ibcc_recovery_ps(u32 cycle_ps)
{
	struct ph *ph = ph_new_ps(128, cycle_ps);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_ibcc);
	u32 rate0, limited, i;
	u64 t0, step, end, t;

	ph_add(ph, 0, &c);
	ph_run(ph, 10);
	rate0 = ph_stats(ph, 0).rate_kbps;
	/* CCTI 20: CCT[20] = 5.3 us per 4 packets, 6 Gb/s. */
	for (i = 0; i < 20; i++) {
		ph_cnp(ph, 0);
		ph_run(ph, 1);
	}
	t0 = ph_now(ph);
	limited = ph_stats(ph, 0).rate_kbps;
	step = 1000000 / cycle_ps ? : 1;	/* sample every microsecond */
	end = t0 + 10000000000ull / cycle_ps;	/* at most 10 ms */
	while (ph_now(ph) < end && ph_stats(ph, 0).rate_kbps == limited)
		ph_run(ph, step);
	t = ph_now(ph);
	ph_free(ph);
	if (limited >= rate0 || t >= end)
		return 0;
	return (t - t0) * cycle_ps;
}

int main(void)
{
	const struct tonic_prog_ops *const *progs;
	u64 fine, coarse;
	u32 n, i;

	progs = tonic_prog_list(&n);
	for (i = 0; i < n; i++) {
		fine = first_rtx_ps(progs[i], FINE_PS);
		coarse = first_rtx_ps(progs[i], COARSE_PS);
		ok(fine && coarse && coarse + 2 * COARSE_PS >= fine && coarse <= fine + 2 * COARSE_PS,
		   "%s: first retransmission after %llu us at 10 ns cycles, %llu us at 832 ns",
		   progs[i]->name, (unsigned long long)(fine / 1000000),
		   (unsigned long long)(coarse / 1000000));
	}
	/* The CCTI_Timer is looked at every tenth of it: 15 us. */
	fine = ibcc_recovery_ps(FINE_PS);
	coarse = ibcc_recovery_ps(COARSE_PS);
	ok(fine && coarse && coarse + IBCC_TICK_PS + 2 * COARSE_PS >= fine &&
	   coarse <= fine + IBCC_TICK_PS + 2 * COARSE_PS,
	   "ibcc: CCTI_Timer steps the rate up after %llu us at 10 ns cycles, %llu us at 832 ns",
	   (unsigned long long)(fine / 1000000), (unsigned long long)(coarse / 1000000));
	return tap_done();
}
