// SPDX-License-Identifier: GPL-2.0
/*
 * The DD/CR engines with the window scheme: generation order, window limit,
 * LAST, WND and sub-segment bursts, ack notifications, u32 wrap of segment
 * indices, ring full/empty, retransmission priority, timeouts, failure,
 * idle skipping, flow removal, periodic calls, output back-pressure, a
 * stalled transmit module,
 * round robin over 2048 flows.
 */
#include "tap.h"
#include "testprogs.h"

static void test_window(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_flow_stats st;
	u32 i, bad = 0;

	is(tp_add(tc, 0, &tp_win, 1000, 0), 0, "add a window flow");
	is(tonic_next_cycle(tc), TONIC_IDLE, "no data: engine idle");
	is(tonic_push(tc, 0, 20, 1000), 0, "push 20 segments");
	is(tonic_next_cycle(tc), 0, "pushed: work now");
	is(run(tc, 1000), 8, "window 8: eight descriptors");
	for (i = 0; i < 8; i++)
		if (T.desc[i].seg != i || T.desc[i].len != 1000 || T.desc[i].flow ||
		    T.desc[i].flags != (i == 7 ? TONIC_DESC_WND : 0))
			bad++;
	is(bad, 0, "segments 0..7 in order, full length, WND on 7 alone (the window's edge)");
	tonic_flow_stats(tc, 0, &st);
	ok(st.highest_sent == 8 && st.outstanding == 0 && st.wnd_start == 0,
	   "highest_sent 8, nothing outstanding in the ring");
	ack(tc, 0, 4);
	is(run(tc, 2000), 4, "ack of 4 opens four more");
	is(T.desc[0].seg, 8, "... starting at 8");
	ok(!T.desc[2].flags && T.desc[3].flags == TONIC_DESC_WND, "... WND on 11, the new edge");
	is(tp_count_notes(&T, TONIC_NOTE_ACKED), 1, "one ACKED note");
	is(T.note[0].value, 4, "... up to 4");
	ack(tc, 0, 12);
	run(tc, 3000);
	ack(tc, 0, 20);
	run(tc, 4000);
	is(T.o.ndesc, 0, "all 20 sent");
	tonic_flow_stats(tc, 0, &st);
	ok(st.wnd_start == 20 && st.segs_sent == 20 && st.segs_acked == 20, "all acked, counters agree");
	is(tonic_next_cycle(tc), TONIC_IDLE, "all acked: timer stopped, engine idle");
	tonic_core_destroy(tc);
}

/*
 * TONIC_FLOW_SHORT_SEGS: the host maps segments itself, so a burst follows
 * a sub-segment at once -- the sub-segment stays in the window, acked,
 * lost and resent like any other -- and no BURST_DONE is due.
 */
static void test_short_segs(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_flow_cfg fc = { .prog = &tp_win, .seg_size = 1000, .start_seg = 100,
				     .flags = TONIC_FLOW_SHORT_SEGS };

	is(tonic_flow_add(tc, 1, &fc), 0, "flow with short segments anywhere");
	is(tonic_push(tc, 1, 102, 500), 0, "push 2 segments, the last a 500-byte sub-segment");
	is(tonic_push(tc, 1, 104, 300), 0, "a second burst follows it at once");
	is(tonic_push(tc, 1, 105, 1000), 0, "and a third");
	is(run(tc, 100), 5, "five descriptors");
	ok(T.desc[1].seg == 101 && T.desc[3].seg == 103, "in order");
	ack(tc, 1, 105);
	run(tc, 200);
	is(tp_count_notes(&T, TONIC_NOTE_BURST_DONE), 0, "no BURST_DONE");
	is(tonic_push(tc, 1, 106, 1000), 0, "pushes go on");
	is(run(tc, 300), 1, "and are sent");
	tonic_core_destroy(tc);
}

