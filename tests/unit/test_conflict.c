// SPDX-License-Identifier: GPL-2.0
/*
 * Same-cycle conflicts: ACK beats timeout, Incoming/Periodic writes merged
 * by prog->prio, marks from both applied, generation and transmission of
 * one flow in one cycle cancel in the outstanding count.
 */
#include "tap.h"
#include "testprogs.h"
#include "core.h"

/* user words: [0] both write, [1] incoming only, [2] periodic only, [3] calls */
static void m_init(struct tonic_prog_ctx *c)
{
	c->period = 100;
}

static void m_in(struct tonic_prog_ctx *c)
{
	u32 *u = c->user;

	u[0] = 0xaaaa;
	u[1] = 0x1111;
	u[3] += 1;
	c->cwnd = 20;
	if (c->pkt->type == TONIC_PKT_NACK)
		tonic_mark_rtx(c, c->pkt->nack, c->pkt->nack + 1);
}

static void m_per(struct tonic_prog_ctx *c)
{
	u32 *u = c->user;

	u[0] = 0xbbbb;
	u[2] = 0x2222;
	u[3] += 0x100;
	c->cwnd = 30;
	c->rto = 777777;
	if (c->now == 200)
		tonic_mark_rtx(c, c->wnd_start + 5, c->wnd_start + 6);
}

static const struct tonic_prog_ops m_in_wins = {
	.name = "mi", .credit = TONIC_CREDIT_CWND, .user_size = 16, .prio = TONIC_PRIO_INCOMING,
	.def_cwnd = 10, .def_rto_us = 1000000,
	.init = m_init, .incoming = m_in, .periodic = m_per,
};

static const struct tonic_prog_ops m_per_wins = {
	.name = "mp", .credit = TONIC_CREDIT_CWND, .user_size = 16, .prio = TONIC_PRIO_PERIODIC,
	.def_cwnd = 10, .def_rto_us = 1000000,
	.init = m_init, .incoming = m_in, .periodic = m_per,
};

static void test_merge(const struct tonic_prog_ops *p, u32 want0, u32 want_cwnd, const char *what)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_flow_stats st;
	u32 *u;

	tp_add(tc, 0, p, 1000, 0);
	tonic_push(tc, 0, 50, 1000);
	run(tc, 99);
	ack(tc, 0, 2);
	run(tc, 100);	/* incoming and periodic both handle flow 0 in cycle 100 */
	u = tonic_flow_user(tc, 0);
	tonic_flow_stats(tc, 0, &st);
	ok(u[0] == want0, "%s: word written by both takes the winner's value", what);
	ok(u[1] == 0x1111 && u[2] == 0x2222, "%s: words written by one side each are both kept", what);
	ok(u[3] == (p->prio == TONIC_PRIO_INCOMING ? 1 : 0x100),
	   "%s: a counter both increment keeps one side's increment (word granularity)", what);
	is(st.cwnd, want_cwnd, "%s: cwnd written by both: winner's", what);
	is(tc->flows[0].rto, 777777, "%s: rto written by periodic only is kept", what);
	tonic_core_destroy(tc);
}

static void test_marks_both(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_pkt n = { .type = TONIC_PKT_NACK, .cum_ack = 0, .nack = 2 };
	u32 i, got2 = 0, got5 = 0;

	tp_add(tc, 0, &m_in_wins, 1000, 0);
	tonic_push(tc, 0, 8, 1000);
	run(tc, 199);
	tonic_incoming(tc, 0, &n);
	run(tc, 300);	/* cycle 200: NACK marks 2, periodic marks 5 */
	for (i = 0; i < T.o.ndesc; i++) {
		got2 += T.desc[i].seg == 2 && (T.desc[i].flags & TONIC_DESC_RTX);
		got5 += T.desc[i].seg == 5 && (T.desc[i].flags & TONIC_DESC_RTX);
	}
	ok(got2 == 1 && got5 == 1, "marks from incoming and periodic in one cycle both retransmitted");
	tonic_core_destroy(tc);
}

