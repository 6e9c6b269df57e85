// SPDX-License-Identifier: GPL-2.0
/*
 * Reno (RFC 5681) through the engine, and where it parts from NewReno: with
 * two losses in one window, Reno leaves fast recovery at the first partial
 * ack and needs three fresh dupacks (halving again) or an RTO for the second
 * loss, where NewReno retransmits it at once.
 */
#include "prog_harness.h"

#define SETTLE	2000

static void dupacks(struct ph *ph, u32 cum, u32 n)
{
	while (n--)
		ph_ack(ph, 0, cum);
	ph_run(ph, SETTLE);
}

/* Script the same two-loss window for @prog; returns rtx seen on the partial ack. */
static u32 two_losses(const struct tonic_prog_ops *prog, struct ph **out)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(prog);

	c.init_cwnd = 10;
	c.rto_cycles = 100000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 60);
	ph_run(ph, SETTLE);
	/* 0..9 out; 2 and 5 lost. */
	ph_ack(ph, 0, 1);
	ph_ack(ph, 0, 2);
	ph_run(ph, SETTLE);
	ph_mark(ph);
	dupacks(ph, 2, 3);
	is(ph_count(ph, 0, 1), 1, "%s: third dupack retransmits segment 2", prog->name);
	dupacks(ph, 2, 7);
	ph_mark(ph);
	ph_ack(ph, 0, 5);
	ph_run(ph, SETTLE);
	*out = ph;
	return ph_count(ph, 0, 1);
}

int main(void)
{
	struct ph *ph;
	struct tonic_flow_stats st;
	u32 highest;

	is(two_losses(&tonic_prog_newreno, &ph), 1, "newreno: partial ack retransmits 5 at once");
	ph_free(ph);

	is(two_losses(&tonic_prog_reno, &ph), 0, "reno: partial ack retransmits nothing");
	st = ph_stats(ph, 0);
	is(st.cwnd, 6, "reno: partial ack ends fast recovery, cwnd = ssthresh");
	highest = st.highest_sent;

	/* Reno needs three fresh dupacks (from 14..17) for the second loss. */
	ph_mark(ph);
	dupacks(ph, 5, 2);
	is(ph_count(ph, 0, 1), 0, "reno: two new dupacks: still nothing");
	dupacks(ph, 5, 1);
	is(ph_count(ph, 0, 1), 1, "reno: third new dupack: second fast retransmit");
	ok(ph_seg_sent(ph, 0, 5) == 1, "reno: ... of segment 5");
	st = ph_stats(ph, 0);
	is(st.cwnd, 6 / 2 + 3, "reno: and a second window cut, from cwnd 6 (not the flight %u)",
	   highest - 5);
	ph_free(ph);

	/*
	 * End to end, losses near the tail (44 and 47 of 50): after the
	 * partial ack too few segments remain to produce three dupacks, so
	 * Reno waits for the RTO where NewReno repairs at once.
	 */
	{
		const struct tonic_prog_ops *p[2] = { &tonic_prog_reno, &tonic_prog_newreno };
		u64 t[2], to[2];
		int i;

		for (i = 0; i < 2; i++) {
			struct tonic_flow_cfg c;

			ph = ph_new(128);
			c = ph_cfg(p[i]);
			c.init_cwnd = 10;
			c.rto_cycles = 200000;
			ph_add(ph, 0, &c);
			ph_push(ph, 0, 50);
			ph_net(ph, 0, PH_RX_CUM, 500);
			ph->rx[0].drop[44] = 1;
			ph->rx[0].drop[47] = 1;
			ok(ph_net_run(ph, 0, 50, 10000000), "%s: tail transfer completes", p[i]->name);
			t[i] = ph_now(ph);
			to[i] = ph_stats(ph, 0).timeouts;
			is(ph->rx[0].dup, 0, "%s: no spurious retransmission", p[i]->name);
			is(ph_stats(ph, 0).segs_rtx, 2, "%s: two retransmissions", p[i]->name);
			ph_free(ph);
		}
		is(to[0], 1, "reno: the second tail loss costs an RTO");
		is(to[1], 0, "newreno: no RTO");
		ok(t[1] + 200000 / 2 < t[0], "newreno finishes far earlier (%llu vs %llu cycles)",
		   (unsigned long long)t[1], (unsigned long long)t[0]);
	}
	return tap_done();
}