static void test_sub_segment(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	u32 n;

	tp_add(tc, 1, &tp_win, 1000, 100);
	is(tonic_push(tc, 1, 103, 500), 0, "push 3 segments, the last a 500-byte sub-segment");
	is(tonic_push(tc, 1, 104, 1000), -EBUSY, "further push refused while the burst is out");
	n = run(tc, 100);
	is(n, 3, "three descriptors");
	ok(T.desc[2].seg == 102 && T.desc[2].len == 500 && (T.desc[2].flags & TONIC_DESC_LAST),
	   "last one: 500 bytes, LAST");
	ok(T.desc[0].len == 1000 && !(T.desc[0].flags & TONIC_DESC_LAST), "first one full, not LAST");
	ack(tc, 1, 102);
	run(tc, 200);
	is(tp_count_notes(&T, TONIC_NOTE_BURST_DONE), 0, "no BURST_DONE before the sub-segment is acked");
	is(tonic_push(tc, 1, 104, 1000), -EBUSY, "still busy");
	ack(tc, 1, 103);
	run(tc, 300);
	is(tp_count_notes(&T, TONIC_NOTE_BURST_DONE), 1, "BURST_DONE once the sub-segment is acked");
	ok(T.o.nnote && T.note[T.o.nnote - 1].value == 103, "... value 103");
	is(tp_count_notes(&T, TONIC_NOTE_ACKED), 1, "ACKED at the tail too");
	is(tonic_push(tc, 1, 105, 1000), 0, "push accepted again");
	is(run(tc, 400), 2, "and sent");
	tonic_core_destroy(tc);
}

static void test_ack_notify(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_flow_cfg fc = { .prog = &tp_win, .seg_size = 100, .ack_notify = 4,
				     .init_cwnd = 64 };
	u32 i, notes = 0, v[8];

	tonic_flow_add(tc, 2, &fc);
	tonic_push(tc, 2, 10, 100);
	run(tc, 100);
	for (i = 1; i <= 10; i++) {
		ack(tc, 2, i);
		run(tc, 100 + i * 10);
		if (T.o.nnote && notes < 8)
			v[notes++] = T.note[0].value;
	}
	ok(notes == 3 && v[0] == 4 && v[1] == 8 && v[2] == 10,
	   "ack_notify 4: ACKED at 4, 8 and at the tail (10)");
	tonic_core_destroy(tc);
}

static void test_wrap(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tp_rx rx;
	struct tonic_pkt a;
	struct tonic_flow_stats st;
	u32 start = 0xfffffff0u, expect = start, bad = 0, total = 0, i, round;

	tp_add(tc, 3, &tp_win, 1000, start);
	tp_rx_init(&rx, start);
	is(tonic_push(tc, 3, 0x30, 1000), 0, "push across the u32 wrap (0xfffffff0 .. 0x30)");
	for (round = 0; round < 100; round++) {
		run(tc, tonic_now(tc) + 50);
		for (i = 0; i < T.o.ndesc; i++) {
			if (T.desc[i].seg != expect++)
				bad++;
			tp_rx_ack(&rx, T.desc[i].seg, &a);
			tonic_incoming(tc, 3, &a);
		}
		total += T.o.ndesc;
	}
	tonic_flow_stats(tc, 3, &st);
	is(bad, 0, "segment indices consecutive through the wrap");
	is(total, 0x40, "all 64 segments sent once");
	is(st.wnd_start, 0x30, "window start wrapped to 0x30");
	tonic_core_destroy(tc);
}

static void test_ring(void)
{
	struct tonic_core *tc = tp_core(4, 128, 4);
	struct tonic_flow_stats st;
	struct tonic_pkt g = { .type = TONIC_PKT_GRANT, .grant = 2000 };

	tp_add(tc, 0, &tp_grant, 1000, 0);
	tonic_push(tc, 0, 20, 1000);
	is(run(tc, 100), 0, "grant flow without credit sends nothing");
	tonic_flow_stats(tc, 0, &st);
	is(st.outstanding, 4, "ring full: 4 addresses outstanding (ring depth 4)");
	is(st.highest_sent, 4, "generation stopped at the ring depth");
	is(tonic_next_cycle(tc), TONIC_IDLE, "parked flow costs nothing");
	tonic_incoming(tc, 0, &g);
	is(run(tc, 200), 2, "a 2000-byte grant releases two segments");
	tonic_flow_stats(tc, 0, &st);
	ok(st.outstanding == 4 && st.highest_sent == 6, "ring refilled after transmission");
	tonic_flow_remove(tc, 0);
	tp_add(tc, 0, &tp_win, 1000, 0);
	tonic_push(tc, 0, 2, 1000);
	run(tc, 300);
	tonic_flow_stats(tc, 0, &st);
	ok(T.o.ndesc == 2 && st.outstanding == 0, "ring empties when credit allows");
	tonic_core_destroy(tc);
}

