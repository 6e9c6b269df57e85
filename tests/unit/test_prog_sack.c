// SPDX-License-Identifier: GPL-2.0
/*
 * SACK (RFC 6675) through the engine: a hole is lost once DupThresh
 * segments above it are SACKed; retransmissions and new data are held to
 * pipe < cwnd with lost segments out of pipe; every hole goes out once,
 * nothing SACKed or merely late is resent; one rescue retransmission per
 * recovery; recovery ends at `recover`.
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

/*
 * Three holes.  cwnd 20, segments 0..19 out; 0 and 1 arrive (slow start:
 * cwnd 22, 20..23 go out), 2, 5 and 9 are lost.  Recovery starts at the
 * third SACKed segment above 2 with ssthresh = cwnd = 22 / 2 = 11.
 * Pipe (RFC 6675 SetPipe) = unSACKed - IsLost + retransmitted:
 *
 *   arrives  SACKed  lost       pipe             sent
 *   6        3       2          19 - 1 + 0 = 18  2 (step 4.3, whatever pipe)
 *   7        4       2          18 - 1 + 1 = 18  -
 *   8        5       2, 5       17 - 2 + 1 = 16  -
 *   10, 11   6, 7    2, 5       15, 14           -
 *   12       8       2, 5, 9    14 - 3 + 1 = 12  -
 *   13       9       2, 5, 9    13 - 3 + 1 = 11  -
 *   14       10      2, 5, 9    12 - 3 + 1 = 10  5 (NextSeg rule 1)
 *   15       11      2, 5, 9    11 - 3 + 2 = 10  9 (rule 1)
 *   16       12      2, 5, 9    10 - 3 + 3 = 10  24 (rule 2: new data)
 */
static void holes(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_sack);
	static u8 rcvd[256];
	const struct ph_rec *r;
	u32 seg, n_rtx;

	c.init_cwnd = 20;
	c.rto_cycles = 100000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 100);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, -1), 20, "initial window: 20 segments");

	arrive(ph, rcvd, 0);
	arrive(ph, rcvd, 1);
	is(ph_stats(ph, 0).highest_sent, 24, "slow start: 20..23 sent");
	ph_mark(ph);
	arrive(ph, rcvd, 3);
	arrive(ph, rcvd, 4);
	is(ph_count(ph, 0, 1), 0, "two segments SACKed above hole 2: not lost yet");
	arrive(ph, rcvd, 6);
	is(ph_count(ph, 0, 1), 1, "third SACKed segment above 2: retransmit it");
	ok(ph_seg_sent(ph, 0, 2) == 1, "... segment 2");
	arrive(ph, rcvd, 7);
	arrive(ph, rcvd, 8);
	is(ph_count(ph, 0, 1), 1, "hole 5 is lost, but pipe 16 >= cwnd 11: wait");
	arrive(ph, rcvd, 10);
	arrive(ph, rcvd, 11);
	arrive(ph, rcvd, 12);
	arrive(ph, rcvd, 13);
	is(ph_count(ph, 0, -1), 1, "hole 9 is lost too, pipe 11 >= cwnd 11: nothing sent");
	arrive(ph, rcvd, 14);
	is(ph_count(ph, 0, 1), 2, "pipe 10 < cwnd 11: one retransmission");
	ok(ph_seg_sent(ph, 0, 5) == 1, "... of the first lost hole after HighRxt, 5");
	arrive(ph, rcvd, 15);
	is(ph_count(ph, 0, 1), 3, "pipe 10 again: the next lost hole");
	ok(ph_seg_sent(ph, 0, 9) == 1, "... 9");
	ph_mark(ph);
	arrive(ph, rcvd, 16);
	is(ph_count(ph, 0, -1), 1, "no lost segment left: one new segment (rule 2)");
	r = ph_nth(ph, 0, 0, 0);
	ok(r && r->d.seg == 24, "... segment 24");
	/*
	 * In the order a FIFO path delivers them: the rest of the first
	 * flight (17..23), the retransmissions, then the new data sent after
	 * them.  (New data SACKed before a retransmission would say it was
	 * lost again, sack_lost_rtx(); a flight segment still missing when a
	 * retransmission is, that it was lost.)
	 */
	ph_mark(ph);
	for (seg = 17; seg < 24; seg++)
		arrive(ph, rcvd, seg);
	is(ph_count(ph, 0, 1), 0, "later SACKs retransmit nothing more");
	arrive(ph, rcvd, 2);
	arrive(ph, rcvd, 5);
	is(ph_count(ph, 0, 1), 0, "partial acks for already-resent holes: nothing new");
	arrive(ph, rcvd, 9);
	is(ph_stats(ph, 0).cwnd, 11, "recovery left at recover (24) with cwnd = ssthresh");
	for (; seg < ph_stats(ph, 0).highest_sent && seg < 100; seg++)
		arrive(ph, rcvd, seg);
	is(ph_count(ph, 0, 1), 0, "nor does the new data's");
	n_rtx = ph_stats(ph, 0).segs_rtx;
	is(n_rtx, 3, "each hole resent exactly once, nothing else");
	for (seg = 0; seg < 20; seg++)
		if (seg != 2 && seg != 5 && seg != 9 && ph_seg_sent(ph, 0, seg) > 1)
			ok(0, "segment %u resent spuriously", seg);
	ph_free(ph);
}

/*
 * RFC 6675 5 (C): "If cwnd - pipe >= 1 SMSS, the sender SHOULD transmit one
 * or more segments" -- retransmissions too are held to pipe < cwnd, and
 * (SetPipe) "If IsLost (S1) returns false: pipe += 1": lost segments do
 * not count until retransmitted.
 *
 * cwnd 20, segments 0..19 out, 0..5 lost, 6..19 arrive one by one.  At the
 * third SACK (8) recovery starts: ssthresh = cwnd = 10, segment 0 goes
 * out (step 4.3).  With 0..5 lost and not in pipe:
 *
 *   arrives  SACKed  pipe                    sent
 *   8        3       17 - 6 + 0 (+1 for 0)   0
 *   9        4       16 - 6 + 1 = 11         -
 *   10       5       15 - 6 + 1 = 10         -
 *   11       6       14 - 6 + 1 =  9         1
 *   12..15   7..10   9 each                  2, 3, 4, 5
 *   16       11      9 - 6 + 6 = 9           20 (new data)
 *
 * The old program sent all six at once; counting lost segments in pipe
 * (14 + 1 = 15 at the SACK of 11) would send nothing there.
 */
