// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion window validation (RFC 7661; Linux's tcp_is_cwnd_limited()):
 * a window-based program grows cwnd only while cwnd is what limits the
 * flow -- in slow start, up to twice what the flow could have out.  What
 * else limits it is the application, or the peer's receive window (the
 * glue announces only what fits in it), both as ctx->tail, and the flow's
 * window K.  A cwnd grown past them says nothing about the path, and
 * cubic keeps it as W_max: in the guest an offloaded cubic flow reached
 * the 2048-segment window with 227 segments out (what held the flight
 * there was not traced).
 */
#include <string.h>

#include "prog_harness.h"

#define SETTLE	2000

/*
 * One round trip: the application writes @n more segments, they go out,
 * and each is acked on its own (with ECE on the first, if @ece).
 */
static void round_trip(struct ph *ph, u32 *tail, u32 n, bool ece)
{
	u32 s;

	*tail += n;
	ph_push(ph, 0, *tail);
	ph_run(ph, SETTLE);
	for (s = *tail - n + 1; s <= *tail; s++) {
		struct tonic_pkt p = { .type = TONIC_PKT_ACK, .cum_ack = s };

		if (ece && s == *tail - n + 1)
			p.flags = TONIC_PKT_F_ECE;
		ph_in(ph, 0, &p);
		ph_run(ph, SETTLE);
	}
}

static void validate(const struct tonic_prog_ops *prog)
{
	struct ph *ph = ph_new(256);
	struct tonic_flow_cfg c = ph_cfg(prog);
	u32 tail = 0, cwnd, i;

	c.init_cwnd = 10;
	c.rto_cycles = 100000000;
	ph_add(ph, 0, &c);

	/* Application-limited slow start: 20 segments a round trip. */
	for (i = 0; i < 30; i++)
		round_trip(ph, &tail, 20, false);
	cwnd = ph_stats(ph, 0).cwnd;
	ok(cwnd >= 20 && cwnd <= 40, "%s: 20 segments out a round trip: slow start stops at %u (20..40)",
	   prog->name, cwnd);

	/* The window limits the flow: it grows again. */
	round_trip(ph, &tail, cwnd, false);
	ok(ph_stats(ph, 0).cwnd > cwnd, "%s: a full window out: cwnd grows (%u -> %u)",
	   prog->name, cwnd, ph_stats(ph, 0).cwnd);

	/* Congestion avoidance after an ECE cut, application-limited at half of it. */
	round_trip(ph, &tail, ph_stats(ph, 0).cwnd, true);
	round_trip(ph, &tail, ph_stats(ph, 0).cwnd, false);
	cwnd = ph_stats(ph, 0).cwnd;
	for (i = 0; i < 60; i++)
		round_trip(ph, &tail, cwnd / 2, false);
	is(ph_stats(ph, 0).cwnd, cwnd, "%s: congestion avoidance with half the window out: no growth",
	   prog->name);
	ph_free(ph);
}

/* A flow of @prog, cwnd 10, with 1000 segments to send: 10 are out. */
static struct ph *ten_out(const struct tonic_prog_ops *prog)
{
	struct ph *ph = ph_new(256);
	struct tonic_flow_cfg c = ph_cfg(prog);

	c.init_cwnd = 10;
	c.rto_cycles = 100000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 1000);
	ph_run(ph, SETTLE);
	return ph;
}

/* Segments @from..@to acked one by one. */
static void ack_each(struct ph *ph, u32 from, u32 to)
{
	for (; from <= to; from++) {
		ph_ack(ph, 0, from);
		ph_run(ph, SETTLE);
	}
}

/*
 * The host holds the flow back (its queue toward the wire is full: TCP
 * Small Queues, tonic_flow_xoff()): only what it took counts as out, as
 * TSQ-held data is not in Linux's packets_out.  In the guest the glue's
 * ring held 240 of an offloaded cubic flow's 342 segments behind TSQ
 * while cwnd grew to 684, and the pacing rate and TSQ allowance made of
 * that cwnd took a 50 Mbit/s bottleneck from kernel cubic.
 *
 * 10 out, then held: the segments each ACK opens wait in the device.
 * The k-th ACK comes with 11 - k taken, and slow start grows cwnd (9 + k)
 * only while it is below twice that: ACKs 1..4, to 14.  Held by nothing,
 * all 10 would have grown it, to 20.
 */
