/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test driver for transport programs: scripts events through the real
 * engine API (tonic_core_create, tonic_flow_add, tonic_push, tonic_incoming,
 * tonic_run) and logs every descriptor with the cycle it came out in.
 *
 * Two ways to use it:
 *  - scripted: ph_ack()/ph_nack()/... then ph_run(), and look at the
 *    descriptors since ph_mark() -- exact checks of one decision;
 *  - looped: ph_net_run() plays a receiver behind a fixed one-way delay
 *    that drops chosen transmissions and answers like a TCP, IRN or NDP
 *    receiver would -- end-to-end checks (everything delivered, what was
 *    retransmitted).
 */
#ifndef _TONIC_PROG_HARNESS_H
#define _TONIC_PROG_HARNESS_H

#include <stdio.h>
#include <string.h>
#include "tonic.h"
#include "program.h"
#include "programs/programs.h"
#include "tap.h"

#define PH_FLOWS	8
#define PH_LOG		65536
#define PH_SEGS		4096
#define PH_QUEUE	8192

struct ph_rec {
	struct tonic_desc d;
	u64 at;			/* cycle the descriptor came out */
};

enum ph_rx_mode {
	PH_RX_CUM = 1,		/* TCP without SACK: cumulative acks only */
	PH_RX_SACK,		/* TCP with SACK: one block, the arriving segment's run */
	PH_RX_IRN,		/* IRN: ACK in order, NACK(cum, psn) out of order */
	PH_RX_NDP,		/* NDP: ACK + SACK + pull per arrival, NACK + pull if trimmed */
	PH_RX_GBN,		/* RoCE: ACK in order, one NAK per gap, drop out of order */
};

struct ph_q {
	u64 at;
	u32 flow;
	u32 seg;
	struct tonic_pkt pkt;
};

struct ph_rx {
	u8 mode;
	u8 nak_sent;		/* GBN: a NAK for the current gap is out */
	u32 cum;
	u8 rcvd[PH_SEGS];
	u8 drop[PH_SEGS];	/* drop (NDP: trim) this many transmissions of the segment */
	u32 dup;		/* segments received twice: spurious retransmissions */
	u32 ece_every;		/* TCP: every n-th ACK carries ECE (0 = none) */
	u32 n_acks;
};

struct ph {
	struct tonic_core *tc;
	u32 wnd_bits;
	struct ph_rec log[PH_LOG];
	u32 nlog, mark;
	struct tonic_note notes[256];
	u32 nnotes;
	/* looped mode */
	u64 delay;
	struct ph_rx rx[PH_FLOWS];
	struct ph_q q_data[PH_QUEUE], q_ack[PH_QUEUE];
	u32 qd_head, qd_cnt, qa_head, qa_cnt;
	u32 fed;		/* log entries already handed to the network */
};

static struct ph ph_global;

/* An engine with @wnd_bits-bit windows and cycles of @cycle_ps picoseconds. */
static __attribute__((unused)) struct ph *ph_new_ps(u32 wnd_bits, u32 cycle_ps)
{
	struct ph *ph = &ph_global;
	struct tonic_core_cfg cfg = {
		.max_flows = PH_FLOWS,
		.wnd_bits = wnd_bits,
		.ring_depth = TONIC_RING_DEFAULT,
		.cycle_ps = cycle_ps,
	};

	if (ph->tc)
		tonic_core_destroy(ph->tc);
	memset(ph, 0, sizeof(*ph));
	ph->wnd_bits = wnd_bits;
	ph->tc = tonic_core_create(&cfg);
	if (!ph->tc) {
		printf("Bail out! tonic_core_create failed\n");
		exit(1);
	}
	return ph;
}

/* ... of 10 ns, as the hardware's. */
static __attribute__((unused)) struct ph *ph_new(u32 wnd_bits)
{
	return ph_new_ps(wnd_bits, 10000);
}

static __attribute__((unused)) void ph_free(struct ph *ph)
{
	if (ph->tc)
		tonic_core_destroy(ph->tc);
	ph->tc = NULL;
}

/* A flow cfg with the harness defaults: 1000 B segments, window = bitmap. */
static __attribute__((unused)) struct tonic_flow_cfg ph_cfg(const struct tonic_prog_ops *prog)
{
	struct tonic_flow_cfg c = {
		.prog = prog,
		.seg_size = 1000,
		.wnd_segs = ph_global.wnd_bits ? ph_global.wnd_bits : 128,
	};
	return c;
}