static void test_ack_beats_timeout(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_flow_cfg fc = { .prog = &tp_win, .seg_size = 1000, .rto_cycles = 5000 };
	struct tonic_core_stats cs;
	struct tonic_flow_stats st;
	struct tp_user *u;
	u64 rto_at;

	tonic_flow_add(tc, 0, &fc);
	tonic_push(tc, 0, 8, 1000);
	run(tc, 100);
	rto_at = tc->flows[0].rto_at;
	is(rto_at, 5001, "timer armed at first transmission (cycle 1) + rto");
	run(tc, rto_at - 1);
	ack(tc, 0, 3);	/* handled in cycle rto_at, the cycle the timer fires */
	run(tc, rto_at);
	tonic_core_stats(tc, &cs);
	tonic_flow_stats(tc, 0, &st);
	u = tonic_flow_user(tc, 0);
	ok(cs.conflicts == 1 && st.timeouts == 0 && u->n_timeouts == 0,
	   "ACK and timeout in one cycle: timeout dropped, program saw no timeout");
	ok(tc->flows[0].rto_at == rto_at + 5000, "the ACK re-armed the timer");
	run(tc, rto_at + 4999);
	tonic_flow_stats(tc, 0, &st);
	is(st.timeouts, 0, "no timeout before the re-armed deadline");

	/* A dupack (no re-arm) in the firing cycle only defers the timeout. */
	rto_at = tc->flows[0].rto_at;
	run(tc, rto_at - 1);
	ack(tc, 0, 3);
	run(tc, rto_at);
	tonic_flow_stats(tc, 0, &st);
	is(st.timeouts, 0, "dupack in the firing cycle: timeout dropped this cycle");
	run(tc, rto_at + 1);
	tonic_flow_stats(tc, 0, &st);
	is(st.timeouts, 1, "... and taken the next cycle: the timer was still expired");
	tonic_core_destroy(tc);
}

static void test_gen_tx_cancel(void)
{
	struct tonic_core *tc = tp_core(4, 128, 4);
	struct tonic_pkt g = { .type = TONIC_PKT_GRANT, .grant = 1000 };
	struct tonic_flow_stats st;
	u64 c;

	tp_add(tc, 0, &tp_grant, 1000, 0);
	tonic_push(tc, 0, 20, 1000);
	run(tc, 50);
	tonic_flow_stats(tc, 0, &st);
	is(st.outstanding, 4, "ring full");
	tonic_incoming(tc, 0, &g);
	c = tonic_now(tc);
	run(tc, c);	/* exactly one cycle */
	tonic_flow_stats(tc, 0, &st);
	ok(T.o.ndesc == 1 && st.outstanding == 4 && st.highest_sent == 5,
	   "one cycle: transmitted (-1) and generated (+1) for one flow: still 4 outstanding");
	tonic_core_destroy(tc);
}

static void fail_per(struct tonic_prog_ctx *c)
{
	c->fail = true;
}

static void test_fail_merge(void)
{
	static const struct tonic_prog_ops p = {
		.name = "f", .credit = TONIC_CREDIT_CWND, .init = m_init, .incoming = m_in,
		.periodic = fail_per, .user_size = 16,
	};
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_flow_stats st;

	tp_add(tc, 0, &p, 1000, 0);
	tonic_push(tc, 0, 50, 1000);
	run(tc, 99);
	ack(tc, 0, 2);
	run(tc, 100);
	tonic_flow_stats(tc, 0, &st);
	ok((st.state & TONIC_FLOW_FAILED) && tp_count_notes(&T, TONIC_NOTE_FAILED) == 1,
	   "fail from periodic in a merged cycle fails the flow once");
	tonic_core_destroy(tc);
}

int main(void)
{
	test_merge(&m_in_wins, 0xaaaa, 20, "prio incoming");
	test_merge(&m_per_wins, 0xbbbb, 30, "prio periodic");
	test_marks_both();
	test_ack_beats_timeout();
	test_gen_tx_cancel();
	test_fail_merge();
	return tap_done();
}
