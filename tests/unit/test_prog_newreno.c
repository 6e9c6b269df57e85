// SPDX-License-Identifier: GPL-2.0
/*
 * NewReno (RFC 6582) through the engine: fast retransmit on the third
 * dupack, window inflation, one retransmission per partial ack, exit at the
 * full ack; only the first partial ack resets the RTO; RTO with paced
 * go-back-N and backoff; an end-to-end transfer with three losses in one
 * window and no timeout; recovery from SACKs when ACKs are coalesced.
 */
#include "prog_harness.h"

#define SETTLE		2000

static void dupacks(struct ph *ph, u32 cum, u32 n)
{
	while (n--)
		ph_ack(ph, 0, cum);
	ph_run(ph, SETTLE);
}


static void partial_acks(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_newreno, 10, 60);
	const struct ph_rec *r;

	is(ph_count(ph, 0, -1), 10, "initial window: 10 segments");

	/* Segments 2 and 5 are lost; 0 and 1 arrive. */
	ph_mark(ph);
	ph_ack(ph, 0, 1);
	ph_ack(ph, 0, 2);
	ph_run(ph, SETTLE);
	is(ph_stats(ph, 0).cwnd, 12, "slow start: cwnd 12 after two acks");
	is(ph_count(ph, 0, 0), 4, "four new segments (10..13)");

	ph_mark(ph);
	dupacks(ph, 2, 2);
	is(ph_count(ph, 0, 1), 0, "two dupacks: no retransmission");
	dupacks(ph, 2, 1);
	is(ph_count(ph, 0, 1), 1, "third dupack: fast retransmit");
	r = ph_nth(ph, 0, 1, 0);
	ok(r && r->d.seg == 2, "... of segment 2");
	is(ph_stats(ph, 0).cwnd, 6 + 3, "cwnd = ssthresh (cwnd 12 / 2) + 3");

	ph_mark(ph);
	dupacks(ph, 2, 3 + 4);	/* 7, 8, 9 and then 10..13 arrive */
	is(ph_stats(ph, 0).cwnd, 16, "each further dupack inflates cwnd by one");
	is(ph_count(ph, 0, 1), 0, "no retransmission on further dupacks");
	is(ph_count(ph, 0, 0), 4, "inflation past the flight sends new data (14..17)");

	/* The retransmitted 2 arrives: 3 and 4 were held, 5 is missing. */
	ph_mark(ph);
	ph_ack(ph, 0, 5);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 1, "partial ack: exactly one retransmission");
	r = ph_nth(ph, 0, 1, 0);
	ok(r && r->d.seg == 5, "... of the segment it names (5)");
	is(ph_stats(ph, 0).cwnd, 16 - 3 + 1, "partial ack deflates by the amount acked, plus one");

	/* The retransmitted 5 arrives: everything up to 16 is there. */
	ph_mark(ph);
	ph_ack(ph, 0, 16);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 0, "full ack: no retransmission");
	ok(ph_stats(ph, 0).cwnd <= 6, "full ack: cwnd deflated to at most ssthresh (%u)",
	   ph_stats(ph, 0).cwnd);

	/* Out of recovery: a new loss takes three fresh dupacks again. */
	ph_mark(ph);
	dupacks(ph, 16, 2);
	is(ph_count(ph, 0, 1), 0, "after recovery: two dupacks do nothing");
	ph_free(ph);
}

/*
 * RFC 6582 3.2 step 3: "For the first partial ACK that arrives during fast
 * recovery, also reset the retransmit timer."  Section 4 calls this the
 * Impatient variant: later partial acks leave the timer alone, so a
 * window with many losses ends in an RTO instead of one retransmission
 * per round trip for longer than the RTO.
 *
 * Segments 0..9 are sent; 2, 4, 6 and 8 are lost.  RTO = 50000 cycles.
 *   t =  2000  acks 1, 2          new acks: timer reset to 52000
 *   t =  4000  3 dupacks (cum 2)  fast retransmit of 2, timer untouched
 *   t =  6000  partial ack cum 4  retransmit 4, first partial: timer 56000
 *   t = 26000  partial ack cum 6  retransmit 6, timer stays at 56000
 *   t = 46000  partial ack cum 8  retransmit 8, timer stays at 56000
 *   t = 56000  RTO: segment 8 again, cwnd 1
 * (Resetting on every partial ack would move the RTO to 96000.)
 */