static __attribute__((unused)) int ph_add(struct ph *ph, u32 flow, const struct tonic_flow_cfg *c)
{
	int err = tonic_flow_add(ph->tc, flow, c);

	if (err)
		diag("tonic_flow_add(%u, %s) = %d", flow, c->prog ? c->prog->name : "?", err);
	return err;
}

/* Announce segments up to @tail, all full 1000 B ones. */
static __attribute__((unused)) int ph_push(struct ph *ph, u32 flow, u32 tail)
{
	int err = tonic_push(ph->tc, flow, tail, 1000);

	if (err)
		diag("tonic_push(%u, %u) = %d", flow, tail, err);
	return err;
}

static inline u64 ph_now(struct ph *ph)
{
	return tonic_now(ph->tc);
}

/*
 * Run the engine through cycle @until, one descriptor per tonic_run() so
 * each one's cycle is known exactly.
 */
static __attribute__((unused)) void ph_run_to(struct ph *ph, u64 until)
{
	struct tonic_desc d;
	struct tonic_note n[TONIC_NOTES_PER_CYCLE * 4];
	struct tonic_out out;
	u32 i;

	while (tonic_now(ph->tc) <= until) {
		memset(&out, 0, sizeof(out));
		out.desc = &d;
		out.max_desc = 1;
		out.note = n;
		out.max_note = ARRAY_SIZE(n);
		tonic_run(ph->tc, until, &out);
		if (out.ndesc && ph->nlog < PH_LOG) {
			ph->log[ph->nlog].d = d;
			ph->log[ph->nlog].at = tonic_now(ph->tc) - 1;
			ph->nlog++;
		}
		for (i = 0; i < out.nnote && ph->nnotes < ARRAY_SIZE(ph->notes); i++)
			ph->notes[ph->nnotes++] = n[i];
		if (!out.ndesc && !out.nnote && tonic_now(ph->tc) <= until) {
			/* Nothing came out yet the run stopped short: avoid spinning. */
			if (tonic_next_cycle(ph->tc) > until)
				break;
		}
	}
}

static __attribute__((unused)) void ph_run(struct ph *ph, u64 cycles)
{
	ph_run_to(ph, ph_now(ph) + cycles);
}

/*
 * A new harness whose flow 0 runs @prog with an initial window of
 * @init_cwnd and an RTO far away, @tail segments announced, its first
 * window out.
 */
static __attribute__((unused)) struct ph *ph_tcp_flow(const struct tonic_prog_ops *prog,
						       u32 init_cwnd, u32 tail)
{
	struct ph *ph = ph_new(128);
	struct tonic_flow_cfg c = ph_cfg(prog);

	c.init_cwnd = init_cwnd;
	c.rto_cycles = 100000000;
	ph_add(ph, 0, &c);
	ph_push(ph, 0, tail);
	ph_run(ph, 2000);
	return ph;
}

/* Start a new observation window over the descriptor log. */
static __attribute__((unused)) void ph_mark(struct ph *ph)
{
	ph->mark = ph->nlog;
}

/* Descriptors of @flow since the mark; @rtx: -1 any, 0 new only, 1 rtx only. */
static __attribute__((unused)) u32 ph_count(struct ph *ph, u32 flow, int rtx)
{
	u32 i, n = 0;

	for (i = ph->mark; i < ph->nlog; i++) {
		const struct tonic_desc *d = &ph->log[i].d;

		if (d->flow != flow)
			continue;
		if (rtx >= 0 && !!(d->flags & TONIC_DESC_RTX) != rtx)
			continue;
		n++;
	}
	return n;
}

/* The @k-th descriptor of @flow since the mark (rtx filter as ph_count), or NULL. */
static __attribute__((unused)) const struct ph_rec *ph_nth(struct ph *ph, u32 flow, int rtx, u32 k)
{
	u32 i;

	for (i = ph->mark; i < ph->nlog; i++) {
		const struct tonic_desc *d = &ph->log[i].d;

		if (d->flow != flow)
			continue;
		if (rtx >= 0 && !!(d->flags & TONIC_DESC_RTX) != rtx)
			continue;
		if (!k--)
			return &ph->log[i];
	}
	return NULL;
}

/* How often segment @seg of @flow went out since the mark. */
static __attribute__((unused)) u32 ph_seg_sent(struct ph *ph, u32 flow, u32 seg)
{
	u32 i, n = 0;

	for (i = ph->mark; i < ph->nlog; i++)
		if (ph->log[i].d.flow == flow && ph->log[i].d.seg == seg)
			n++;
	return n;
}