static void pipe_limits_rtx(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 20, 100);
	static u8 rcvd[256];
	const struct ph_rec *r;
	u32 seg;

	ph_mark(ph);
	arrive(ph, rcvd, 6);
	arrive(ph, rcvd, 7);
	is(ph_count(ph, 0, -1), 0, "two dupacks: nothing sent");
	arrive(ph, rcvd, 8);
	is(ph_count(ph, 0, -1), 1, "recovery: exactly one segment, not the whole hole 0..5");
	r = ph_nth(ph, 0, 1, 0);
	ok(r && r->d.seg == 0, "... the first unacked one, 0");
	is(ph_stats(ph, 0).highest_sent, 20, "no new data");
	arrive(ph, rcvd, 9);
	arrive(ph, rcvd, 10);
	is(ph_count(ph, 0, -1), 1, "pipe 11, then 10, cwnd 10: nothing");
	for (seg = 11; seg <= 15; seg++) {
		arrive(ph, rcvd, seg);
		is(ph_count(ph, 0, 1), seg - 9, "SACK of %u: pipe 9 < 10, one retransmission", seg);
		r = ph_nth(ph, 0, 1, seg - 10);
		ok(r && r->d.seg == seg - 10, "... of segment %u", seg - 10);
	}
	is(ph_count(ph, 0, 0), 0, "no new data while lost segments wait");
	arrive(ph, rcvd, 16);
	is(ph_count(ph, 0, -1), 7, "SACK of 16: the holes are all resent, one new segment");
	r = ph_nth(ph, 0, 0, 0);
	ok(r && r->d.seg == 20, "... segment 20");
	ph_free(ph);
}

/*
 * RFC 6675 NextSeg() (4): "we provide the opportunity for a single
 * 'rescue' retransmission per entry into loss recovery.  If HighACK is
 * greater than RescueRxt (or RescueRxt is undefined), then one segment
 * of up to SMSS octets that MUST include the highest outstanding unSACKed
 * sequence number SHOULD be returned, and RescueRxt set to RecoveryPoint."
 *
 * cwnd 10, segments 0..9 (all the data), 0, 2 and 9 lost.  SACKs of 1, 3
 * and 4 start recovery (ssthresh = cwnd = 5, 0 resent, HighRxt =
 * RescueRxt = 0); the SACK of 6 makes pipe = 5 - 2 + 1 = 4 and resends
 * the lost 2.  9 has nothing SACKed above it: rules (1)-(3) never pick it.
 * The resent 0 arrives: ack 2 (1 held).  HighACK > RescueRxt, pipe 2 < 5,
 * no new data, nothing unSACKed below the highest SACK after HighRxt: the
 * rescue resends 9, one round trip before the ack of 2's retransmission
 * would name it.  It is the only rescue of this recovery.
 */
static void rescue(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_sack);
	static u8 rcvd[256];
	const struct ph_rec *r;

	c.init_cwnd = 10;
	c.rto_cycles = 100000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 10);
	ph_run(ph, SETTLE);
	ph_mark(ph);
	arrive(ph, rcvd, 1);
	arrive(ph, rcvd, 3);
	arrive(ph, rcvd, 4);
	is(ph_count(ph, 0, 1), 1, "recovery: segment 0 resent");
	arrive(ph, rcvd, 5);
	is(ph_count(ph, 0, 1), 1, "SACK of 5: 2 is lost, pipe 5 = cwnd: wait");
	arrive(ph, rcvd, 6);
	is(ph_count(ph, 0, 1), 2, "SACK of 6: pipe 4, 2 resent");
	ok(ph_seg_sent(ph, 0, 2) == 1, "... segment 2");
	arrive(ph, rcvd, 7);
	arrive(ph, rcvd, 8);
	is(ph_count(ph, 0, 1), 2, "9 has no SACK above: rules (1)-(3) never pick it");
	arrive(ph, rcvd, 0);
	is(ph_count(ph, 0, 1), 3, "ack of 2 (HighACK > RescueRxt): rescue retransmission");
	r = ph_nth(ph, 0, 1, 2);
	ok(r && r->d.seg == 9, "... of the highest unSACKed segment, 9");
	ph_ack(ph, 0, 2);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 3, "a second ack: no second rescue");
	arrive(ph, rcvd, 2);
	is(ph_stats(ph, 0).wnd_start, 9, "2 arrives: everything up to 9 acked");
	arrive(ph, rcvd, 9);
	is(ph_stats(ph, 0).wnd_start, 10, "the rescued 9 completes the transfer");
	is(ph_stats(ph, 0).timeouts, 0, "no RTO");
	ph_free(ph);
}

/*
 * @n segments through a SACK receiver 500 cycles away that drops the
 * transmissions listed in @drop (segment, how many of its transmissions;
 * a 0 count ends the list), over a window of @wnd_bits: delivered with
 * exactly @rtx retransmissions, no RTO and nothing resent spuriously.
 * Returns the final cwnd.
 */
static u32 end_to_end(const char *what, u32 wnd_bits, u32 n, const u32 drop[][2], u32 rtx)
{
	struct ph *ph = ph_new(wnd_bits);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_sack);
	struct tonic_flow_stats st;
	u32 i;

	c.init_cwnd = 10;
	c.rto_cycles = 1000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, n);
	ph_net(ph, 0, PH_RX_SACK, 500);
	for (i = 0; drop[i][1]; i++)
		ph->rx[0].drop[drop[i][0]] = drop[i][1];
	ok(ph_net_run(ph, 0, n, 5000000), "%s: %u segments delivered", what, n);
	st = ph_stats(ph, 0);
	is(st.segs_rtx, rtx, "%s: %u retransmissions", what, rtx);
	is(st.timeouts, 0, "%s: no RTO", what);
	is(ph->rx[0].dup, 0, "%s: no spurious retransmission at the receiver", what);
	ph_free(ph);
	return st.cwnd;
}

static const u32 six_losses[][2] = {
	{ 40, 1 }, { 41, 1 }, { 45, 1 }, { 52, 1 }, { 60, 1 }, { 200, 1 }, { 0, 0 }
};

/*
 * The soft device's window (TONIC_WND_MAX bits): slow start takes the
 * flight past a thousand segments before these losses.
 */
static const u32 big_losses[][2] = {
	{ 2500, 1 }, { 2501, 1 }, { 2900, 1 }, { 3300, 1 }, { 3301, 1 }, { 3999, 1 }, { 0, 0 }
};