static void test_rtx(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_pkt n = { .type = TONIC_PKT_NACK, .cum_ack = 2, .nack = 5 };
	struct tonic_flow_stats st;

	tp_add(tc, 0, &tp_win, 1000, 0);
	tonic_push(tc, 0, 100, 1000);
	run(tc, 100);
	tonic_incoming(tc, 0, &n);
	is(run(tc, 200), 3, "NACK with cum 2: one retransmission and two new segments");
	ok(T.desc[0].seg == 5 && (T.desc[0].flags & TONIC_DESC_RTX), "retransmission first, flagged RTX");
	ok(T.desc[1].seg == 8 && !(T.desc[1].flags & TONIC_DESC_RTX), "then new data");
	tonic_incoming(tc, 0, &n);
	is(run(tc, 300), 1, "same NACK again: the program marks 5 again, one more retransmission");
	tonic_flow_stats(tc, 0, &st);
	is(st.segs_rtx, 2, "two retransmissions counted");
	tonic_core_destroy(tc);
}

static void test_timeout(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_flow_cfg fc = { .prog = &tp_win, .seg_size = 1000, .rto_cycles = 5000 };
	struct tonic_flow_stats st;
	u32 i, bad = 0, fails = 0;

	tonic_flow_add(tc, 0, &fc);
	tonic_push(tc, 0, 8, 1000);
	run(tc, 5000);
	is(T.o.ndesc, 8, "eight sent");
	is(run(tc, 5000 + 1), 0, "no timeout before first transmission + rto");
	is(run(tc, 5020), 8, "timeout: the whole window retransmitted");
	for (i = 0; i < 8; i++)
		if (!(T.desc[i].flags & TONIC_DESC_RTX) || T.desc[i].seg != i)
			bad++;
	is(bad, 0, "... flagged RTX, in order");
	tonic_flow_stats(tc, 0, &st);
	is(st.timeouts, 1, "one timeout counted");
	/* Keep not acking: the program fails the flow after 6 in a row. */
	for (i = 0; i < 10; i++) {
		run(tc, tonic_now(tc) + 5100);
		fails += tp_count_notes(&T, TONIC_NOTE_FAILED);
	}
	is(fails, 1, "one FAILED note after repeated timeouts");
	tonic_flow_stats(tc, 0, &st);
	ok(st.state & TONIC_FLOW_FAILED, "flow marked failed");
	is(tonic_push(tc, 0, 9, 1000), -EPIPE, "push to a failed flow: -EPIPE");
	is(tonic_next_cycle(tc), TONIC_IDLE, "failed flow is stopped");
	tonic_core_destroy(tc);
}

static void test_idle(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_flow_cfg fc = { .prog = &tp_win, .seg_size = 1000, .rto_cycles = 1000000000 };
	struct tonic_core_stats cs;
	struct tonic_flow_stats st;
	u64 busy;

	busy = run(tc, 1000000000000ULL);
	tonic_core_stats(tc, &cs);
	ok(busy == 0 && tonic_now(tc) == 1000000000001ULL && cs.busy_cycles == 0,
	   "empty engine: 1e12 cycles in zero busy cycles");
	tonic_flow_add(tc, 0, &fc);
	tonic_push(tc, 0, 1, 1000);
	tp_out_reset(&T, TP_MAX_DESC);
	busy = tonic_run(tc, tonic_now(tc) + 3500000000ULL, &T.o);
	tonic_flow_stats(tc, 0, &st);
	diag("one flow, rto 1e9 cycles, 3.5e9 cycles run: %llu busy cycles, %llu timeouts",
	     (unsigned long long)busy, (unsigned long long)st.timeouts);
	ok(busy <= 16, "O(1) busy cycles for a 1e9-cycle timer");
	is(st.timeouts, 3, "three timeouts in 3.5e9 cycles");
	is(T.o.ndesc, 4, "original + three retransmissions");
	tonic_core_destroy(tc);
}