static __attribute__((unused)) struct tonic_flow_stats ph_stats(struct ph *ph, u32 flow)
{
	struct tonic_flow_stats st;

	memset(&st, 0, sizeof(st));
	tonic_flow_stats(ph->tc, flow, &st);
	return st;
}

static __attribute__((unused)) int ph_in(struct ph *ph, u32 flow, const struct tonic_pkt *p)
{
	int err = tonic_incoming(ph->tc, flow, p);

	if (err)
		diag("tonic_incoming(%u) = %d", flow, err);
	return err;
}

static __attribute__((unused)) int ph_ack(struct ph *ph, u32 flow, u32 cum)
{
	struct tonic_pkt p = { .type = TONIC_PKT_ACK, .cum_ack = cum };

	return ph_in(ph, flow, &p);
}

/* ACK with one SACK block [s, e). */
static __attribute__((unused)) int ph_sack(struct ph *ph, u32 flow, u32 cum, u32 s, u32 e)
{
	struct tonic_pkt p = { .type = TONIC_PKT_ACK, .cum_ack = cum, .nsack = 1 };

	p.sack[0].start = s;
	p.sack[0].end = e;
	return ph_in(ph, flow, &p);
}

/* IRN NACK: cumulative ack plus the PSN that triggered it (as a SACK block). */
static __attribute__((unused)) int ph_irn_nack(struct ph *ph, u32 flow, u32 cum, u32 psn)
{
	struct tonic_pkt p = { .type = TONIC_PKT_NACK, .cum_ack = cum, .nack = psn, .nsack = 1 };

	p.sack[0].start = psn;
	p.sack[0].end = psn + 1;
	return ph_in(ph, flow, &p);
}

/* NACK naming a segment that did not arrive (NDP trim, RoCE NAK). */
static __attribute__((unused)) int ph_nack(struct ph *ph, u32 flow, u32 cum, u32 seg)
{
	struct tonic_pkt p = { .type = TONIC_PKT_NACK, .cum_ack = cum, .nack = seg };

	return ph_in(ph, flow, &p);
}

static __attribute__((unused)) int ph_cnp(struct ph *ph, u32 flow)
{
	struct tonic_pkt p = { .type = TONIC_PKT_CNP, .flags = TONIC_PKT_F_NO_CUM };

	return ph_in(ph, flow, &p);
}

static __attribute__((unused)) int ph_grant(struct ph *ph, u32 flow, u32 bytes)
{
	struct tonic_pkt p = { .type = TONIC_PKT_GRANT, .flags = TONIC_PKT_F_NO_CUM, .grant = bytes };

	return ph_in(ph, flow, &p);
}

/* ---- looped mode: a receiver behind a fixed one-way delay ---- */

static __attribute__((unused)) void ph_net(struct ph *ph, u32 flow, enum ph_rx_mode mode, u64 delay)
{
	memset(&ph->rx[flow], 0, sizeof(ph->rx[flow]));
	ph->rx[flow].mode = mode;
	ph->delay = delay;
	ph->fed = ph->nlog;
}

static void ph_q_push(struct ph_q *q, u32 *head, u32 *cnt, const struct ph_q *e)
{
	if (*cnt >= PH_QUEUE) {
		diag("harness queue full");
		return;
	}
	q[(*head + *cnt) % PH_QUEUE] = *e;
	(*cnt)++;
}

static void ph_reply(struct ph *ph, u32 flow, u64 at, const struct tonic_pkt *p)
{
	struct ph_q e = { .at = at + ph->delay, .flow = flow, .pkt = *p };

	ph_q_push(ph->q_ack, &ph->qa_head, &ph->qa_cnt, &e);
}