/* A lost last segment (nothing can be SACKed above it) is repaired without an RTO. */
static const u32 tail_lost[][2] = { { 90, 1 }, { 99, 1 }, { 0, 0 } };

/*
 * A retransmission lost again is found by RACK's rule (RFC 8985 6.2: a
 * segment is lost once one sent after it is delivered), not by the RTO:
 * at 5 % loss one recovery in a few loses a retransmission, and an RTO
 * each time was most of the offload's time in the guest.  40 and 46 are
 * resent twice, 45 once.
 */
static const u32 rtx_lost[][2] = { { 40, 2 }, { 45, 1 }, { 46, 2 }, { 0, 0 } };

/*
 * RFC 5827 early retransmit: three segments out, nothing more to send, the
 * first lost.  Three can never be SACKed above it; ER_thresh = oldSeg - 1
 * = 2 are enough.  Without it every loss in a window this small waited for
 * the RTO: at 5 % loss in the guest the window never grew past 4.
 */
static void early_retransmit(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 10, 3);

	ph_mark(ph);
	ph_sack(ph, 0, 0, 1, 2);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 0, "one segment SACKed above the hole: wait");
	ph_sack(ph, 0, 0, 1, 3);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 1, "both others SACKed, nothing else to send: resend 0");
	ok(ph_seg_sent(ph, 0, 0) == 1, "... segment 0");
	is(ph_stats(ph, 0).timeouts, 0, "no RTO");
	ph_ack(ph, 0, 3);
	ph_run(ph, SETTLE);
	is(ph_stats(ph, 0).wnd_start, 3, "all acked");
	ph_free(ph);

	/* More to send, but the window is full: "not permitted to send" (3.1). */
	ph = ph_tcp_flow(&tonic_prog_sack, 3, 100);
	is(ph_stats(ph, 0).highest_sent, 3, "cwnd 3: 3 segments out");
	ph_mark(ph);
	ph_sack(ph, 0, 0, 1, 3);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 1, "cwnd-limited: resend 0 too");
	/*
	 * IsLost counts ER_thresh as well: 0 is out of pipe, so with ssthresh
	 * 2 one new segment follows -- whose SACK, if the retransmission is
	 * lost too, says so (sack_lost_rtx()), where nothing else would but
	 * the RTO (seen in the guest at 5 % loss).
	 */
	is(ph_count(ph, 0, 0), 1, "... and one new segment after it");
	ph_free(ph);
}

/*
 * An ACK of everything below @cum with an RTT sample of @rtt_us (10 ns
 * cycles), and SACK block [@s, @e) unless it is empty.
 */
static void sack_rtt(struct ph *ph, u32 cum, u32 s, u32 e, u32 rtt_us)
{
	struct tonic_pkt p = { .type = TONIC_PKT_ACK, .cum_ack = cum, .nsack = s < e,
			       .rtt = rtt_us * 100 };

	p.sack[0].start = s;
	p.sack[0].end = e;
	ph_in(ph, 0, &p);
	ph_run(ph, SETTLE);
}

static void ack_rtt(struct ph *ph, u32 cum, u32 rtt_us)
{
	sack_rtt(ph, cum, 0, 0, rtt_us);
}

/*
 * 0..5 acked (RTT 1 ms, ACKs every two segments), 6..9 out and nothing
 * left to send: an ACK is due within a round trip.  RFC 8985's probe
 * timeout, PTO = 2 SRTT + 10 ms = 12 ms, comes long before the RTO (1 s
 * here, Linux's floor 200 ms) and sends one probe, the last segment
 * (7.3: no new data to send), without touching the window.
 */
static struct ph *probed_flow(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 10, 10);
	u32 seg;

	for (seg = 2; seg <= 6; seg += 2)
		ack_rtt(ph, seg, 1000);
	ph_mark(ph);
	ph_run(ph, 1150000);
	is(ph_count(ph, 0, 1), 0, "11.5 ms after the last ACK: nothing yet");
	ph_run(ph, 100000);
	is(ph_count(ph, 0, 1), 1, "by 12.5 ms (PTO 12 ms): one probe ...");
	ok(ph_seg_sent(ph, 0, 9) == 1, "... the last segment, 9");
	is(ph_stats(ph, 0).timeouts, 1, "one expiry of the timer, the probe's");
	return ph;
}

/*
 * The tail was lost: the probe is SACKed with 6..8 missing below it, all
 * sent before it -- lost (RACK's rule: RFC 8985 6.2).  Recovery resends
 * 6, and each partial ACK the next hole below RecoveryPoint.
 */
static void tail_loss_probe(void)
{
	struct ph *ph = probed_flow();
	u32 seg, cwnd = ph_stats(ph, 0).cwnd;

	ph_mark(ph);
	ph_sack(ph, 0, 6, 9, 10);
	ph_run(ph, SETTLE);
	ok(ph_seg_sent(ph, 0, 6) == 1, "the probe SACKed above 6..8: recovery resends 6");
	for (seg = 7; seg <= 10; seg++) {
		ack_rtt(ph, seg, 1000);
		if (seg < 9)
			ok(ph_seg_sent(ph, 0, seg) == 1, "by the ACK of %u, %u was resent", seg, seg);
	}
	is(ph_stats(ph, 0).cwnd, cwnd / 2, "the window cut as for a loss: ssthresh = cwnd %u / 2", cwnd);
	is(ph_stats(ph, 0).segs_rtx, 4, "the probe and each lost segment, once");
	is(ph_stats(ph, 0).timeouts, 1, "no RTO");
	ph_free(ph);
}

/*
 * Nothing was lost, the ACKs were late (a queue filled up behind the
 * flow): the originals are acked in order after the probe.  No recovery,
 * no cut, nothing else resent.  Entering recovery at the probe timeout
 * instead (as this code once did) made every late segment a "lost" one:
 * here 6, 7 and 8 resent and the window cut to 2.
 */
static void late_acks_probe(void)
{
	struct ph *ph = probed_flow();
	u32 cwnd = ph_stats(ph, 0).cwnd, seg;

	ph_mark(ph);
	for (seg = 7; seg <= 10; seg++)
		ack_rtt(ph, seg, 20000);
	is(ph_count(ph, 0, 1), 0, "late ACKs of the originals: nothing resent");
	ok(ph_stats(ph, 0).cwnd >= cwnd, "no cut (cwnd %u, %u before)", ph_stats(ph, 0).cwnd, cwnd);
	is(ph_stats(ph, 0).segs_rtx, 1, "the probe alone");
	ph_free(ph);
}