static void partial_ack_timer(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_newreno);
	const struct ph_rec *r;
	u64 t_first;

	c.init_cwnd = 10;
	c.rto_cycles = 50000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 10);
	ph_run_to(ph, 2000);
	ph_ack(ph, 0, 1);
	ph_ack(ph, 0, 2);
	ph_run_to(ph, 4000);
	ph_ack(ph, 0, 2);
	ph_ack(ph, 0, 2);
	ph_ack(ph, 0, 2);
	ph_mark(ph);
	ph_run_to(ph, 6000);
	is(ph_count(ph, 0, 1), 1, "third dupack: fast retransmit of segment 2");

	ph_ack(ph, 0, 4);
	t_first = ph_now(ph);
	ph_mark(ph);
	ph_run_to(ph, 26000);
	r = ph_nth(ph, 0, 1, 0);
	ok(r && r->d.seg == 4, "first partial ack (cum 4): segment 4 resent");
	ph_ack(ph, 0, 6);
	ph_mark(ph);
	ph_run_to(ph, 46000);
	r = ph_nth(ph, 0, 1, 0);
	ok(r && r->d.seg == 6, "second partial ack (cum 6): segment 6 resent");
	ph_ack(ph, 0, 8);
	ph_mark(ph);
	ph_run_to(ph, t_first + 50000 - 1);
	r = ph_nth(ph, 0, 1, 0);
	ok(r && r->d.seg == 8, "third partial ack (cum 8): segment 8 resent");
	is(ph_stats(ph, 0).timeouts, 0, "no RTO before first partial ack + rto");
	ph_mark(ph);
	ph_run_to(ph, t_first + 50000 + 10);
	is(ph_stats(ph, 0).timeouts, 1,
	   "RTO at first partial ack + rto: later partial acks did not reset it");
	r = ph_nth(ph, 0, 1, 0);
	ok(r && r->d.seg == 8 && r->at >= t_first + 50000,
	   "... resending segment 8 at cycle %llu", r ? (unsigned long long)r->at : 0ULL);
	is(ph_stats(ph, 0).cwnd, 1, "... with cwnd 1");
	ph_free(ph);
}

static void timeout(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_newreno);
	struct tonic_flow_stats st;
	const struct ph_rec *r1, *r2;

	c.init_cwnd = 8;
	c.rto_cycles = 10000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 8);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 0), 8, "8 segments out");

	ph_mark(ph);
	ph_run(ph, 10000);
	st = ph_stats(ph, 0);
	is(st.timeouts, 1, "one RTO after rto_cycles");
	is(ph_count(ph, 0, 1), 1, "RTO resends only the first unacked segment");
	is(st.cwnd, 1, "RTO: cwnd = 1");

	/* Backoff: the next timeout comes twice as late. */
	r1 = ph_nth(ph, 0, 1, 0);
	ph_mark(ph);
	ph_run(ph, 20000 + SETTLE);
	r2 = ph_nth(ph, 0, 1, 0);
	ok(r1 && r2 && r2->at - r1->at >= 20000 && r2->at - r1->at < 20000 + 100,
	   "second RTO after 2 x rto (%llu cycles)",
	   r1 && r2 ? (unsigned long long)(r2->at - r1->at) : 0ULL);

	/* Acks now pace the go-back-N: cwnd 2 resends two, then three more. */
	ph_mark(ph);
	ph_ack(ph, 0, 1);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 2, "ack after RTO: cwnd 2 -> two retransmissions");
	ok(ph_seg_sent(ph, 0, 1) == 1 && ph_seg_sent(ph, 0, 2) == 1, "... segments 1 and 2");
	ph_mark(ph);
	ph_ack(ph, 0, 3);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 4, "next ack: cwnd 4 (= ssthresh) -> segments 3..6");
	ph_mark(ph);
	dupacks(ph, 3, 3);
	is(ph_count(ph, 0, 1), 0, "dupacks for data sent before the RTO: no fast retransmit");
	ph_mark(ph);
	ph_ack(ph, 0, 8);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 0, "all acked: nothing more resent");
	is(ph_stats(ph, 0).timeouts, 2, "no further timeouts");
	ph_free(ph);
}

