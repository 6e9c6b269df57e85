// SPDX-License-Identifier: GPL-2.0
/*
 * Local congestion, for every TCP program: the host's qdisc refused a
 * segment (NET_XMIT_DROP or _CN), which the glue tells the device as a CNP.
 * Kernel TCP enters CWR then (tcp_transmit_skb() -> tcp_enter_cwr()): the
 * window is cut once, as for an ECE, nothing is resent, and further
 * refusals in the same window cut no more.  A CNP is no duplicate ACK.
 */
#include "prog_harness.h"

#define SETTLE	2000

static void refused(const struct tonic_prog_ops *prog)
{
	struct tonic_pkt cnp = { .type = TONIC_PKT_CNP };
	struct ph *ph = ph_tcp_flow(prog, 10, 60);
	u32 cut;

	ph_mark(ph);
	ph_in(ph, 0, &cnp);
	ph_run(ph, SETTLE);
	cut = ph_stats(ph, 0).cwnd;
	ok(cut >= 2 && cut < 10, "%s: a refusal cuts cwnd 10 -> %u", prog->name, cut);
	is(ph_count(ph, 0, 1), 0, "%s: ... and resends nothing", prog->name);
	ph_in(ph, 0, &cnp);
	ph_in(ph, 0, &cnp);
	ph_in(ph, 0, &cnp);
	ph_run(ph, SETTLE);
	is(ph_stats(ph, 0).cwnd, cut, "%s: three more in the same window: no second cut, no fast retransmit",
	   prog->name);
	is(ph_count(ph, 0, 1), 0, "%s: ... nothing resent", prog->name);
	/* The cut window acked: the next refusal is new congestion. */
	ph_ack(ph, 0, ph_stats(ph, 0).highest_sent);
	ph_run(ph, SETTLE);
	cut = ph_stats(ph, 0).cwnd;
	ph_in(ph, 0, &cnp);
	ph_run(ph, SETTLE);
	ok(ph_stats(ph, 0).cwnd < cut, "%s: a refusal in the next window cuts again (%u -> %u)",
	   prog->name, cut, ph_stats(ph, 0).cwnd);
	ph_free(ph);
}

int main(void)
{
	refused(&tonic_prog_reno);
	refused(&tonic_prog_newreno);
	refused(&tonic_prog_sack);
	refused(&tonic_prog_cubic);
	refused(&tonic_prog_dctcp);
	return tap_done();
}