/*
 * In recovery one newer segment SACKed is enough to call a retransmission
 * lost, as Linux's RACK does there (tcp_rack_reo_wnd(): no reordering
 * window in recovery until reordering was seen).  Four out, 1..3 SACKed:
 * 0 is resent and new segment 4 goes out after it; 4 is SACKed, 0 not.
 * Seen in the guest at 5 % loss: a window of three, the retransmission
 * lost, one newer segment SACKed, and an RTO.
 */
static void lost_rtx_small_window(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 4, 100);

	ph_sack(ph, 0, 0, 1, 4);
	ph_run(ph, SETTLE);
	ok(ph_seg_sent(ph, 0, 0) == 2, "three SACKed above 0: resent");
	is(ph_stats(ph, 0).highest_sent, 5, "... and new segment 4 after it");
	ph_mark(ph);
	ph_sack(ph, 0, 0, 1, 5);
	ph_run(ph, SETTLE);
	ok(ph_seg_sent(ph, 0, 0) == 1, "4 SACKed, 0 still missing: its retransmission was lost, resent");
	is(ph_stats(ph, 0).timeouts, 0, "no RTO");
	ph_free(ph);
}

/*
 * Reordering, nothing lost: 0..3 of a window of 30 come 1 ms late (the
 * guest's lossless veth path reorders kernel TCP's segments too).  4..12
 * SACKed start a recovery that resends 0; then the late originals arrive.
 * The ACK that covers 0 echoes the original's timestamp -- an RTT sample
 * of 6 ms, 1 ms after the retransmission went out -- so it says nothing
 * about 13..29, still in flight: none of them may be called lost (RFC
 * 3522's test, RACK's tcp_rack_advance()).  Taking every ACK over a
 * resent hole for the retransmission's made the guest's fq path (test
 * 57) resend a whole window, all of it D-SACKed, and sit at cwnd 2.
 */
static void reordered(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 30, 100);
	u32 seg;

	ph_run(ph, 500000);	/* 5 ms */
	for (seg = 6; seg <= 13; seg++)
		sack_rtt(ph, 0, 4, seg, 5000);
	ok(ph_seg_sent(ph, 0, 0) == 2, "4..12 SACKed above 0..3: recovery resends 0");
	ph_run(ph, 100000);
	ph_mark(ph);
	ack_rtt(ph, 13, 6000);
	is(ph_count(ph, 0, 1), 0, "the late originals acked: 13..29, in flight, not resent");
	/*
	 * And the recovery was for nothing, its one retransmission acked:
	 * undone (Linux's tcp_try_undo_partial()), the window back to the 30
	 * it cut, so 13 new segments join the 17 still out.
	 */
	is(ph_stats(ph, 0).cwnd, 30, "recovery undone: cwnd 30 again");
	is(ph_count(ph, 0, 0), 13, "... 13 new segments out");
	ph_mark(ph);
	for (seg = 14; seg <= 43; seg++)
		ack_rtt(ph, seg, 5000);
	is(ph_count(ph, 0, 1), 0, "the rest acked in order: nothing resent");
	/* The recovery began in slow start; the undo resumes it (Linux's prior_ssthresh). */
	is(ph_stats(ph, 0).cwnd, 60, "slow start again: 30 acked, cwnd 60");
	ph_free(ph);
}

/* An ACK of @cum whose first block is the D-SACK [s, e) (RFC 2883). */
static void dsack(struct ph *ph, u32 cum, u32 s, u32 e)
{
	struct tonic_pkt p = { .type = TONIC_PKT_ACK, .cum_ack = cum, .nsack = 1,
			       .flags = TONIC_PKT_F_DSACK };

	p.sack[0].start = s;
	p.sack[0].end = e;
	ph_in(ph, 0, &p);
	ph_run(ph, SETTLE);
}

/*
 * The recovery of reordered(), where the late originals' echo cannot be
 * told from the retransmission's (a path of 1 ms, timestamps of 1 ms):
 * the partial-ACK rule resends 13..29 too, still in flight.  Each resend
 * arrives after its original and the receiver says so with a D-SACK
 * (RFC 2883).  Once every retransmission of the recovery is reported
 * (Linux's undo_retrans at 0), nothing was lost: the window goes back to
 * the 30 it cut, and the path counts as reordering -- three SACKs above
 * a later hole wait for the reordering window (reorder_dupthresh()).  A
 * D-SACK does not enter the scoreboard; one of a segment outside that
 * recovery, or one recovery with a real loss, undoes nothing.  Without
 * this, test 64's 1 ms path resent up to a third of its bytes in four
 * runs of ten.
 */
static u32 spurious_recovery(struct ph *ph, u32 *rtx, bool ece_at_end)
{
	struct tonic_pkt last = { .type = TONIC_PKT_ACK, .cum_ack = 30, .rtt = 100000,
				  .flags = TONIC_PKT_F_ECE };
	u32 seg, n, k;

	ph_run(ph, 500000);
	ph_mark(ph);
	for (seg = 6; seg <= 13; seg++)
		sack_rtt(ph, 0, 4, seg, 5000);
	ph_run(ph, 100000);
	for (seg = 13; seg < 30; seg++)
		ack_rtt(ph, seg, 1000);
	if (ece_at_end) {
		ph_in(ph, 0, &last);
		ph_run(ph, SETTLE);
	} else {
		ack_rtt(ph, 30, 1000);
	}
	n = ph_count(ph, 0, 1);
	for (k = 0; k < n && k < 64; k++)
		rtx[k] = ph_nth(ph, 0, 1, k)->d.seg;
	return n;
}

static void dsack_undo(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 30, 200);
	u32 rtx[64], n, k, cut, ws;

	n = spurious_recovery(ph, rtx, false);
	cut = ph_stats(ph, 0).cwnd;
	ok(n > 10 && cut < 30, "a recovery on reordering: %u resent, cwnd cut to %u", n, cut);
	ws = ph_stats(ph, 0).wnd_start;
	dsack(ph, ws, ws + 1, ws + 2);
	is(ph_stats(ph, 0).wnd_start, ws, "a D-SACK above the ack is not a SACK: nothing acked");
	for (k = 0; k + 1 < n; k++)
		dsack(ph, 30, rtx[k], rtx[k] + 1);
	ok(ph_stats(ph, 0).cwnd < 30,
	   "all but one retransmission D-SACKed, and a segment never resent: still cut (%u)",
	   ph_stats(ph, 0).cwnd);
	dsack(ph, 30, rtx[n - 1], rtx[n - 1] + 1);
	ok(ph_stats(ph, 0).cwnd >= 30, "every one D-SACKed: undone, cwnd %u >= 30",
	   ph_stats(ph, 0).cwnd);
	ws = ph_stats(ph, 0).wnd_start;
	ph_mark(ph);
	sack_rtt(ph, ws, ws + 1, ws + 5, 0);
	is(ph_count(ph, 0, 1), 0, "then 4 SACKed above a hole: the reordering window, no resend");
	ph_free(ph);
}

