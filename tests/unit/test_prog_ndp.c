// SPDX-License-Identifier: GPL-2.0
/*
 * NDP through the engine: the initial window on initial credit, then one
 * packet per pull; a NACK (trimmed header) makes its segment the next one
 * out; a timeout resends what is missing and pays for it itself.
 */
#include "prog_harness.h"

#define SETTLE	2000

static void grants(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_ndp);
	const struct ph_rec *r;

	c.rto_cycles = 100000000;
	ph_add(ph, 0, &c);
	is(ph_stats(ph, 0).credit, 12 * 1000, "default initial credit: 12 segments");
	ph_push(ph, 0, 40);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, -1), 12, "initial window spent: 12 segments");
	is(ph_stats(ph, 0).credit, 0, "credit exhausted");

	ph_mark(ph);
	ph_grant(ph, 0, 3000);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 0), 3, "a 3000 B pull releases three segments");
	ok(ph_seg_sent(ph, 0, 12) && ph_seg_sent(ph, 0, 14), "... 12 to 14");

	/*
	 * Segment 4 was trimmed: the NACK marks it.  Addresses already in the
	 * flow's ring (generated ahead while credit ran out) go first, then
	 * the retransmission, ahead of any new segment generated later.
	 */
	ph_mark(ph);
	ph_nack(ph, 0, 0, 4);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, -1), 0, "NACK alone: no credit, nothing sent");
	ph_grant(ph, 0, 20 * 1000);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, -1), 20, "20 pulls: 20 packets");
	is(ph_count(ph, 0, 1), 1, "... one of them a retransmission");
	r = ph_nth(ph, 0, 1, 0);
	ok(r && r->d.seg == 4, "... of the trimmed segment");
	ok(r && r - ph_nth(ph, 0, -1, 0) <= TONIC_RING_DEFAULT,
	   "... after at most a ring of addresses generated before the NACK");

	/* NACK for a segment already acked (late trim report): ignored. */
	ph_sack(ph, 0, 0, 5, 6);
	ph_run(ph, SETTLE);
	ph_mark(ph);
	ph_nack(ph, 0, 0, 5);
	ph_grant(ph, 0, 5000);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 0, "NACK for an acked segment: nothing resent");
	ph_free(ph);
}

static void timeout(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_ndp);
	struct tonic_flow_stats st;

	c.init_credit = 4000;
	c.rto_cycles = 10000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 4);
	ph_run(ph, SETTLE);
	/* 0 and 2 arrive, 1 and 3 vanish without a trace. */
	ph_sack(ph, 0, 1, 2, 3);
	ph_run(ph, SETTLE);
	ph_mark(ph);
	ph_run(ph, 12000);
	st = ph_stats(ph, 0);
	is(st.timeouts, 1, "timeout fires");
	is(ph_count(ph, 0, 1), 2, "timeout resends the two missing segments");
	ok(ph_seg_sent(ph, 0, 1) == 1 && ph_seg_sent(ph, 0, 3) == 1, "... 1 and 3, not 2");
	is(st.credit, 0, "it granted itself exactly their credit");
	ph_free(ph);
}

static void end_to_end(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_ndp);
	struct tonic_flow_stats st;

	c.rto_cycles = 1000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 1000);
	ph_net(ph, 0, PH_RX_NDP, 300);
	ph->rx[0].drop[3] = 1;		/* trimmed */
	ph->rx[0].drop[200] = 2;	/* trimmed twice */
	ph->rx[0].drop[999] = 1;
	ok(ph_net_run(ph, 0, 1000, 2000000), "1000 segments delivered through trimming");
	st = ph_stats(ph, 0);
	is(st.segs_rtx, 4, "one resend per trim");
	is(st.timeouts, 0, "no timeout: every loss was NACKed");
	is(ph->rx[0].dup, 0, "no spurious retransmission");
	ok(st.credit <= 12 * 1000, "credit stays within one initial window (%u)", st.credit);
	ph_free(ph);
}

int main(void)
{
	grants();
	timeout();
	end_to_end();
	return tap_done();
}