static void test_remove(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_core_stats cs;
	struct tonic_flow_stats st;

	tp_add(tc, 0, &tp_win, 1000, 0);
	tonic_push(tc, 0, 10, 1000);
	run(tc, 100);
	ack(tc, 0, 8);		/* queued for the old incarnation */
	is(tonic_flow_remove(tc, 0), 0, "remove");
	is(tonic_flow_remove(tc, 0), -ENOENT, "remove twice: -ENOENT");
	is(tp_add(tc, 0, &tp_win, 1000, 0), 0, "re-add the same id");
	is(tp_add(tc, 0, &tp_win, 1000, 0), -EEXIST, "add twice: -EEXIST");
	tonic_push(tc, 0, 10, 1000);
	run(tc, 200);
	tonic_flow_stats(tc, 0, &st);
	tonic_core_stats(tc, &cs);
	ok(st.wnd_start == 0 && cs.bad_flow == 2, "old incarnation's ACK dropped (bad_flow), new flow untouched");
	is(T.o.ndesc, 8, "new incarnation starts from scratch");
	tonic_core_destroy(tc);
}

static void per_init(struct tonic_prog_ctx *c)
{
	c->period = 100;
}

static u32 seen_per, seen_bytes;
static void per_fn2(struct tonic_prog_ctx *c)
{
	seen_per++;
	seen_bytes += c->bytes_sent;
}

static void test_periodic_count(void)
{
	static const struct tonic_prog_ops p = {
		.name = "per2", .credit = TONIC_CREDIT_CWND, .init = per_init, .periodic = per_fn2,
	};
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_core_stats cs;

	tp_add(tc, 0, &p, 1000, 0);
	tonic_push(tc, 0, 3, 700);
	run(tc, 1000);
	is(seen_per, 10, "period 100: ten periodic() calls in cycles 0..1000");
	is(seen_bytes, 2700, "bytes_sent seen once by periodic(): 2 x 1000 + 700");
	run(tc, 100000);
	is(seen_per, 1000, "still every 100 cycles after a long run");
	tonic_core_stats(tc, &cs);
	ok(cs.busy_cycles < 1100, "idle cycles between calls skipped (%llu busy)",
	   (unsigned long long)cs.busy_cycles);
	tonic_core_destroy(tc);
}

static void test_backpressure(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	u64 now;

	tp_add(tc, 0, &tp_win, 1000, 0);
	tonic_push(tc, 0, 8, 1000);
	tp_out_reset(&T, 3);
	tonic_run(tc, 1000, &T.o);
	now = tonic_now(tc);
	ok(T.o.ndesc == 3 && now < 10, "out full after 3 descriptors: run stops early");
	is(run(tc, 1000), 5, "the rest on the next run");
	ok(T.desc[0].seg == 3, "continuing where it stopped");
	tonic_core_destroy(tc);
}

/*
 * Back-pressure from the NIC: while the transmit module is stalled nothing
 * leaves, but the rest of the engine runs -- ACKs are taken, addresses are
 * generated until the ring or window is full, timers fire, rate credit
 * accrues up to its burst -- and a stalled engine with nothing else to do
 * is idle, not busy every cycle.
 */