/*
 * Three ACKs that only report duplicates (a resend or the network's copy
 * arrived twice) are no duplicate ACKs in RFC 6675's sense, which SACK
 * something new: no recovery.  Counted as such, each spurious recovery's
 * D-SACKs started the next one (the guest's 1 ms path: hundreds of
 * resends, one per ACK).
 */
static void dsack_not_dupack(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 10, 20);
	u32 i, ssthresh;

	ack_rtt(ph, 2, 1000);
	ssthresh = ph_stats(ph, 0).prog_info[0];
	ph_mark(ph);
	for (i = 0; i < 3; i++)
		dsack(ph, 2, 1, 2);
	is(ph_count(ph, 0, 1), 0, "three D-SACK-only ACKs: nothing resent");
	is(ph_stats(ph, 0).prog_info[0], ssthresh, "... and ssthresh not cut (%u)", ssthresh);
	ph_free(ph);
}

/* The same recovery, but 13 was lost: its resend is never D-SACKed. */
static void dsack_real_loss(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 30, 200);
	u32 rtx[64], n, k, cut;

	n = spurious_recovery(ph, rtx, false);
	cut = ph_stats(ph, 0).cwnd;
	for (k = 0; k < n; k++)
		if (rtx[k] != 13)
			dsack(ph, 30, rtx[k], rtx[k] + 1);
	is(ph_stats(ph, 0).cwnd, cut, "all D-SACKed but a real loss: the window stays cut");
	ph_free(ph);
}

/*
 * What must not undo a recovery.  An ECE between the last D-SACKs: its
 * cut stands (Linux's tcp_enter_cwr() clears undo_marker).  A tail loss
 * probe's original arriving too: the probe was a retransmission of the
 * recovery its SACK started, and its D-SACK answers for it, not for the
 * hole's real resend.  A copy the network made of a segment never
 * resent (Linux counts only TCPCB_RETRANS segments above the ack).
 */
static void dsack_ecn(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 30, 200);
	struct tonic_pkt ece = { .type = TONIC_PKT_ACK, .flags = TONIC_PKT_F_ECE };
	u32 rtx[64], n, k, cut;

	n = spurious_recovery(ph, rtx, false);
	for (k = 0; k + 1 < n; k++)
		dsack(ph, 30, rtx[k], rtx[k] + 1);
	ece.cum_ack = 31;
	ph_in(ph, 0, &ece);
	ph_run(ph, SETTLE);
	cut = ph_stats(ph, 0).cwnd;
	dsack(ph, 31, rtx[n - 1], rtx[n - 1] + 1);
	ok(ph_stats(ph, 0).cwnd <= cut, "an ECE before the last D-SACK: its cut stands (%u, %u)",
	   ph_stats(ph, 0).cwnd, cut);
	ph_free(ph);

	/* The ECE on the ACK that ends the recovery (Linux: tcp_try_to_open()). */
	ph = ph_tcp_flow(&tonic_prog_sack, 30, 200);
	n = spurious_recovery(ph, rtx, true);
	cut = ph_stats(ph, 0).prog_info[0];
	ok(cut < 15, "an ECE on the ACK that ends the recovery cuts again: ssthresh %u", cut);
	for (k = 0; k < n; k++)
		dsack(ph, 30, rtx[k], rtx[k] + 1);
	is(ph_stats(ph, 0).prog_info[0], cut, "... and no D-SACK undoes that cut");
	ph_free(ph);
}

static void dsack_probe(void)
{
	struct ph *ph = probed_flow();
	u32 ssthresh;

	ph_sack(ph, 0, 6, 9, 10);
	ph_run(ph, SETTLE);
	ok(ph_seg_sent(ph, 0, 6) == 1, "the probe (9) SACKed above 6..8: 6 resent");
	ssthresh = ph_stats(ph, 0).prog_info[0];
	dsack(ph, 6, 9, 10);
	is(ph_stats(ph, 0).prog_info[0], ssthresh,
	   "9 arrived twice (original and probe): the recovery stands (ssthresh %u)", ssthresh);
	ph_free(ph);
}

/*
 * A real loss: 2 lost, 3..5 SACKed, 2 resent once and never D-SACKed; the
 * recovery ends.  Later a tail loss probe goes out and its original
 * arrives too: the probe's D-SACK answers for the probe, not for 2's
 * resend (Linux counts every retransmission, probes too, in
 * undo_retrans).  Counted for 2, one spurious probe undid the recovery.
 */
static void dsack_probe_after_recovery(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 10, 20);
	u32 ssthresh, cwnd, hs;

	ack_rtt(ph, 2, 1000);
	sack_rtt(ph, 2, 3, 4, 1000);
	sack_rtt(ph, 2, 3, 5, 1000);
	sack_rtt(ph, 2, 3, 6, 1000);
	ok(ph_seg_sent(ph, 0, 2) == 2, "2 lost, 3..5 SACKed: 2 resent");
	ack_rtt(ph, ph_stats(ph, 0).highest_sent, 1000);
	ack_rtt(ph, 18, 1000);
	hs = ph_stats(ph, 0).highest_sent;
	ssthresh = ph_stats(ph, 0).prog_info[0];
	cwnd = ph_stats(ph, 0).cwnd;
	ph_mark(ph);
	ph_run(ph, 1500000);
	ok(ph_count(ph, 0, 1) == 1 && ph_seg_sent(ph, 0, hs - 1) == 1,
	   "recovery over, the tail unacked: a probe of %u", hs - 1);
	ack_rtt(ph, hs, 15000);
	dsack(ph, hs, hs - 1, hs);
	is(ph_stats(ph, 0).prog_info[0], ssthresh,
	   "the probe's D-SACK: the recovery of a real loss stands (ssthresh %u)", ssthresh);
	ok(ph_stats(ph, 0).cwnd <= cwnd + 2, "... and its window (%u, was %u)",
	   ph_stats(ph, 0).cwnd, cwnd);
	ph_free(ph);
}

