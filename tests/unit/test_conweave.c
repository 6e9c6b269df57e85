// SPDX-License-Identifier: GPL-2.0
/*
 * ConWeave's state machines (tonic-core/conweave.c), each rule of seed 004
 * alone, then a flow over two paths whose delays change, delivered in
 * order through the destination's queue.
 */
#include "tap.h"
#include "conweave.h"

static const struct cw_src_cfg CFG = {
	.npaths = 2, .probe_us = 100, .cutoff_us = 50, .busy_us = 1000, .seed = 7,
};

static void test_probes(void)
{
	struct cw_src s;
	struct cw_mark m, r;
	int reqs = 0;
	u64 t;

	cw_src_init(&s, &CFG, 0);
	for (t = 0; t < 1000; t += 10) {
		cw_src_tx(&s, t, false, &m);
		if (m.op == CW_OP_RTT_REQUEST) {
			reqs++;
			r = m;
			r.op = CW_OP_RTT_REPLY;
			cw_src_rx(&s, t + 20, &r);	/* in time */
		}
	}
	is(reqs, 10, "an RTT_REQUEST once per probe interval (100 us over 1 ms)");
	is(s.reroutes, 0, "replies in time: no reroute");
	ok(!m.rerouted && !m.tail && m.path == 0 && m.epoch == 0,
	   "packets stay normal, path 0, epoch 0");
}

static void test_reroute(void)
{
	struct cw_src s;
	struct cw_mark m, c = { .op = CW_OP_CLEAR };

	cw_src_init(&s, &CFG, 0);
	cw_src_tx(&s, 0, false, &m);
	is(m.op, CW_OP_RTT_REQUEST, "the first packet probes");
	cw_src_tx(&s, 60, false, &m);	/* no reply by the cutoff: congested, reroute */
	ok(m.tail && m.path == 0 && m.epoch == 0 && m.op == CW_OP_NORMAL,
	   "rule (i)+(ii): the next packet is the old path's TAIL (path 0, epoch 0)");
	is(m.tail_tx_ts, 60, "the TAIL carries its own send time");
	cw_src_tx(&s, 70, false, &m);
	ok(!m.tail && m.rerouted && m.path == 1 && m.epoch == 1,
	   "then REROUTED on the new path, epoch 1");
	is(m.tail_tx_ts, 60, "REROUTED packets carry the TAIL's send time");
	/* The new path congested too (a NOTIFY): (iii) holds the flow on it. */
	c.op = CW_OP_NOTIFY;
	c.path = 1;
	cw_src_rx(&s, 80, &c);
	cw_src_tx(&s, 2000, false, &m);	/* path 0 no longer busy */
	ok(!m.tail && m.path == 1 && m.rerouted,
	   "rule (iii): no second reroute before the CLEAR of the first");
	c.op = CW_OP_CLEAR;
	c.epoch = 0;
	cw_src_rx(&s, 2010, &c);
	cw_src_tx(&s, 2020, false, &m);
	ok(m.rerouted, "a CLEAR of another epoch does not count");
	c.epoch = 1;
	cw_src_rx(&s, 2030, &c);
	cw_src_tx(&s, 2040, false, &m);
	ok(m.tail && m.path == 1 && m.epoch == 1,
	   "after the CLEAR: the pending reroute, TAIL on path 1");
	cw_src_tx(&s, 2050, false, &m);
	ok(m.path == 0 && m.epoch == 2 && m.rerouted, "back on path 0, epoch 2");
	is(s.reroutes, 2, "two reroutes");
}

/*
 * A packet sent again never makes the reroute: go-back-N resends the
 * packet a lost TAIL was, and a resend that became the TAIL again would
 * meet the same fate (test 79: every TAIL dropped, each resend after an
 * idle RTO found the probe late and was the TAIL again, until the QP's
 * retry count ran out).
 */
