// SPDX-License-Identifier: GPL-2.0
/*
 * Input from the network and from the host that the engine must refuse or
 * clip without corrupting any flow's state.
 */
#include "tap.h"
#include "testprogs.h"

static struct tonic_core_stats cstats(struct tonic_core *tc)
{
	struct tonic_core_stats cs;

	tonic_core_stats(tc, &cs);
	return cs;
}

static struct tonic_flow_stats fstats(struct tonic_core *tc, u32 id)
{
	struct tonic_flow_stats st;

	tonic_flow_stats(tc, id, &st);
	return st;
}

int main(void)
{
	struct tonic_core_cfg bad = { .max_flows = 4, .wnd_bits = 128, .cycle_ps = 10000 };
	struct tonic_core *tc;
	struct tonic_pkt p;
	struct tonic_flow_cfg fc = { .prog = &tp_win, .seg_size = 1000 };
	u32 i, seed = 99;

	/* Configuration. */
	bad.max_flows = 0;
	ok(!tonic_core_create(&bad), "max_flows 0 refused");
	bad.max_flows = TONIC_MAX_FLOWS + 1;
	ok(!tonic_core_create(&bad), "max_flows > TONIC_MAX_FLOWS refused");
	bad.max_flows = 4;
	bad.wnd_bits = 100;
	ok(!tonic_core_create(&bad), "wnd_bits not a power of two refused");
	bad.wnd_bits = 64;
	ok(!tonic_core_create(&bad), "wnd_bits below 128 refused");
	bad.wnd_bits = 2 * TONIC_WND_MAX;
	ok(!tonic_core_create(&bad), "wnd_bits above TONIC_WND_MAX refused");
	bad.wnd_bits = TONIC_WND_MAX;
	tc = tonic_core_create(&bad);
	ok(tc, "wnd_bits TONIC_WND_MAX (%u) accepted", TONIC_WND_MAX);
	if (tc)
		tonic_core_destroy(tc);
	bad.wnd_bits = 128;
	bad.ring_depth = 12;
	ok(!tonic_core_create(&bad), "ring depth not a power of two refused");
	bad.ring_depth = 128;
	ok(!tonic_core_create(&bad), "ring depth > TONIC_RING_MAX refused");
	bad.ring_depth = 0;
	bad.cycle_ps = 0;
	ok(!tonic_core_create(&bad), "cycle_ps 0 refused");
	bad.cycle_ps = 10000;
	bad.user_max = 32;
	bad.in_queue = 4;
	tc = tonic_core_create(&bad);
	ok(tc != NULL, "small config accepted");

	is(tonic_flow_add(tc, 4, &fc), -EINVAL, "flow id out of range");
	fc.prog = NULL;
	is(tonic_flow_add(tc, 0, &fc), -EINVAL, "no program");
	fc.prog = &tp_win;
	fc.seg_size = 0;
	is(tonic_flow_add(tc, 0, &fc), -EINVAL, "segment size 0");
	fc.seg_size = 1000;
	fc.wnd_segs = 129;
	is(tonic_flow_add(tc, 0, &fc), -EINVAL, "window limit beyond the bitmap");
	fc.wnd_segs = 0;
	{
		struct tonic_prog_ops big = tp_win;

		big.user_size = 64;
		fc.prog = &big;
		is(tonic_flow_add(tc, 0, &fc), -E2BIG, "user state beyond user_max");
		fc.prog = &tp_win;
	}
	is(tonic_flow_add(tc, 0, &fc), 0, "flow 0");
	is(tonic_flow_add(tc, 1, &fc), 0, "flow 1");

	/* Pushes. */
	is(tonic_push(tc, 0, 0, 1000), -EINVAL, "push of zero segments");
	is(tonic_push(tc, 0, 10, 0), -EINVAL, "last_len 0");
	is(tonic_push(tc, 0, 10, 1001), -EINVAL, "last_len > seg_size");
	is(tonic_push(tc, 0, 0x80000000u, 1000), -EINVAL, "huge push (2^31 segments)");
	is(tonic_push(tc, 0, 20, 1000), 0, "good push");
	is(tonic_push(tc, 0, 15, 1000), -EINVAL, "tail behind");
	is(tonic_push(tc, 3, 15, 1000), -ENOENT, "push to a flow never added");
	is(tonic_push(tc, 77, 15, 1000), -ENOENT, "push to an out-of-range flow");
	is(cstats(tc).bad_push, 5, "bad_push counted 5");
	tonic_push(tc, 1, 20, 1000);
	run(tc, 100);	/* 8 + 8 in flight */

	/* Acks. */
	memset(&p, 0, sizeof(p));
	p.type = TONIC_PKT_ACK;
	p.cum_ack = 9;	/* beyond highest_sent 8 */
	p.nsack = 1;
	p.sack[0].start = 5;
	p.sack[0].end = 6;
	tonic_incoming(tc, 0, &p);
	run(tc, 200);
	ok(cstats(tc).bad_ack == 1 && fstats(tc, 0).wnd_start == 0 && fstats(tc, 0).segs_acked == 0,
	   "cum ack beyond highest_sent: whole packet rejected, bad_ack");
	p.cum_ack = 4;
	p.nsack = 0;
	tonic_incoming(tc, 0, &p);
	p.cum_ack = 2;
	tonic_incoming(tc, 0, &p);
	run(tc, 300);
	ok(cstats(tc).stale_ack == 1 && fstats(tc, 0).wnd_start == 4, "cum ack behind the window: ignored, stale_ack");
	p.cum_ack = 0xfffff000u;	/* far behind in serial order */
	tonic_incoming(tc, 0, &p);
	run(tc, 400);
	ok(fstats(tc, 0).wnd_start == 4 && cstats(tc).stale_ack == 2, "ancient cum ack ignored");

	/* SACK blocks. */
	{
		u64 before = cstats(tc).bad_sack;
		u32 hs = fstats(tc, 0).highest_sent;

		p.cum_ack = 4;
		p.nsack = 4;
		p.sack[0] = (struct tonic_sack){ hs + 5, hs + 9 };	/* beyond highest_sent */
		p.sack[1] = (struct tonic_sack){ 0, 2 };		/* behind the window */
		p.sack[2] = (struct tonic_sack){ 7, 6 };		/* inverted */
		p.sack[3] = (struct tonic_sack){ hs - 1, hs + 100 };	/* clipped to hs */
		tonic_incoming(tc, 0, &p);
		run(tc, 500);
		ok(cstats(tc).bad_sack == before + 4, "four bad SACK blocks counted");
		ok(fstats(tc, 0).segs_acked == 4 + 1, "only the clipped block's in-window segment acked");
		p.nsack = 1000;
		for (i = 0; i < TONIC_MAX_SACK; i++)
			p.sack[i] = (struct tonic_sack){ 5, 6 };
		tonic_incoming(tc, 0, &p);
		run(tc, 600);
		ok(cstats(tc).bad_sack == before + 5, "nsack > TONIC_MAX_SACK clipped and counted");
		/* A D-SACK (RFC 2883) is neither bad nor acks anything. */
		p.nsack = 2;
		p.flags = TONIC_PKT_F_DSACK;
		p.sack[0] = (struct tonic_sack){ 1, 2 };		/* below the ack */
		p.sack[1] = (struct tonic_sack){ 5, 6 };
		tonic_incoming(tc, 0, &p);
		run(tc, 620);
		p.sack[0] = (struct tonic_sack){ 6, 7 };		/* above: not a SACK */
		tonic_incoming(tc, 0, &p);
		run(tc, 640);
		ok(cstats(tc).bad_sack == before + 5, "D-SACK blocks are not bad SACK blocks");
		ok(fstats(tc, 0).segs_acked == 4 + 2, "... nor ack anything: only 5, block 1");
		p.flags = 0;
		p.nsack = 0;
	}

	/* Flows. */
	is(tonic_incoming(tc, 3, &p), -ENOENT, "ack for a flow never added");
	is(tonic_incoming(tc, 9999, &p), -ENOENT, "ack for an out-of-range flow");
	p.type = 17;
	is(tonic_incoming(tc, 0, &p), -EINVAL, "unknown packet type");
	p.type = TONIC_PKT_GRANT;
	tonic_flow_remove(tc, 1);
	is(tonic_incoming(tc, 1, &p), -ENOENT, "grant for a removed flow");
	ok(cstats(tc).bad_flow >= 3, "bad_flow counted");

	/* Queue overflow. */
	p.type = TONIC_PKT_CNP;
	for (i = 0; i < 4; i++)
		tonic_incoming(tc, 0, &p);
	is(tonic_incoming(tc, 0, &p), -ENOBUFS, "incoming queue full: -ENOBUFS");
	is(cstats(tc).in_overflow, 1, "in_overflow counted");
	run(tc, 700);
	is(fstats(tc, 0).cnps, 4, "queued CNPs all handled");
	tonic_core_destroy(tc);

	/* Garbage at flow 1 never disturbs flow 0's transfer. */
	{
		struct tonic_core_cfg c = { .max_flows = 2, .wnd_bits = 128, .cycle_ps = 10000 };
		struct tp_rx rx;
		struct tonic_flow_stats st;
		u32 sent0 = 0, bad0 = 0, expect = 0, round;

		tc = tonic_core_create(&c);
		fc.prog = &tp_win;
		tonic_flow_add(tc, 0, &fc);
		tonic_flow_add(tc, 1, &fc);
		tonic_push(tc, 0, 3000, 1000);
		tonic_push(tc, 1, 3000, 1000);
		tp_rx_init(&rx, 0);
		for (round = 0; round < 2000 && expect < 3000; round++) {
			run(tc, tonic_now(tc) + 40);
			for (i = 0; i < T.o.ndesc; i++) {
				struct tonic_pkt a;

				if (T.desc[i].flow != 0)
					continue;
				if (T.desc[i].seg != expect++)
					bad0++;
				sent0++;
				tp_rx_ack(&rx, T.desc[i].seg, &a);
				tonic_incoming(tc, 0, &a);
			}
			for (i = 0; i < 8; i++) {
				u32 *w = (u32 *)&p;

				for (u32 k = 0; k < sizeof(p) / 4; k++) {
					seed = seed * 1103515245 + 12345;
					w[k] = seed;
				}
				p.type %= 4;
				p.nsack %= 6;
				tonic_incoming(tc, 1, &p);
			}
		}
		run(tc, tonic_now(tc) + 40);
		tonic_flow_stats(tc, 0, &st);
		diag("flow 0: sent %u out-of-order %u wnd_start %u rtx %llu timeouts %llu", sent0, bad0,
		     st.wnd_start, (unsigned long long)st.segs_rtx, (unsigned long long)st.timeouts);
		ok(sent0 == 3000 && !bad0 && st.wnd_start == 3000 && st.segs_rtx == 0,
		   "flow 0 delivers 3000 segments in order, untouched by 16000 garbage packets to flow 1");
		tonic_flow_stats(tc, 1, &st);
		ok(!tonic_after(st.wnd_start, st.highest_sent) && !tonic_after(st.highest_sent, st.tail),
		   "flow 1 invariants hold after garbage");
		tonic_core_destroy(tc);
	}
	return tap_done();
}