static void dsack_network_copy(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 10, 20);
	struct tonic_pkt p = { .type = TONIC_PKT_ACK, .cum_ack = 0, .nsack = 2,
			       .flags = TONIC_PKT_F_DSACK };
	u32 ssthresh;

	ph_sack(ph, 0, 0, 1, 4);
	ph_run(ph, SETTLE);
	ok(ph_seg_sent(ph, 0, 0) == 2, "0 lost, 1..3 SACKed: 0 resent");
	ssthresh = ph_stats(ph, 0).prog_info[0];
	p.sack[0] = (struct tonic_sack){ 2, 3 };
	p.sack[1] = (struct tonic_sack){ 1, 4 };
	ph_mark(ph);
	ph_in(ph, 0, &p);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 0, "a copy of 2, never resent, D-SACKed: nothing resent again");
	is(ph_stats(ph, 0).prog_info[0], ssthresh, "... the recovery stands (ssthresh %u)",
	   ssthresh);
	ph_free(ph);
}

/*
 * A loss in the window an ECE already cut (RFC 3168 6.1.2: "at most once
 * per window", which is about the cut, not the repair).  Window of 10,
 * 0 acked with ECE: ssthresh = cwnd = 10 / 2 = 5, `recover` the
 * highest segment sent.  Then 1 is lost and 2..4 are SACKed: resent at
 * once, and the window is not cut a second time -- Linux's CWR state
 * enters recovery without a new ssthresh (tcp_enter_recovery() in a cwnd
 * reduction).  Taken for the echo of a loss an RTO had handled, the hole
 * waited 200 ms for the timer.
 */
static void loss_after_ecn_cut(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 10, 100);
	struct tonic_pkt ece = { .type = TONIC_PKT_ACK, .cum_ack = 1, .flags = TONIC_PKT_F_ECE };
	u32 cut;

	ph_in(ph, 0, &ece);
	ph_run(ph, SETTLE);
	cut = ph_stats(ph, 0).cwnd;
	is(cut, 5, "ECE: cwnd 10 -> 10 / 2 = 5");
	ph_mark(ph);
	ph_sack(ph, 0, 1, 2, 3);
	ph_sack(ph, 0, 1, 2, 4);
	ph_sack(ph, 0, 1, 2, 5);
	ph_run(ph, SETTLE);
	ok(ph_seg_sent(ph, 0, 1) == 1, "3 SACKed above 1 in the cut window: 1 resent at once");
	is(ph_stats(ph, 0).prog_info[0], cut, "... and ssthresh not cut again");
	ph_ack(ph, 0, ph_stats(ph, 0).highest_sent);
	ph_run(ph, SETTLE);
	is(ph_stats(ph, 0).cwnd, cut, "recovery over: cwnd = the ECE's ssthresh %u", cut);
	ph_free(ph);
}

/*
 * 0..5 acked, 6..9 out, nothing left to send; 6 and 7 went in one GSO
 * skb that a qdisc dropped whole, and 8 too: only 9 arrives, SACKed.  One
 * SACK is short of DupThresh and of early retransmit's two, and no
 * further ACK will come.  The probe timeout would resend the last segment,
 * 9 -- SACKed, so nothing goes out and the hole waits for the RTO (seen
 * in the guest: ECN marks with 1 % loss, 3 to 10 RTOs per 4 MB where
 * kernel TCP had none).  A segment SACKed above the hole was sent after
 * it: RACK's rule (RFC 8985 6.2) calls the hole lost, and with its
 * reordering window long past (PTO > 10 ms) recovery starts there.
 */
static void probe_sacked_tail(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 10, 10);
	u32 seg;

	for (seg = 2; seg <= 6; seg += 2)
		ack_rtt(ph, seg, 1000);
	sack_rtt(ph, 6, 9, 10, 1000);
	ph_mark(ph);
	ph_run(ph, 1250000);
	ok(ph_seg_sent(ph, 0, 6) == 1, "by the probe timeout (12 ms): 9 SACKed above 6..8, 6 resent");
	is(ph_seg_sent(ph, 0, 9), 0, "... not 9, which arrived");
	for (seg = 7; seg <= 8; seg++) {
		sack_rtt(ph, seg, 9, 10, 1000);
		ok(ph_seg_sent(ph, 0, seg) == 1, "by the ACK of %u, %u was resent", seg, seg);
	}
	ack_rtt(ph, 10, 1000);
	is(ph_stats(ph, 0).segs_rtx, 3, "6, 7 and 8 once each");
	is(ph_stats(ph, 0).timeouts, 1, "no RTO: the one expiry was the probe timer's");
	ph_free(ph);
}

/*
 * RACK's reordering timer (RFC 8985 6.2, 6.3).  The flight of
 * probe_sacked_tail(): 9 SACKed above 6..8, no other ACK to come.  9 was
 * sent after 6..8 and has arrived, so they are lost once a reordering
 * window has passed since then -- a quarter of SRTT, 250 us, plus the
 * 2 ms Linux adds to the timer -- not a probe timeout (12 ms).  In the
 * guest at 5 % loss the probe timer fired 44-62 times per 16 MB, 0.43-0.66 s
 * idle, where kernel cubic sent 1-12 probes.  Once the path was seen to
 * reorder -- an undo, or a hole filled by its original while the timer
 * ran -- the window is SRTT, as Linux widens it up to SRTT.
 */
enum { REO_PLAIN, REO_UNDO, REO_FILLED };

static void reorder_window(int mode, u32 wnd_us, const char *what)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 10, mode == REO_PLAIN ? 10 : 30);
	u32 seg, hole = 10;

	if (mode == REO_UNDO) {
		/*
		 * 0..3 reordered past 4..6: a recovery, undone by the late
		 * originals, whose echo is 5 ms old, 2 ms after the resend
		 * (SRTT 1.5 ms then); the ACKs after it carry no sample.
		 */
		sack_rtt(ph, 0, 4, 7, 1000);
		ok(ph_seg_sent(ph, 0, 0) == 2, "%s: 4..6 SACKed above 0: recovery resends 0", what);
		ph_run(ph, 200000);
		ack_rtt(ph, 7, 5000);
		is(ph_stats(ph, 0).cwnd, 10, "%s: the late originals acked: undone, cwnd 10", what);
		for (seg = 8; seg <= 10; seg++)
			ack_rtt(ph, seg, 0);
	} else if (mode == REO_FILLED) {
		/* 1 SACKed above 0, then 0 arrives 1 ms late: no recovery. */
		sack_rtt(ph, 0, 1, 2, 1000);
		ph_run(ph, 100000);
		ph_mark(ph);
		ack_rtt(ph, 2, 0);
		is(ph_count(ph, 0, 1), 0, "%s: 0 arrived within the window: nothing resent", what);
		for (seg = 4; seg <= 10; seg += 2)
			ack_rtt(ph, seg, 0);
	} else {
		for (seg = 2; seg <= 6; seg += 2)
			ack_rtt(ph, seg, 1000);
		hole = 6;
	}
	sack_rtt(ph, hole, hole + 3, hole + 4, 0);
	ph_mark(ph);
	ph_run(ph, wnd_us * 100 - 5000);
	is(ph_seg_sent(ph, 0, hole), 0, "%s: 50 us before the window ends, %u not resent", what,
	   hole);
	ph_run(ph, 10000);
	ok(ph_seg_sent(ph, 0, hole) == 1, "%s: 50 us after, %u resent", what, hole);
	is(ph_stats(ph, 0).timeouts, 1, "%s: one expiry, the reordering timer's", what);
	ph_free(ph);
}