/* The receiver sees data segment @seg of @flow at cycle @at (trimmed: header only). */
static void ph_rx_data(struct ph *ph, u32 flow, u32 seg, u64 at, bool trimmed)
{
	struct ph_rx *rx = &ph->rx[flow];
	struct tonic_pkt p = { .type = TONIC_PKT_ACK };
	u32 s, e;

	if (seg >= PH_SEGS)
		return;
	if (rx->mode == PH_RX_NDP) {
		struct tonic_pkt g = { .type = TONIC_PKT_GRANT, .flags = TONIC_PKT_F_NO_CUM,
				       .grant = 1000 };

		if (trimmed) {
			p.type = TONIC_PKT_NACK;
			p.cum_ack = rx->cum;
			p.nack = seg;
			ph_reply(ph, flow, at, &p);
			ph_reply(ph, flow, at, &g);
			return;
		}
		ph_reply(ph, flow, at, &g);
	}
	if (rx->mode == PH_RX_GBN && seg != rx->cum) {
		/* RoCE drops out-of-order packets and NAKs the first of a gap. */
		if (tonic_after(seg, rx->cum) && !rx->nak_sent) {
			rx->nak_sent = 1;
			p.type = TONIC_PKT_NACK;
			p.cum_ack = rx->cum;
			p.nack = rx->cum;
			ph_reply(ph, flow, at, &p);
		}
		return;
	}
	if (rx->rcvd[seg])
		rx->dup++;
	rx->rcvd[seg] = 1;
	while (rx->cum < PH_SEGS && rx->rcvd[rx->cum]) {
		rx->cum++;
		rx->nak_sent = 0;
	}
	p.cum_ack = rx->cum;
	switch (rx->mode) {
	case PH_RX_SACK:
	case PH_RX_NDP:
		if (seg >= rx->cum) {
			for (s = seg; s > rx->cum && rx->rcvd[s - 1]; s--)
				;
			for (e = seg; e < PH_SEGS && rx->rcvd[e]; e++)
				;
			p.nsack = 1;
			p.sack[0].start = s;
			p.sack[0].end = e;
		}
		break;
	case PH_RX_IRN:
		if (seg > rx->cum) {
			p.type = TONIC_PKT_NACK;
			p.nack = seg;
			p.nsack = 1;
			p.sack[0].start = seg;
			p.sack[0].end = seg + 1;
		}
		break;
	default:
		break;
	}
	if (rx->ece_every && ++rx->n_acks % rx->ece_every == 0)
		p.flags |= TONIC_PKT_F_ECE;
	ph_reply(ph, flow, at, &p);
}

/* Hand new descriptors to the network, then deliver what is due by @now. */
static void ph_net_pump(struct ph *ph, u64 now)
{
	while (ph->fed < ph->nlog) {
		const struct ph_rec *r = &ph->log[ph->fed++];
		struct ph_rx *rx = &ph->rx[r->d.flow];
		struct ph_q e = { .at = r->at + ph->delay, .flow = r->d.flow, .seg = r->d.seg };

		if (r->d.flow >= PH_FLOWS || !rx->mode)
			continue;
		if (r->d.seg < PH_SEGS && rx->drop[r->d.seg]) {
			rx->drop[r->d.seg]--;
			if (rx->mode != PH_RX_NDP)
				continue;
			e.pkt.flags = 1;	/* trimmed */
		}
		ph_q_push(ph->q_data, &ph->qd_head, &ph->qd_cnt, &e);
	}
	while (ph->qd_cnt && ph->q_data[ph->qd_head].at <= now) {
		struct ph_q *e = &ph->q_data[ph->qd_head];

		ph->qd_head = (ph->qd_head + 1) % PH_QUEUE;
		ph->qd_cnt--;
		ph_rx_data(ph, e->flow, e->seg, e->at, e->pkt.flags);
	}
	while (ph->qa_cnt && ph->q_ack[ph->qa_head].at <= now) {
		struct ph_q *e = &ph->q_ack[ph->qa_head];

		if (tonic_incoming(ph->tc, e->flow, &e->pkt) == -ENOBUFS)
			break;
		ph->qa_head = (ph->qa_head + 1) % PH_QUEUE;
		ph->qa_cnt--;
	}
}

/*
 * Run the engine and the network through cycle @until, or until @flow has
 * every segment up to @done cumulatively acked.  Returns true if it has.
 */
static __attribute__((unused)) bool ph_net_run(struct ph *ph, u32 flow, u32 done, u64 until)
{
	while (ph_now(ph) <= until) {
		u64 t = until;
		struct tonic_flow_stats st;

		ph_net_pump(ph, ph_now(ph) ? ph_now(ph) - 1 : 0);
		st = ph_stats(ph, flow);
		if (!tonic_before(st.wnd_start, done))
			return true;
		if (st.state & TONIC_FLOW_FAILED)
			return false;
		if (ph->qd_cnt && ph->q_data[ph->qd_head].at < t)
			t = ph->q_data[ph->qd_head].at;
		if (ph->qa_cnt && ph->q_ack[ph->qa_head].at < t)
			t = ph->q_ack[ph->qa_head].at;
		/* What goes out in this step must not arrive before it ends. */
		if (t > ph_now(ph) + ph->delay)
			t = ph_now(ph) + ph->delay;
		if (t < ph_now(ph))
			t = ph_now(ph);
		/* One descriptor per step keeps the feed exact; idle gaps are skipped. */
		ph_run_to(ph, t);
	}
	return !tonic_before(ph_stats(ph, flow).wnd_start, done);
}

#endif /* _TONIC_PROG_HARNESS_H */
