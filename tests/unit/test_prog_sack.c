// SPDX-License-Identifier: GPL-2.0
/*
 * SACK (RFC 6675-style) through the engine: a hole is retransmitted once
 * DupThresh segments above it are SACKed, every hole exactly once, nothing
 * SACKed or merely late is resent, recovery ends at `recover`.
 */
#include "prog_harness.h"

#define SETTLE	2000

/* Segment @seg arrives at a receiver holding @rcvd: ack with its run as the block. */
static void arrive(struct ph *ph, u8 *rcvd, u32 seg)
{
	u32 cum = 0, s, e;

	rcvd[seg] = 1;
	while (rcvd[cum])
		cum++;
	if (seg < cum) {
		ph_ack(ph, 0, cum);
	} else {
		for (s = seg; s > cum && rcvd[s - 1]; s--)
			;
		for (e = seg; rcvd[e]; e++)
			;
		ph_sack(ph, 0, cum, s, e);
	}
	ph_run(ph, SETTLE);
}

static void holes(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_sack);
	static u8 rcvd[256];
	u32 seg, n_rtx;

	c.init_cwnd = 20;
	c.rto_cycles = 100000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 100);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, -1), 20, "initial window: 20 segments");

	ph_mark(ph);
	arrive(ph, rcvd, 0);
	arrive(ph, rcvd, 1);
	arrive(ph, rcvd, 3);
	arrive(ph, rcvd, 4);
	is(ph_count(ph, 0, 1), 0, "two segments SACKed above hole 2: not lost yet");
	arrive(ph, rcvd, 6);
	is(ph_count(ph, 0, 1), 1, "third SACKed segment above 2: retransmit it");
	ok(ph_seg_sent(ph, 0, 2) == 1, "... segment 2");
	arrive(ph, rcvd, 7);
	is(ph_count(ph, 0, 1), 1, "hole 5 has two SACKed above: wait");
	arrive(ph, rcvd, 8);
	is(ph_count(ph, 0, 1), 2, "hole 5 has three SACKed above: retransmit");
	ok(ph_seg_sent(ph, 0, 5) == 1, "... segment 5");
	arrive(ph, rcvd, 10);
	arrive(ph, rcvd, 11);
	is(ph_count(ph, 0, 1), 2, "hole 9: two above, wait");
	arrive(ph, rcvd, 12);
	is(ph_count(ph, 0, 1), 3, "hole 9: three above, retransmit");
	ok(ph_seg_sent(ph, 0, 9) == 1, "... segment 9");
	/* Everything else sent so far arrives, new data sent meanwhile too. */
	for (seg = 13; seg < ph_stats(ph, 0).highest_sent && seg < 100; seg++)
		arrive(ph, rcvd, seg);
	is(ph_count(ph, 0, 1), 3, "later SACKs retransmit nothing more");

	/* The retransmissions arrive: partial acks, then the full ack. */
	arrive(ph, rcvd, 2);
	arrive(ph, rcvd, 5);
	is(ph_count(ph, 0, 1), 3, "partial acks for already-resent holes: nothing new");
	arrive(ph, rcvd, 9);
	n_rtx = ph_count(ph, 0, 1);
	is(n_rtx, 3, "each hole resent exactly once, nothing else");
	ok(ph_stats(ph, 0).cwnd <= 64, "recovery left with cwnd = ssthresh (%u)",
	   ph_stats(ph, 0).cwnd);
	for (seg = 0; seg < 20; seg++)
		if (seg != 2 && seg != 5 && seg != 9 && ph_seg_sent(ph, 0, seg) > 1)
			ok(0, "segment %u resent spuriously", seg);
	ph_free(ph);
}

static void end_to_end(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_sack);
	struct tonic_flow_stats st;

	c.init_cwnd = 10;
	c.rto_cycles = 1000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 400);
	ph_net(ph, 0, PH_RX_SACK, 500);
	ph->rx[0].drop[40] = 1;
	ph->rx[0].drop[41] = 1;
	ph->rx[0].drop[45] = 1;
	ph->rx[0].drop[52] = 1;
	ph->rx[0].drop[60] = 1;
	ph->rx[0].drop[200] = 1;
	ok(ph_net_run(ph, 0, 400, 5000000), "400 segments delivered with 6 losses");
	st = ph_stats(ph, 0);
	is(st.segs_rtx, 6, "exactly the 6 lost segments resent");
	is(st.timeouts, 0, "no RTO");
	is(ph->rx[0].dup, 0, "no spurious retransmission at the receiver");
	ph_free(ph);
}

int main(void)
{
	holes();
	end_to_end();
	return tap_done();
}