static void test_tx_stall(void)
{
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_flow_cfg fc = { .prog = &tp_win, .seg_size = 1000, .rto_cycles = 5000 };
	struct tonic_core_stats cs0, cs;
	struct tonic_flow_stats st;
	u32 i, bad = 0;

	tonic_flow_add(tc, 0, &fc);
	tonic_push(tc, 0, 20, 1000);
	tonic_tx_stall(tc, true);
	tonic_core_stats(tc, &cs0);
	is(run(tc, 1000), 0, "stalled: nothing sent");
	tonic_core_stats(tc, &cs);
	tonic_flow_stats(tc, 0, &st);
	is(st.outstanding, 8, "... the window's 8 addresses wait in the ring");
	ok(cs.busy_cycles - cs0.busy_cycles <= 10, "... in a few busy cycles (%llu)",
	   (unsigned long long)(cs.busy_cycles - cs0.busy_cycles));
	is(tonic_next_cycle(tc), TONIC_IDLE, "stalled with a full window and no timer: idle");
	tp_out_reset(&T, 0);
	tonic_run(tc, 2000, &T.o);
	is(tonic_now(tc), 2001, "stalled, a run needs no room for a descriptor");
	tonic_tx_stall(tc, false);
	is(tonic_next_cycle(tc), 2001, "unstalled: work at once");
	is(run(tc, 3000), 8, "the 8 leave");
	for (i = 0; i < 8; i++)
		if (T.desc[i].seg != i || (T.desc[i].flags & TONIC_DESC_RTX))
			bad++;
	is(bad, 0, "... 0..7 in order");

	tonic_tx_stall(tc, true);
	ack(tc, 0, 4);
	is(run(tc, 4000), 0, "an ACK while stalled: nothing sent");
	is(tp_count_notes(&T, TONIC_NOTE_ACKED), 1, "... but the ACK is taken");
	tonic_flow_stats(tc, 0, &st);
	ok(st.wnd_start == 4 && st.highest_sent == 12 && st.outstanding == 4,
	   "... and the 4 segments it opened wait in the ring");
	is(run(tc, 3000 + 5000 + 100), 0, "the RTO expires while stalled: nothing sent");
	tonic_flow_stats(tc, 0, &st);
	is(st.timeouts, 1, "... but the timeout is taken");
	tonic_tx_stall(tc, false);
	run(tc, tonic_now(tc) + 100);
	bad = 0;
	for (i = 0; i < T.o.ndesc; i++)
		if (T.desc[i].flags & TONIC_DESC_RTX)
			bad++;
	ok(bad >= 1 && T.desc[0].seg >= 4, "unstalled: the timeout's retransmissions leave (%u)", bad);
	tonic_core_destroy(tc);

	/* A rate flow's credit does not pile up behind a stall: one burst. */
	tc = tp_core(4, 128, 16);
	tp_add(tc, 1, &tp_rate, 1000, 0);
	tonic_push(tc, 1, 100, 1000);
	tonic_tx_stall(tc, true);
	run(tc, 100000);
	tonic_tx_stall(tc, false);
	is(run(tc, tonic_now(tc) + 10), 1, "a rate flow after 1 ms stalled: one segment (its burst) at once");
	is(run(tc, tonic_now(tc) + 80), 1, "... the next after 800 ns (1000 B at 10 Gb/s)");
	tonic_core_destroy(tc);
}

/*
 * One flow's back-pressure from the host (tonic_flow_xoff()): only that
 * flow holds its descriptors, generation stops at its ring, and it
 * resumes where it stopped, for as many descriptors as the host's credit
 * allows.
 */
static void test_flow_xoff(void)
{
	struct tonic_core *tc = tp_core(4, 256, 16);
	struct tonic_flow_cfg fc = { .prog = &tp_win, .seg_size = 1000, .rto_cycles = 100000 };
	struct tonic_flow_stats st;
	u32 i, bad = 0, n0 = 0;

	fc.init_cwnd = 64;
	tonic_flow_add(tc, 0, &fc);
	tonic_flow_add(tc, 1, &fc);
	tonic_push(tc, 0, 100, 1000);
	tonic_push(tc, 1, 100, 1000);
	is(tonic_flow_xoff(tc, 0, true, 0), 0, "xoff on flow 0");
	is(tonic_flow_xoff(tc, 3, true, 0), -ENOENT, "xoff on a flow not in use: -ENOENT");
	run(tc, 1000);
	for (i = 0; i < T.o.ndesc; i++)
		if (T.desc[i].flow == 0)
			n0++;
	is(n0, 0, "flow 0 held: none of its descriptors leave");
	tonic_flow_stats(tc, 0, &st);
	ok(st.highest_sent == 16 && st.outstanding == 16,
	   "... it generated its ring's 16, no more (highest_sent %u)", st.highest_sent);
	tonic_flow_stats(tc, 1, &st);
	is(st.highest_sent, 64, "flow 1 is not held: its window of 64 left");
	ack(tc, 0, 0);
	run(tc, 2000);
	ok(T.o.ndesc == 0, "an ACK of flow 0 while held: still nothing leaves");
	tonic_flow_xoff(tc, 0, false, 20);
	run(tc, 3000);
	for (i = 0; i < T.o.ndesc; i++)
		if (T.desc[i].flow != 0 || T.desc[i].seg != i)
			bad++;
	ok(T.o.ndesc == 20 && !bad, "let go with a credit of 20: 0..19 leave, in order (%u)",
	   T.o.ndesc);
	tonic_flow_stats(tc, 0, &st);
	ok(st.outstanding == 16 && st.highest_sent == 36,
	   "... then it is held again: 16 wait, 36 generated (%u)", st.highest_sent);
	tonic_flow_xoff(tc, 0, false, 0);
	run(tc, 4000);
	bad = 0;
	for (i = 0; i < T.o.ndesc; i++)
		if (T.desc[i].flow != 0 || T.desc[i].seg != 20 + i)
			bad++;
	ok(T.o.ndesc == 44 && !bad, "let go without a limit: the window's other 44 leave, 20..63 (%u)",
	   T.o.ndesc);
	tonic_core_destroy(tc);
}

