// SPDX-License-Identifier: GPL-2.0
/*
 * IRN through the engine: NACK-driven selective repeat (cumulative-ack
 * packet first, later ones only below a selectively acked PSN), recovery
 * exit at the recovery sequence, BDP-FC (param[0], live changes), pacing at
 * the flow's rate, and the RTO_low / RTO_high split.  irn-dcqcn: the same
 * loss recovery under DCQCN's rate control.
 */
#include "prog_harness.h"

#define SETTLE		2000
#define RTO_LOW		10000
#define RTO_HIGH	32000

static void nacks(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_irn);
	const struct ph_rec *r;

	ph_add(ph, 0, &c);
	ph_push(ph, 0, 20);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 0), 20, "20 packets out at line rate");

	/* 2, 3, 4 and 7 lost; 5 arrives out of order. */
	ph_mark(ph);
	ph_irn_nack(ph, 0, 2, 5);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 3, "NACK(cum 2, psn 5): the three packets below 5 go again");
	r = ph_nth(ph, 0, 1, 0);
	ok(r && r->d.seg == 2, "... the cumulative-ack packet first");
	ok(ph_seg_sent(ph, 0, 3) == 1 && ph_seg_sent(ph, 0, 4) == 1, "... then 3 and 4");
	is(ph_count(ph, 0, 0), 0, "no new packets meanwhile (nothing announced)");

	ph_mark(ph);
	ph_irn_nack(ph, 0, 2, 6);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 0, "NACK for 6: no new hole below it");
	ph_irn_nack(ph, 0, 2, 8);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 1, "NACK for 8: packet 7 is lost");
	ok(ph_seg_sent(ph, 0, 7) == 1, "... and resent");
	is(ph_seg_sent(ph, 0, 9), 0, "9 (no higher PSN acked yet) is not resent");

	/* Retransmissions land; cum moves inside the recovery window. */
	ph_mark(ph);
	ph_ack(ph, 0, 9);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 0, "regular ACK in recovery: nothing resent");

	/* Leave recovery at the recovery sequence (20), then a new loss. */
	ph_ack(ph, 0, 20);
	ph_push(ph, 0, 40);
	ph_run(ph, SETTLE);
	ph_mark(ph);
	ph_irn_nack(ph, 0, 21, 23);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 2, "new recovery after the exit: 21 and 22 resent");
	ok(ph_nth(ph, 0, 1, 0) && ph_nth(ph, 0, 1, 0)->d.seg == 21, "... cumulative-ack packet first");
	ph_free(ph);
}

static void bdp_fc(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_irn);
	struct tonic_flow_stats st;

	ph_add(ph, 0, &c);
	st = ph_stats(ph, 0);
	is(st.cwnd, 110, "BDP-FC default cap: 110 packets");
	ph_push(ph, 0, 200);
	ph_run(ph, 20000);
	st = ph_stats(ph, 0);
	is(st.highest_sent - st.wnd_start, 110, "no more than the BDP cap in flight");
	ph_ack(ph, 0, 10);
	ph_run(ph, SETTLE);
	st = ph_stats(ph, 0);
	is(st.highest_sent, 120, "each ack lets as many new packets out");

	/* param[0] sets the cap ... */
	ph_free(ph);
	ph = ph_new(128);
	c.param[0] = 8;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 50);
	ph_run(ph, 20000);
	is(ph_stats(ph, 0).highest_sent, 8, "param[0] = 8: eight packets in flight");
	/* ... and can change on the live flow, from the next ACK on. */
	is(tonic_flow_set_param(ph->tc, 0, 0, 20), 0, "set_param: cap 8 -> 20");
	ph_ack(ph, 0, 1);
	ph_run(ph, 20000);
	is(ph_stats(ph, 0).highest_sent, 21, "... 20 in flight after the next ACK");

	/* ~0u disables BDP-FC: only the window limit K (128) holds. */
	ph_free(ph);
	ph = ph_new(128);
	c.param[0] = ~0u;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 200);
	ph_run(ph, 20000);
	is(ph_stats(ph, 0).highest_sent, 128, "param[0] = ~0u: no BDP-FC, the 128-segment window");
	ph_free(ph);
}

