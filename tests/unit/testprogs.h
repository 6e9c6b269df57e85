/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small transport programs and a loop-back receiver for the engine's unit
 * tests (the real programs live in tonic-core/programs/).
 */
#ifndef _TONIC_TESTPROGS_H
#define _TONIC_TESTPROGS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tonic.h"
#include "program.h"

/* User state of the test programs: counters the tests look at. */
struct tp_user {
	u32 n_in, n_per, n_timeouts, n_init;
	u32 consec_to;		/* timeouts in a row */
	u32 max_to;		/* fail after this many (0 = never) */
	u32 last_new_acked;
	u32 scratch;
};

static void tp_init(struct tonic_prog_ctx *c)
{
	struct tp_user *u = c->user;

	u->n_init++;
	u->max_to = 6;
}

/*
 * Fixed window (cwnd = init_cwnd): rearm on new acks; a NACK marks its
 * segment; an ACK with SACKed data above an unacked, never-retransmitted
 * wnd_start marks wnd_start (one hole per ack, NewReno-like).
 */
static void tp_win_incoming(struct tonic_prog_ctx *c)
{
	struct tp_user *u = c->user;

	u->n_in++;
	u->last_new_acked = c->new_acked;
	if (c->new_acked) {
		c->rearm_rto = true;
		u->consec_to = 0;
	}
	if (c->pkt->type == TONIC_PKT_NACK) {
		tonic_mark_rtx(c, c->pkt->nack, c->pkt->nack + 1);
		return;
	}
	if (c->highest_sent != c->wnd_start && !tonic_bm_test(c->acked, 0) &&
	    !tonic_bm_test(c->rtx_done, 0) &&
	    tonic_bm_ffs(c->acked, 1) < c->highest_sent - c->wnd_start)
		tonic_mark_rtx(c, c->wnd_start, c->wnd_start + 1);
}

static void tp_periodic(struct tonic_prog_ctx *c)
{
	struct tp_user *u = c->user;

	u->n_per++;
	if (!c->timeout)
		return;
	u->n_timeouts++;
	if (u->max_to && ++u->consec_to >= u->max_to) {
		c->fail = true;
		return;
	}
	tonic_mark_rtx(c, c->wnd_start, c->highest_sent);
}

static const struct tonic_prog_ops tp_win = {
	.name = "test-win", .credit = TONIC_CREDIT_CWND, .user_size = sizeof(struct tp_user),
	.prio = TONIC_PRIO_INCOMING, .def_cwnd = 8, .def_rto_us = 100,
	.init = tp_init, .incoming = tp_win_incoming, .periodic = tp_periodic,
};

static const struct tonic_prog_ops tp_rate = {
	.name = "test-rate", .credit = TONIC_CREDIT_RATE, .user_size = sizeof(struct tp_user),
	.prio = TONIC_PRIO_INCOMING, .def_rate_kbps = 10000000, .def_rto_us = 1000,
	.init = tp_init, .incoming = tp_win_incoming, .periodic = tp_periodic,
};

static const struct tonic_prog_ops tp_grant = {
	.name = "test-grant", .credit = TONIC_CREDIT_GRANT, .user_size = sizeof(struct tp_user),
	.prio = TONIC_PRIO_INCOMING, .def_rto_us = 100,
	.init = tp_init, .incoming = tp_win_incoming, .periodic = tp_periodic,
};

static inline struct tonic_core *tp_core(u32 flows, u32 wnd_bits, u32 ring)
{
	struct tonic_core_cfg cfg = {
		.max_flows = flows, .wnd_bits = wnd_bits, .ring_depth = ring,
		.cycle_ps = 10000,
	};

	return tonic_core_create(&cfg);
}

static inline int tp_add(struct tonic_core *tc, u32 flow, const struct tonic_prog_ops *p,
			 u32 seg_size, u32 start)
{
	struct tonic_flow_cfg fc = { .prog = p, .seg_size = seg_size, .start_seg = start };

	return tonic_flow_add(tc, flow, &fc);
}

/* Output buffers. */
#define TP_MAX_DESC	4096
#define TP_MAX_NOTE	4096
struct tp_out {
	struct tonic_desc desc[TP_MAX_DESC];
	struct tonic_note note[TP_MAX_NOTE];
	struct tonic_out o;
};

static inline void tp_out_reset(struct tp_out *t, u32 max_desc)
{
	t->o.desc = t->desc;
	t->o.note = t->note;
	t->o.ndesc = 0;
	t->o.nnote = 0;
	t->o.max_desc = max_desc > TP_MAX_DESC ? TP_MAX_DESC : max_desc;
	t->o.max_note = TP_MAX_NOTE;
}

/* The tests' one output buffer. */
static struct tp_out T;

/* Run @tc up to cycle @until into T; returns the descriptors produced. */
static inline u32 run(struct tonic_core *tc, u64 until)
{
	tp_out_reset(&T, TP_MAX_DESC);
	tonic_run(tc, until, &T.o);
	return T.o.ndesc;
}

static inline void ack(struct tonic_core *tc, u32 flow, u32 cum)
{
	struct tonic_pkt p = { .type = TONIC_PKT_ACK, .cum_ack = cum };

	tonic_incoming(tc, flow, &p);
}

static inline u32 tp_count_notes(const struct tp_out *t, u32 type)
{
	u32 i, n = 0;

	for (i = 0; i < t->o.nnote; i++)
		n += t->note[i].type == type;
	return n;
}

/* Loop-back receiver: cumulative ack plus one SACK block per data segment. */
#define TP_RX_BITS 4096
struct tp_rx {
	u32 next;
	unsigned char got[TP_RX_BITS];	/* by seg % TP_RX_BITS */
};

static inline void tp_rx_init(struct tp_rx *r, u32 start)
{
	memset(r, 0, sizeof(*r));
	r->next = start;
}

static inline void tp_rx_ack(struct tp_rx *r, u32 seg, struct tonic_pkt *a)
{
	memset(a, 0, sizeof(*a));
	a->type = TONIC_PKT_ACK;
	if (tonic_before(seg, r->next + TP_RX_BITS) && !tonic_before(seg, r->next))
		r->got[seg % TP_RX_BITS] = 1;
	while (r->got[r->next % TP_RX_BITS]) {
		r->got[r->next % TP_RX_BITS] = 0;
		r->next++;
	}
	a->cum_ack = r->next;
	if (tonic_after(seg, r->next)) {
		a->nsack = 1;
		a->sack[0].start = seg;
		a->sack[0].end = seg + 1;
	}
}

#endif /* _TONIC_TESTPROGS_H */