/*
 * After an RTO the holes below its point are go-back-N's to resend: no
 * reordering timer runs for them (its expiry could start no recovery),
 * and their filling says nothing of reordering -- taken for it, every RTO
 * with data SACKed above the hole widened the window for the next 15
 * recoveries.
 */
static void reorder_after_rto(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 10, 40);
	u64 to;
	u32 hs, ws;

	sack_rtt(ph, 1, 0, 0, 1000);
	ph_run(ph, 110000000);	/* a probe at 12 ms, the RTO 1 s later */
	to = ph_stats(ph, 0).timeouts;
	ok(to >= 1 && ph_stats(ph, 0).cwnd == 1, "an RTO: cwnd 1 (%llu expiries)",
	   (unsigned long long)to);
	hs = ph_stats(ph, 0).highest_sent;
	sack_rtt(ph, 2, 5, hs, 0);
	ph_run(ph, 300000);
	is(ph_stats(ph, 0).timeouts, to, "SACKed above the RTO's holes: no timer expiry in 3 ms");
	ack_rtt(ph, hs, 0);
	ws = ph_stats(ph, 0).wnd_start;
	ok(ph_stats(ph, 0).highest_sent >= ws + 3, "all acked, new data out from %u", ws);
	sack_rtt(ph, ws, ws + 2, ws + 3, 0);
	ph_mark(ph);
	ph_run(ph, 224800 - 5000);
	is(ph_seg_sent(ph, 0, ws), 0, "a new hole: 50 us before SRTT/4 + 2 ms, not resent");
	ph_run(ph, 10000);
	ok(ph_seg_sent(ph, 0, ws) == 1, "50 us after, resent: the window was not widened");
	ph_free(ph);
}

/*
 * A path seen to reorder: DupThresh SACKs above a hole no longer start a
 * recovery at once; the reordering window does (RACK with reordering
 * seen: Linux's tcp_rack_reo_wnd() is 0 only until then).  On a path that
 * delays some segments by a millisecond, three or more overtook each
 * delayed one at a gigabit; each such hole started a recovery that the
 * 1 ms timestamps could not undo, and its partial-ACK rule resent the
 * whole flight (test 64: 9-33 % of the bytes in four runs of ten).  The
 * flight of reorder_window(REO_FILLED): SRTT 992 us, the window 2992 us.
 */
static void reorder_dupthresh(bool late_fill)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 10, 30);
	const char *what = late_fill ? "reordered" : "lost";
	u32 seg, cwnd;

	sack_rtt(ph, 0, 1, 2, 1000);
	ph_run(ph, 100000);
	ack_rtt(ph, 2, 0);
	for (seg = 4; seg <= 10; seg += 2)
		ack_rtt(ph, seg, 0);
	cwnd = ph_stats(ph, 0).cwnd;
	ph_mark(ph);
	sack_rtt(ph, 10, 11, 15, 0);
	is(ph_count(ph, 0, 1), 0, "%s: 4 SACKed above 10 on a reordering path: not resent yet",
	   what);
	ph_run(ph, 299200 - 5000);
	is(ph_seg_sent(ph, 0, 10), 0, "%s: 50 us before the window ends, 10 not resent", what);
	if (late_fill) {
		ack_rtt(ph, 15, 0);
		ph_run(ph, 500000);
		is(ph_count(ph, 0, 1), 0, "%s: 10 came 3 ms late: nothing resent", what);
		ok(ph_stats(ph, 0).cwnd >= cwnd, "%s: ... and the window not cut (%u, was %u)",
		   what, ph_stats(ph, 0).cwnd, cwnd);
	} else {
		ph_run(ph, 10000);
		ok(ph_seg_sent(ph, 0, 10) == 1, "%s: 50 us after, 10 resent", what);
		is(ph_count(ph, 0, 1), 1, "%s: ... and only 10", what);
	}
	ph_free(ph);
}

static void reorder_timer(void)
{
	reorder_window(REO_PLAIN, 2248, "a SACK above a hole, SRTT 992 us");
	reorder_window(REO_UNDO, 3488, "after an undo, SRTT 1488 us");
	reorder_window(REO_FILLED, 2992, "after a hole filled late, SRTT 992 us");
	reorder_after_rto();
	reorder_dupthresh(true);
	reorder_dupthresh(false);
}

/*
 * An ACK of everything out releases the next flight: the probe timer must
 * be armed for it, as Linux arms it after sending (tcp_schedule_loss_probe()
 * from tcp_write_xmit()).  Armed only for what was out when the ACK came
 * -- nothing -- a flight lost whole (one GSO skb dropped by a qdisc) waited
 * for the RTO: the rest of the guest's RTOs under marks and 1 % drops.
 */
static void probe_after_full_ack(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 4, 8);

	ph_mark(ph);
	ack_rtt(ph, 4, 1000);
	is(ph_count(ph, 0, 0), 4, "0..3 acked: 4..7 go out, nothing left");
	ph_mark(ph);
	ph_run(ph, 1250000);
	is(ph_count(ph, 0, 1), 1, "all of them lost: a probe by the PTO (12 ms) ...");
	ok(ph_seg_sent(ph, 0, 7) == 1, "... the last segment, 7");
	ph_free(ph);
}

/*
 * The first flight lost whole: no ACK, so no RTT sample of the flow's own.
 * Linux has the handshake's (tcp_synack_rtt_meas()) and, with a peer that
 * SACKs, probes at 2 SRTT + its floor.  A flow given that RTT (init_rtt_us,
 * 1 ms) probes by the PTO (12 ms), one without waits for the RTO (1 s); so
 * does cubic unless the handshake said the peer SACKs (TONIC_FLOW_SACK),
 * and a lone segment (its ACK may be delayed: the RTO stands, from when
 * it left).
 */