static void test_resend_no_tail(void)
{
	struct cw_src s;
	struct cw_mark m;

	cw_src_init(&s, &CFG, 0);
	cw_src_tx(&s, 0, false, &m);
	cw_src_tx(&s, 60, true, &m);	/* congested by now: the probe is late */
	ok(!m.tail && m.path == 0 && m.epoch == 0,
	   "a resend goes on the current path, not as the TAIL");
	cw_src_tx(&s, 70, false, &m);
	ok(m.tail && m.path == 0, "the next new packet is the TAIL");
	cw_src_tx(&s, 80, true, &m);
	ok(m.rerouted && m.path == 1 && m.epoch == 1, "a resend after it: REROUTED, new path");
}

static void test_no_free_path(void)
{
	struct cw_src s;
	struct cw_mark m, n = { .op = CW_OP_NOTIFY };
	struct cw_src_cfg cfg = CFG;

	cfg.npaths = 3;
	cw_src_init(&s, &cfg, 0);
	for (n.path = 0; n.path < 3; n.path++)
		cw_src_rx(&s, 0, &n);
	cw_src_tx(&s, 10, false, &m);
	ok(!m.tail && m.path == 0, "rule (ii): every path congested, no reroute");
	cw_src_tx(&s, 1500, false, &m);	/* the others' busy time is over */
	ok(m.tail && m.path == 0, "the current path still congested: reroute once another is free");
	cw_src_tx(&s, 1510, false, &m);
	ok(m.path == 1 || m.path == 2, "to another path (%u)", m.path);
}

static void test_dst(void)
{
	struct cw_dst d;
	struct cw_mark m = {}, r;
	bool got;

	cw_dst_init(&d, 500, 0);
	m.op = CW_OP_RTT_REQUEST;
	m.tx_ts = 1234;
	is(cw_dst_rx(&d, 0, &m, &r), CW_PASS, "a normal packet passes");
	ok(r.op == CW_OP_RTT_REPLY && r.tx_ts == 1234,
	   "an RTT_REQUEST is answered, its TX_TSTAMP echoed");
	m = (struct cw_mark){ .rerouted = true, .epoch = 1, .path = 1 };
	is(cw_dst_rx(&d, 10, &m, &r), CW_HOLD, "REROUTED of epoch 1 before its TAIL: held");
	is(cw_dst_rx(&d, 11, &m, &r), CW_HOLD, "and the next");
	m = (struct cw_mark){ .epoch = 0, .path = 0 };
	is(cw_dst_rx(&d, 12, &m, &r), CW_PASS, "the old path's packets pass meanwhile");
	m.tail = true;
	is(cw_dst_rx(&d, 13, &m, &r), CW_PASS_RELEASE, "the TAIL passes and releases the queue");
	ok(r.op == CW_OP_CLEAR && r.epoch == 1, "and is answered with a CLEAR of epoch 1");
	m = (struct cw_mark){ .rerouted = true, .epoch = 1, .path = 1 };
	is(cw_dst_rx(&d, 14, &m, &r), CW_PASS, "REROUTED after the TAIL: passes");
	is(r.op, CW_OP_NORMAL, "no answer");

	/* The next reroute's TAIL is lost: the resume timer. */
	m = (struct cw_mark){ .rerouted = true, .epoch = 2, .path = 0 };
	is(cw_dst_rx(&d, 100, &m, &r), CW_HOLD, "epoch 2 held");
	ok(!cw_dst_poll(&d, 599, &r), "the resume timer: not before 500 us");
	got = cw_dst_poll(&d, 600, &r);
	ok(got && r.op == CW_OP_CLEAR && r.epoch == 2, "at 500 us: released, CLEAR of epoch 2");
	is(cw_dst_rx(&d, 601, &m, &r), CW_PASS, "epoch 2 passes since");
	m = (struct cw_mark){ .tail = true, .epoch = 1, .path = 1 };
	is(cw_dst_rx(&d, 700, &m, &r), CW_PASS, "the late TAIL passes, releases nothing");
	is(d.resumed, 1, "one resume");
	is(d.tails, 1, "one TAIL counted");
}