static void held(const struct tonic_prog_ops *prog)
{
	struct ph *ph = ten_out(prog);

	tonic_flow_xoff(ph->tc, 0, true, 0);
	ack_each(ph, 1, 10);
	is(ph_stats(ph, 0).cwnd, 14, "%s: 10 acked while the host holds the flow: cwnd 14, not 20",
	   prog->name);
	tonic_flow_xoff(ph->tc, 0, false, 0);
	ph_run(ph, SETTLE);
	ack_each(ph, 11, 20);
	is(ph_stats(ph, 0).cwnd, 24, "%s: released, 10 more acked: slow start goes on (24)", prog->name);
	ph_free(ph);
}

/*
 * Released with a credit (tonic_flow_xoff(): the host has room for that
 * many segments), the host still limits the flow until it is spent: an
 * ACK that comes before the credit is used counts only what the host took.
 * Seen as not held, it let cwnd grow on the whole announced data: in the
 * guest, at a window of 2048, an offloaded cubic flow's cwnd went 146 ->
 * 261 and 307 -> 325 with 63-168 segments out, while it took a 50 Mbit/s
 * bottleneck from kernel cubic (4.4-11 Mbit/s left to it; the pacing
 * ratio, info() below, was the other cause).
 *
 * 10 out, held, 8 acked: cwnd 14 (as in held()), 2 out.  Released with a
 * credit of one, the 9th ACK sees 2 out: 14 is not below twice that.
 */
static void credited(const struct tonic_prog_ops *prog)
{
	struct ph *ph = ten_out(prog);

	tonic_flow_xoff(ph->tc, 0, true, 0);
	ack_each(ph, 1, 8);
	is(ph_stats(ph, 0).cwnd, 14, "%s: 8 acked while held: cwnd 14", prog->name);
	tonic_flow_xoff(ph->tc, 0, false, 1);
	ack_each(ph, 9, 9);
	is(ph_stats(ph, 0).cwnd, 14, "%s: released with a credit of one, an ACK with 2 out: cwnd stays 14",
	   prog->name);
	ph_free(ph);
}

/*
 * Each TCP program shows its ssthresh (get_info, "ssthresh"), which the
 * glue mirrors into the socket as it mirrors cwnd: ss -ti shows it, and
 * the pacing rate takes tcp_pacing_ss_ratio only below half of it, as
 * tcp_update_pacing_rate() does.  Without it the socket's ssthresh stayed
 * infinite and an offloaded flow paced at the slow-start ratio (200 %)
 * for its whole life: twice kernel TCP's rate and TSQ allowance.  Before
 * any congestion, the window (wnd_bits); after an ECE, cwnd's cut value.
 */
static void info(const struct tonic_prog_ops *prog)
{
	struct ph *ph = ten_out(prog);
	struct tonic_pkt p = { .type = TONIC_PKT_ACK, .cum_ack = 1, .flags = TONIC_PKT_F_ECE };
	struct tonic_flow_stats st = ph_stats(ph, 0);

	ok(prog->info_names && !strcmp(prog->info_names[0], "ssthresh"),
	   "%s: shows \"ssthresh\" first", prog->name);
	ok((st.state & TONIC_FLOW_INFO) && st.prog_info[0] == 256,
	   "%s: ssthresh before any congestion: the window, 256 (%u)", prog->name, st.prog_info[0]);
	ph_in(ph, 0, &p);
	ph_run(ph, SETTLE);
	st = ph_stats(ph, 0);
	ok(st.prog_info[0] < 10 && st.prog_info[0] == st.cwnd,
	   "%s: after an ECE, ssthresh %u = cwnd %u, below 10", prog->name, st.prog_info[0], st.cwnd);
	ph_free(ph);
}

int main(void)
{
	validate(&tonic_prog_reno);
	validate(&tonic_prog_newreno);
	validate(&tonic_prog_sack);
	validate(&tonic_prog_cubic);
	validate(&tonic_prog_dctcp);
	held(&tonic_prog_reno);
	held(&tonic_prog_newreno);
	held(&tonic_prog_sack);
	held(&tonic_prog_cubic);
	held(&tonic_prog_dctcp);
	credited(&tonic_prog_reno);
	credited(&tonic_prog_newreno);
	credited(&tonic_prog_sack);
	credited(&tonic_prog_cubic);
	credited(&tonic_prog_dctcp);
	info(&tonic_prog_reno);
	info(&tonic_prog_newreno);
	info(&tonic_prog_sack);
	info(&tonic_prog_cubic);
	info(&tonic_prog_dctcp);
	return tap_done();
}