/* Rate-based (Table 3): paced at init_rate_kbps, one packet per 1000 B / rate. */
static void paced(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_irn);
	const struct ph_rec *a, *b;

	c.init_rate_kbps = 10000000;	/* 10 Gb/s: 800 ns = 80 cycles per packet */
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 20);
	ph_run(ph, 20000);
	a = ph_nth(ph, 0, 0, 1);
	b = ph_nth(ph, 0, 0, 11);
	ok(a && b && b->at - a->at >= 790 && b->at - a->at <= 810,
	   "10 Gb/s: ten packets take 800 cycles (%llu)",
	   a && b ? (unsigned long long)(b->at - a->at) : 0ULL);
	ph_free(ph);
}

/* @rto: the flow's RTO in cycles, 0 for the program's default. */
static u64 first_rtx_at(u32 npkts, u32 rto)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_irn);
	const struct ph_rec *r;
	u64 t0, at;

	c.rto_cycles = rto;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, npkts);
	ph_run(ph, 400000);
	t0 = ph_nth(ph, 0, 0, 0) ? ph_nth(ph, 0, 0, 0)->at : 0;
	r = ph_nth(ph, 0, 1, 0);
	at = r ? r->at - t0 : 0;
	ph_free(ph);
	return at;
}

/*
 * A timeout enters recovery like a NACK, and recovery's rule holds: "first
 * the cumulative-ack one, later ones only when a higher PSN has been
 * selectively acked" (IRN, 3.1) -- a timeout knows of no such PSN.
 */
static void timeout(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_irn);

	ph_add(ph, 0, &c);
	ph_push(ph, 0, 20);
	ph_run(ph, SETTLE);
	ph_mark(ph);
	ph_run(ph, RTO_HIGH + SETTLE);
	is(ph_count(ph, 0, 1), 1, "timeout with 20 unacked: one packet resent");
	ok(ph_nth(ph, 0, 1, 0) && ph_nth(ph, 0, 1, 0)->d.seg == 0, "... the cumulative-ack packet");
	ph_mark(ph);
	ph_irn_nack(ph, 0, 1, 6);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 5, "NACK(cum 1, psn 6) in that recovery: 1 to 5 resent");
	ph_free(ph);
}

/*
 * irn-dcqcn: a CNP cuts the rate as DCQCN does (Rc * alpha / 2 with alpha
 * 1 at the start: half), the rate climbs back on DCQCN's timer, loss is
 * recovered IRN's way (selectively), and BDP-FC is the flow's init_cwnd.
 */
static void with_dcqcn(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_irn_dcqcn);
	struct tonic_flow_cfg d = ph_cfg(&tonic_prog_dcqcn);
	struct tonic_flow_stats st;
	u32 cut;

	/* Flow 1 is dcqcn itself, given the same events: the reference. */
	c.init_cwnd = 25;
	ph_add(ph, 0, &c);
	ph_add(ph, 1, &d);
	st = ph_stats(ph, 0);
	is(st.rate_kbps, 40000000, "starts at DCQCN's 40 Gb/s line rate");
	ph_push(ph, 0, 200);
	ph_push(ph, 1, 200);
	ph_run(ph, 20000);
	st = ph_stats(ph, 0);
	is(st.highest_sent - st.wnd_start, 25, "BDP-FC: init_cwnd 25 packets in flight");

	ph_cnp(ph, 0);
	ph_cnp(ph, 1);
	ph_run(ph, 1);
	cut = ph_stats(ph, 0).rate_kbps;
	ok(cut > 19500000 && cut < 20500000, "a CNP about halves the rate (alpha near 1): %u kbps",
	   cut);
	is(cut, ph_stats(ph, 1).rate_kbps, "... as dcqcn cuts it");
	ph_run(ph, 100000);	/* 1 ms of quiet: DCQCN's 55 us timer raises it */
	ok(ph_stats(ph, 0).rate_kbps > cut, "the rate recovers without CNPs (%u kbps)",
	   ph_stats(ph, 0).rate_kbps);
	is(ph_stats(ph, 0).rate_kbps, ph_stats(ph, 1).rate_kbps, "... as dcqcn's does");

	ph_mark(ph);
	ph_irn_nack(ph, 0, 2, 5);
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 3, "NACK(cum 2, psn 5): 2, 3 and 4 resent, not the whole window");
	ok(ph_nth(ph, 0, 1, 0) && ph_nth(ph, 0, 1, 0)->d.seg == 2, "... the cumulative-ack packet first");
	ph_free(ph);
}

