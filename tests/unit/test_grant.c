// SPDX-License-Identifier: GPL-2.0
/* Grant-token scheme: credit = tokens granted - bytes sent, timeout credit. */
#include "tap.h"
#include "testprogs.h"

static u32 nflow(u32 flow)
{
	u32 i, n = 0;

	for (i = 0; i < T.o.ndesc; i++)
		n += T.desc[i].flow == flow;
	return n;
}

static void grant(struct tonic_core *tc, u32 flow, u32 bytes)
{
	struct tonic_pkt g = { .type = TONIC_PKT_GRANT, .grant = bytes };

	tonic_incoming(tc, flow, &g);
}

static void nack_credit_in(struct tonic_prog_ctx *c)
{
	if (c->pkt->type == TONIC_PKT_NACK)
		c->credit += 1000;	/* program-side credit, a delta */
}

int main(void)
{
	struct tonic_core *tc = tp_core(8, 128, 16);
	struct tonic_flow_cfg fc = { .prog = &tp_grant, .seg_size = 1000, .init_credit = 3000,
				     .rto_cycles = 1000000 };
	struct tonic_flow_stats st;
	u32 i, bytes = 0;
	u64 granted, sent;

	tonic_flow_add(tc, 0, &fc);
	tonic_push(tc, 0, 10, 1000);
	is(run(tc, 100), 3, "initial credit 3000: three 1000-byte segments");
	tonic_flow_stats(tc, 0, &st);
	is(st.credit, 0, "credit used up");
	grant(tc, 0, 1500);
	is(run(tc, 200), 1, "grant 1500: one segment");
	tonic_flow_stats(tc, 0, &st);
	is(st.credit, 500, "500 bytes left over");
	grant(tc, 0, 400);
	is(run(tc, 300), 0, "900 bytes: not enough for a segment");
	grant(tc, 0, 100);
	is(run(tc, 400), 1, "1000 bytes: one more");
	tonic_flow_stats(tc, 0, &st);
	ok(st.credit == 0 && st.grants == 3, "credit 0, three grants counted");

	/* Timeout grants credit for what it retransmits. */
	run(tc, 2000000);
	tonic_flow_stats(tc, 0, &st);
	ok(st.timeouts == 1 && st.segs_rtx == 5, "timeout: 5 unacked segments resent on timeout credit");
	ok(st.credit == 0, "timeout credit exactly covers the retransmissions");

	/* Sub-segment needs only its own length. */
	{
		struct tonic_flow_cfg f2 = { .prog = &tp_grant, .seg_size = 1000 };

		tonic_flow_add(tc, 1, &f2);
		tonic_push(tc, 1, 1, 300);
		grant(tc, 1, 299);
		tonic_flow_remove(tc, 0);
		run(tc, tonic_now(tc) + 100);
		is(nflow(1), 0, "299 bytes do not cover a 300-byte sub-segment");
		grant(tc, 1, 1);
		run(tc, tonic_now(tc) + 100);
		is(nflow(1), 1, "300 do");
		is(T.desc[0].len, 300, "... a 300-byte descriptor");
	}

	/* A grant to a window-scheme flow is counted but gives no credit. */
	{
		tp_add(tc, 2, &tp_win, 1000, 0);
		grant(tc, 2, 5000);
		run(tc, tonic_now(tc) + 10);
		tonic_flow_stats(tc, 2, &st);
		ok(st.grants == 1 && st.credit == 0, "grant to a window flow: counted, no credit");
	}

	/* Program credit writes are deltas and add to a same-cycle grant. */
	{
		static const struct tonic_prog_ops p = {
			.name = "nc", .credit = TONIC_CREDIT_GRANT, .incoming = nack_credit_in,
			.def_rto_us = 1000000,
		};
		struct tonic_pkt n = { .type = TONIC_PKT_NACK, .flags = TONIC_PKT_F_NO_CUM };

		tp_add(tc, 3, &p, 1000, 0);
		grant(tc, 3, 700);
		tonic_incoming(tc, 3, &n);
		run(tc, tonic_now(tc) + 10);
		tonic_flow_stats(tc, 3, &st);
		is(st.credit, 1700, "grant 700 + program delta 1000 = 1700");
	}

	/* Accounting over many random grants: sent == granted, credit never negative. */
	{
		struct tonic_flow_cfg f4 = { .prog = &tp_grant, .seg_size = 1000,
					     .rto_cycles = 1000000000 };
		struct tp_rx rx;
		struct tonic_pkt a;
		u32 seed = 7;

		tonic_flow_add(tc, 4, &f4);
		tp_rx_init(&rx, 0);
		tonic_push(tc, 4, 5000, 1000);
		granted = 0;
		for (i = 0; i < 3000; i++) {
			u32 g;

			seed = seed * 1103515245 + 12345;
			g = (seed >> 8) % 2500;
			grant(tc, 4, g);
			granted += g;
			run(tc, tonic_now(tc) + 20);
			for (u32 k = 0; k < T.o.ndesc; k++) {
				if (T.desc[k].flow != 4)
					continue;
				bytes += T.desc[k].len;
				tp_rx_ack(&rx, T.desc[k].seg, &a);
				tonic_incoming(tc, 4, &a);
			}
		}
		run(tc, tonic_now(tc) + 100);
		for (u32 k = 0; k < T.o.ndesc; k++)
			if (T.desc[k].flow == 4)
				bytes += T.desc[k].len;
		tonic_flow_stats(tc, 4, &st);
		sent = st.bytes_sent;
		ok(sent == bytes && sent + st.credit == granted,
		   "bytes sent + credit left == bytes granted (%llu + %u == %llu)",
		   (unsigned long long)sent, st.credit, (unsigned long long)granted);
	}
	tonic_core_destroy(tc);
	return tap_done();
}
