// SPDX-License-Identifier: GPL-2.0
/*
 * rc (IB RC reliability, no congestion control) through the engine: a
 * fixed window, go-back-N on a NACK and on a timeout, the timer's backoff
 * and giving up, and no periodic clock: an idle flow's engine has nothing
 * to do.
 */
#include "prog_harness.h"

static void window_and_nack(void)
{
	struct ph *ph = ph_new(256);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_rc);
	u32 i, ok_rtx = 1;

	c.init_cwnd = 8;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 20);
	ph_mark(ph);
	ph_run(ph, 1000);
	is(ph_count(ph, 0, 0), 8, "sends a window of 8 (init_cwnd)");
	ph_ack(ph, 0, 4);
	ph_mark(ph);
	ph_run(ph, 1000);
	is(ph_count(ph, 0, 0), 4, "an ACK for 4 opens the window by 4");
	/* NAK sequence error: 6 expected; 6..11 go again, in order. */
	ph_nack(ph, 0, 6, 6);
	ph_mark(ph);
	ph_run(ph, 1000);
	is(ph_count(ph, 0, 1), 6, "a NACK for 6 resends 6..11 (go-back-N)");
	for (i = 0; i < 6; i++)
		if (!ph_nth(ph, 0, 1, i) || ph_nth(ph, 0, 1, i)->d.seg != 6 + i)
			ok_rtx = 0;
	ok(ok_rtx, "... in order from the expected one");
	is(ph_count(ph, 0, 0), 2, "... and the window's room (acked 6) takes 12, 13");
	ph_ack(ph, 0, 14);
	ph_run(ph, 1000);
	ph_ack(ph, 0, 20);
	ph_run(ph, 10);
	is(ph_stats(ph, 0).wnd_start, 20, "all 20 acked");
	is(tonic_next_cycle(ph->tc), TONIC_IDLE, "all acked: no clock ticks (no periodic)");
	ph_free(ph);
}

static void timeout_backoff_fail(void)
{
	struct ph *ph = ph_new(256);
	struct tonic_flow_cfg c = ph_cfg(&tonic_prog_rc);
	struct tonic_flow_stats st;
	u64 t0;

	c.rto_cycles = 1000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, 4);
	ph_run(ph, 100);
	t0 = ph_now(ph);
	ph_mark(ph);
	ph_run(ph, 1100);
	is(ph_count(ph, 0, 1), 4, "a timeout resends all four (go-back-N)");
	ph_mark(ph);
	ph_run(ph, 1000);
	is(ph_count(ph, 0, 1), 0, "the next timeout waits twice as long (backoff) ...");
	ph_run(ph, 1100);
	is(ph_count(ph, 0, 1), 4, "... then resends again");
	ph_ack(ph, 0, 2);
	ph_run(ph, 10);
	ph_mark(ph);
	ph_run(ph, 1100);
	is(ph_count(ph, 0, 1), 2, "progress resets the backoff: after one RTO 2, 3 go again");
	ph_run(ph, 200000000);
	st = ph_stats(ph, 0);
	ok(st.state & TONIC_FLOW_FAILED, "a dead peer: the flow fails (%llu timeouts)",
	   (unsigned long long)st.timeouts);
	(void)t0;
	ph_free(ph);
}

int main(void)
{
	window_and_nack();
	timeout_backoff_fail();
	return tap_done();
}