static void end_to_end(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_newreno);
	struct tonic_flow_stats st;

	c.init_cwnd = 10;
	c.rto_cycles = 1000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 300);
	ph_net(ph, 0, PH_RX_CUM, 500);
	ph->rx[0].drop[40] = 1;
	ph->rx[0].drop[44] = 1;
	ph->rx[0].drop[47] = 1;
	ok(ph_net_run(ph, 0, 300, 5000000), "300 segments delivered with 3 losses in one window");
	st = ph_stats(ph, 0);
	is(st.segs_rtx, 3, "exactly the 3 lost segments resent");
	is(st.timeouts, 0, "no RTO: partial acks repaired every loss");
	is(ph->rx[0].dup, 0, "no spurious retransmission");
	ph_free(ph);
}

/*
 * Coalesced ACKs (receive GRO, ACK compression, stretch ACKs): a receiver
 * that takes many segments behind a hole at once sends one ACK for them,
 * not one per segment, so three duplicate ACKs may never come.  With SACK,
 * RFC 6675 (5, step 2) starts loss recovery when DupThresh segments above
 * the hole are SACKed (IsLost(HighACK + 1)), whatever the number of ACKs,
 * as Linux's Reno does (tcp_dupack_heuristics(): sacked_out).  Measured in
 * the guest: a receiver's GRO turned 22 segments after a loss into two
 * duplicate ACKs, and every loss took an RTO.
 */
static void coalesced_sack(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_newreno, 10, 60);
	const struct ph_rec *r;

	ph_ack(ph, 0, 2);
	ph_run(ph, SETTLE);		/* cwnd 12: 0..13 sent, 2 is lost */

	ph_mark(ph);
	ph_sack(ph, 0, 2, 3, 5);	/* one ACK for 3 and 4: two SACKed */
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 0, "one dupack, two segments SACKed above the hole: no retransmission");
	ph_sack(ph, 0, 2, 3, 9);	/* one ACK for 5..8: six SACKed in all */
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 1, "second dupack, six segments SACKed: fast retransmit");
	r = ph_nth(ph, 0, 1, 0);
	ok(r && r->d.seg == 2, "... of the hole (segment 2)");
	is(ph_stats(ph, 0).cwnd, 6 + 3, "cwnd = ssthresh (cwnd 12 / 2) + 3, as after three dupacks");

	ph_mark(ph);
	ph_ack(ph, 0, 14);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 0, "the full ack ends recovery: nothing more resent");
	ph_free(ph);
}

/*
 * RFC 6582 3.2 (2)'s "recover" check is for losses an earlier recovery or
 * RTO already repaired.  An ECE cut sets `recover` too (one cut per
 * window), but repairs nothing: three dupacks after it are a new loss,
 * retransmitted at once and without a second cut (Linux's CWR state).
 */
static void loss_after_ecn_cut(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_newreno, 10, 60);
	struct tonic_pkt ece = { .type = TONIC_PKT_ACK, .cum_ack = 1, .flags = TONIC_PKT_F_ECE };

	ph_in(ph, 0, &ece);
	ph_run(ph, SETTLE);
	is(ph_stats(ph, 0).cwnd, 5, "ECE: cwnd 10 -> 10 / 2 = 5");
	ph_mark(ph);
	dupacks(ph, 1, 3);
	ok(ph_seg_sent(ph, 0, 1) == 1, "third dupack in the cut window: 1 resent");
	is(ph_stats(ph, 0).cwnd, 5 + 3, "cwnd = the ECE's ssthresh 5 + 3, not cut again");
	ph_free(ph);
}

int main(void)
{
	coalesced_sack();
	partial_acks();
	partial_ack_timer();
	timeout();
	end_to_end();
	loss_after_ecn_cut();
	return tap_done();
}