static void test_rr_2048(void)
{
	struct tonic_core *tc = tp_core(TONIC_MAX_FLOWS, 128, 16);
	u32 i, bad = 0, total = 0;
	static u32 per[TONIC_MAX_FLOWS];

	for (i = 0; i < TONIC_MAX_FLOWS; i++) {
		struct tonic_flow_cfg fc = { .prog = &tp_win, .seg_size = 1000,
					     .start_seg = i * 1000, .rto_cycles = 1000000000 };

		tonic_flow_add(tc, i, &fc);
		tonic_push(tc, i, i * 1000 + 4, 1000);
	}
	run(tc, 2048 + 10);
	for (i = 0; i < T.o.ndesc; i++) {
		if (i < 2048 && T.desc[i].flow != i)
			bad++;
		per[T.desc[i].flow]++;
	}
	ok(T.o.ndesc >= 2048 && !bad, "first 2048 descriptors: one per flow, in round-robin order");
	while (run(tc, tonic_now(tc) + 4096)) {
		for (i = 0; i < T.o.ndesc; i++)
			per[T.desc[i].flow]++;
		total += T.o.ndesc;
	}
	bad = 0;
	for (i = 0; i < TONIC_MAX_FLOWS; i++)
		if (per[i] != 4)
			bad++;
	ok(!bad && total, "every flow got all 4 segments");
	tonic_core_destroy(tc);
}

static void cwr_in(struct tonic_prog_ctx *c)
{
	if (c->pkt->flags & TONIC_PKT_F_ECE) {
		c->cwnd = 2;
		c->cwr = true;
	}
}

static void test_cwr(void)
{
	static const struct tonic_prog_ops p = {
		.name = "cwr", .credit = TONIC_CREDIT_CWND, .def_cwnd = 4, .incoming = cwr_in,
	};
	struct tonic_core *tc = tp_core(4, 128, 16);
	struct tonic_pkt a = { .type = TONIC_PKT_ACK, .cum_ack = 2, .flags = TONIC_PKT_F_ECE };

	tp_add(tc, 0, &p, 1000, 0);
	tonic_push(tc, 0, 20, 1000);
	run(tc, 100);
	tonic_incoming(tc, 0, &a);
	is(run(tc, 200), 0, "ECE: cwnd cut to 2, window 2..4 already full");
	a.flags = 0;
	a.cum_ack = 4;
	tonic_incoming(tc, 0, &a);
	is(run(tc, 300), 2, "ack opens two");
	ok((T.desc[0].flags & TONIC_DESC_CWR) && !(T.desc[1].flags & TONIC_DESC_CWR),
	   "the first descriptor after the cut carries CWR, only it");
	tonic_core_destroy(tc);
}

int main(void)
{
	struct tonic_core_cfg cfg = { .max_flows = 2048, .wnd_bits = 128, .cycle_ps = 10000 };
	u32 eng, total;

	test_window();
	test_sub_segment();
	test_short_segs();
	test_ack_notify();
	test_wrap();
	test_ring();
	test_rtx();
	test_timeout();
	test_idle();
	test_remove();
	test_periodic_count();
	test_backpressure();
	test_tx_stall();
	test_flow_xoff();
	test_rr_2048();
	test_cwr();
	total = tonic_core_flow_bytes(&cfg, &eng);
	diag("state per flow (128-bit window, ring 16): %u B engine, %u B with 448 B user + counters",
	     eng, total);
	/*
	 * 320 B before the 32 B of per-flow program parameters (cfg.param[],
	 * 8 since ibcc's CCT scale needed a fifth).
	 */
	ok(eng <= 352, "engine state per flow <= 352 bytes");
	return tap_done();
}