/*
 * A flow of packets every 10 us over two paths.  Path 0 takes 20 us until
 * t = 2 ms, then 400 us (congested); path 1 always 60 us.  Control packets
 * take 20 us back.  The destination delivers what passes and what it
 * releases; every packet must come out in order, and the flow must move.
 */
#define NPKT	1000
struct pkt { u64 at; u32 seq; struct cw_mark m; bool ctl; };

static u32 delay(u8 path, u64 t)
{
	return path == 0 ? (t < 2000 ? 20 : 400) : 60;
}

static void run_flow(bool drop_tail, bool sort, u32 *out_of_order, u32 *reroutes, u32 *resumed)
{
	static struct pkt net[2 * NPKT + 64], held[NPKT];
	struct cw_src s;
	struct cw_dst d;
	struct cw_mark r;
	u32 n = 0, nh = 0, next = 0, i, last = 0, bad = 0, sent = 0;
	u64 t;
	bool first = true;

	cw_src_init(&s, &(struct cw_src_cfg){ .npaths = 2, .probe_us = 50, .cutoff_us = 150,
			.busy_us = 100000, .seed = 3 }, 0);
	cw_dst_init(&d, 1000, 0);
	for (t = 0; t < 40000; t++) {
		if (sent < NPKT && t % 10 == 0) {
			struct pkt *p = &net[n++];

			cw_src_tx(&s, t, false, &p->m);
			p->seq = sent++;
			p->at = t + delay(p->m.path, t);
			p->ctl = false;
			if (drop_tail && p->m.tail)
				n--;
		}
		for (i = 0; i < n; i++) {
			struct pkt p = net[i];
			enum cw_verdict v;

			if (p.at != t)
				continue;
			net[i--] = net[--n];
			if (p.ctl) {
				cw_src_rx(&s, t, &p.m);
				continue;
			}
			v = cw_dst_rx(&d, t, &p.m, &r);
			if (v == CW_HOLD && sort) {
				held[nh++] = p;
			} else {
				if (!first && p.seq < last)
					bad++;
				last = p.seq;
				first = false;
				next++;
				if (v == CW_PASS_RELEASE) {
					u32 k;

					for (k = 0; k < nh; k++) {
						if (held[k].seq < last)
							bad++;
						last = held[k].seq;
						next++;
					}
					nh = 0;
				}
			}
			if (r.op != CW_OP_NORMAL)
				net[n++] = (struct pkt){ .at = t + 20, .m = r, .ctl = true };
		}
		if (cw_dst_poll(&d, t, &r)) {
			u32 k;

			for (k = 0; k < nh; k++) {
				if (!first && held[k].seq < last)
					bad++;
				last = held[k].seq;
				next++;
			}
			nh = 0;
			net[n++] = (struct pkt){ .at = t + 20, .m = r, .ctl = true };
		}
	}
	is(next + drop_tail, NPKT,
	   "every packet delivered (%s)", drop_tail ? "TAIL lost" : "TAIL kept");
	*out_of_order = bad;
	*reroutes = s.reroutes;
	*resumed = d.resumed;
}

static void test_flow(void)
{
	u32 bad, reroutes, resumed;

	run_flow(false, false, &bad, &reroutes, &resumed);
	ok(bad > 0, "rerouted without the destination's queue: %u packets out of order", bad);
	run_flow(false, true, &bad, &reroutes, &resumed);
	is(bad, 0, "a flow rerouted off a congested path: delivered in order");
	is(reroutes, 1, "one reroute (path 0 congested at 2 ms)");
	is(resumed, 0, "the TAIL released the queue");
	run_flow(true, true, &bad, &reroutes, &resumed);
	is(bad, 0, "TAIL lost: in order, the resume timer outlasting the old path");
	is(resumed, 1, "released by the resume timer");
}

int main(void)
{
	test_probes();
	test_reroute();
	test_no_free_path();
	test_resend_no_tail();
	test_dst();
	test_flow();
	return tap_done();
}