static void first_flight(const struct tonic_prog_ops *prog, u32 rtt_us, u32 flags, u32 segs,
			 u32 probes, const char *what)
{
	struct tonic_flow_cfg c = ph_cfg(prog);
	struct ph *ph = ph_new(128);

	c.init_cwnd = 4;
	c.rto_cycles = 100000000;
	c.init_rtt_us = rtt_us;
	c.flags = flags;
	ph_add(ph, 0, &c);
	is(ph_stats(ph, 0).prog_info[1],
	   prog == &tonic_prog_sack || (flags & TONIC_FLOW_SACK) ? rtt_us / 16 * 16 : 0,
	   "srtt_us shown: the handshake's with SACK recovery, else 0");
	ph_push(ph, 0, segs);
	ph_run(ph, 2000);
	ph_mark(ph);
	ph_run(ph, 1250000);
	is(ph_count(ph, 0, 1), probes, what);
	if (probes)
		ok(ph_seg_sent(ph, 0, segs - 1) == 1, "... the last segment");
	ph_run(ph, 100000000 - 1250000 - 2000 - 1000);
	is(ph_count(ph, 0, 1), probes, "... nothing more before the RTO");
	ph_run(ph, 2000);
	is(ph_count(ph, 0, 1), probes ? probes : 1, "... then the RTO's, if no probe went");
	ph_free(ph);
}

static void probe_first_flight(void)
{
	first_flight(&tonic_prog_sack, 1000, 0, 4, 1,
		     "sack, handshake RTT 1 ms, 0..3 lost: a probe by 12.5 ms");
	first_flight(&tonic_prog_sack, 0, 0, 4, 0, "sack, no RTT known: nothing by 12.5 ms");
	first_flight(&tonic_prog_sack, 1000, 0, 1, 0, "sack, one segment out: nothing by 12.5 ms");
	first_flight(&tonic_prog_cubic, 1000, TONIC_FLOW_SACK, 4, 1,
		     "cubic, RTT 1 ms, the peer SACKs: a probe by 12.5 ms");
	first_flight(&tonic_prog_cubic, 1000, 0, 4, 0,
		     "cubic, RTT 1 ms, no SACK (Linux probes only with SACK): nothing");
}

/*
 * A retransmission lost again, with only other retransmissions after it.
 * 0..3 of ten lost, 4..9 SACKed: recovery resends 0, 1, 2, 3 in that
 * order.  0's retransmission is lost too; 1's arrives, and the receiver
 * puts the block holding it first (RFC 2018).  1 was resent after 0, so
 * 0's resend was lost (RACK's rule, RFC 8985 6.2, which compares
 * transmission times, retransmissions included): 0 goes again at once.
 * Only new data sent after the last retransmission counted before, and
 * there was none: 0 waited for the RTO (the rest of test 56's RTOs).
 */
static void two_blocks(struct ph *ph, u32 cum, u32 s0, u32 e0, u32 s1, u32 e1)
{
	struct tonic_pkt p = { .type = TONIC_PKT_ACK, .cum_ack = cum, .nsack = 2 };

	p.sack[0].start = s0;
	p.sack[0].end = e0;
	p.sack[1].start = s1;
	p.sack[1].end = e1;
	ph_in(ph, 0, &p);
	ph_run(ph, SETTLE);
}

static void rtx_overtaken(void)
{
	struct ph *ph = ph_tcp_flow(&tonic_prog_sack, 10, 10);

	ph_sack(ph, 0, 0, 4, 10);
	ph_run(ph, SETTLE);
	ok(ph_seg_sent(ph, 0, 0) == 2 && ph_seg_sent(ph, 0, 3) == 2, "0..3 lost: all resent");
	ph_mark(ph);
	two_blocks(ph, 0, 1, 2, 4, 10);
	ok(ph_seg_sent(ph, 0, 0) == 1, "1's retransmission SACKed, 0 still missing: 0 resent");
	is(ph_count(ph, 0, 1), 1, "... and nothing else");
	ph_mark(ph);
	two_blocks(ph, 0, 1, 3, 4, 10);
	is(ph_count(ph, 0, 1), 0, "2's arrives too: 0's second resend is newer, nothing more");
	ph_free(ph);
}

/*
 * `recover` and 32-bit segment numbers: a flow that runs 2^31 segments
 * past its last cut (three terabytes at 1448 B) must not find itself back
 * inside that cut's window -- tonic_before() wraps there -- and ignore a
 * loss, an ECE or a timeout.  Helpers called directly: the engine cannot
 * be driven that far in a unit test.
 */
static void recover_trails(void)
{
	struct tonic_prog_ctx ctx = { .wnd_start = 5 };
	struct tonic_tcp loss = { .recover = 5 }, ece = { .recover = 5, .cwr = 1 };
	u32 i;

	for (i = 0; i < (1u << 20) + 512; i++) {
		ctx.wnd_start += 2048;
		tonic_tcp_new_ack(&ctx, &loss);
		tonic_tcp_new_ack(&ctx, &ece);
	}
	ok(tonic_tcp_may_enter(&ctx, &loss),
	   "2^31 + 2^20 segments past the last recovery, no event since: a loss starts one");
	ok(!tonic_tcp_in_cwr(&ctx, &ece), "... and past an ECE's cut, its window is long over");
}

int main(void)
{
	holes();
	pipe_limits_rtx();
	rescue();
	end_to_end("6 losses", 128, 400, six_losses, 6);
	end_to_end("the last segment lost", 128, 100, tail_lost, 2);
	end_to_end("2 retransmissions lost", 128, 400, rtx_lost, 5);
	ok(end_to_end("6 losses in a window of thousands", TONIC_WND_MAX, 4000, big_losses, 6) > 256,
	   "... and a window past the old 256-segment bitmap after its recoveries");
	early_retransmit();
	tail_loss_probe();
	late_acks_probe();
	lost_rtx_small_window();
	reordered();
	dsack_not_dupack();
	dsack_undo();
	dsack_real_loss();
	dsack_ecn();
	dsack_probe();
	dsack_probe_after_recovery();
	dsack_network_copy();
	loss_after_ecn_cut();
	probe_sacked_tail();
	reorder_timer();
	probe_after_full_ack();
	probe_first_flight();
	rtx_overtaken();
	recover_trails();
	return tap_done();
}