static void end_to_end(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_irn);
	struct tonic_flow_stats st;

	ph_add(ph, 0, &c);
	ph_push(ph, 0, 1000);
	ph_net(ph, 0, PH_RX_IRN, 300);
	ph->rx[0].drop[10] = 1;
	ph->rx[0].drop[11] = 1;
	ph->rx[0].drop[30] = 1;
	ph->rx[0].drop[500] = 1;
	ph->rx[0].drop[999] = 1;	/* the tail: only the timeout can find it */
	ok(ph_net_run(ph, 0, 1000, 1000000), "1000 packets delivered with 5 losses");
	st = ph_stats(ph, 0);
	is(st.segs_rtx, 5, "exactly the lost packets resent");
	is(st.timeouts, 1, "one timeout, for the lost tail");
	is(ph->rx[0].dup, 0, "no spurious retransmission");
	ph_free(ph);
}

/*
 * A glue may hold the cumulative ack back while later packets are
 * selectively acked (rdma-glue, behind a READ whose responses are
 * missing): the timeout resends the first packet not acked -- IRN's
 * cumulative-ack packet -- not an acked one, which would send nothing.
 */
static void timeout_first_unacked(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_irn);
	struct tonic_pkt a = { .type = TONIC_PKT_ACK, .cum_ack = 0, .nsack = 1 };
	const struct ph_rec *r;

	ph_add(ph, 0, &c);
	ph_push(ph, 0, 10);
	ph_run(ph, SETTLE);
	a.sack[0].start = 0;
	a.sack[0].end = 5;
	ok(!ph_in(ph, 0, &a), "ACK: cum 0, 0..4 selectively acked");
	ph_mark(ph);
	ph_run(ph, 2 * RTO_HIGH + SETTLE);
	r = ph_nth(ph, 0, 1, 0);
	ok(r && r->d.seg == 5, "the timeout resends packet 5, the first not acked (got %d)",
	   r ? (int)r->d.seg : -1);
	ph_free(ph);
}

/*
 * Toward a RoCE (go-back-N) receiver: it drops everything after a hole and
 * NACKs the PSN it expects, once per hole.  IRN falls back to going back N;
 * with selective repeat alone, every dropped packet would cost a timeout.
 */
static void roce_peer(void)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_irn);
	struct tonic_pkt n = { .type = TONIC_PKT_NACK, .flags = TONIC_PKT_F_GBN,
			       .cum_ack = 2, .nack = 2 };

	ph_add(ph, 0, &c);
	ph_push(ph, 0, 10);
	ph_run(ph, SETTLE);
	ph_mark(ph);
	ok(!ph_in(ph, 0, &n), "RoCE NAK (cum 2, expects 2) taken");
	ph_run(ph, SETTLE);
	is(ph_count(ph, 0, 1), 8, "... 2 to 9 go again (go-back-N)");
	ok(ph_nth(ph, 0, 1, 0) && ph_nth(ph, 0, 1, 0)->d.seg == 2, "... from the expected PSN");
	ph_free(ph);
}

int main(void)
{
	u64 t;

	nacks();
	bdp_fc();
	paced();
	timeout();
	with_dcqcn();
	end_to_end();
	t = first_rtx_at(2, 0);
	ok(t >= RTO_LOW && t < RTO_LOW + 200, "2 packets in flight: RTO_low (%llu cycles)",
	   (unsigned long long)t);
	t = first_rtx_at(3, 0);
	ok(t >= RTO_LOW && t < RTO_LOW + 200, "3 packets in flight: RTO_low (%llu cycles)",
	   (unsigned long long)t);
	t = first_rtx_at(20, 0);
	ok(t >= RTO_HIGH && t < RTO_HIGH + 200, "20 packets in flight: RTO_high (%llu cycles)",
	   (unsigned long long)t);
	/* A flow given a 10x longer RTO (an RDMA QP's local ACK timeout): both scale. */
	t = first_rtx_at(2, 10 * RTO_HIGH);
	ok(t >= 10 * RTO_LOW && t < 10 * RTO_LOW + 200,
	   "RTO 10 x 320 us: RTO_low is 1 ms (%llu cycles)", (unsigned long long)t);
	t = first_rtx_at(20, 10 * RTO_HIGH);
	ok(t >= 10 * RTO_HIGH && t < 10 * RTO_HIGH + 200,
	   "RTO 10 x 320 us: RTO_high is 3.2 ms (%llu cycles)", (unsigned long long)t);
	roce_peer();
	timeout_first_unacked();
	return tap_done();
}
