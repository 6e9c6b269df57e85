// SPDX-License-Identifier: GPL-2.0
/*
 * Receivers: what each program expects to hear back.
 *
 *  RX_TCP  cumulative ACKs, optionally one SACK block (the run holding the
 *          arriving segment, RFC 2018's first block), optionally delayed
 *          (every `delack` in-order segments or after delack_to; anything
 *          out of order, or filling a hole, is acked at once, RFC 5681 4.2);
 *          ECE echoed on the ACK covering a CE-marked segment.
 *  RX_IRN  ACK for in-order packets, NACK(cum, PSN) for each out-of-order
 *          one (IRN's one-block SACK), out-of-order data kept.
 *  RX_GBN  RoCE: ACK in order (every `ack_every`, and at the end), one NAK
 *          per gap naming the expected PSN, out-of-order packets dropped.
 *  RX_NDP  ACK + SACK per packet, NACK for a trimmed header; every arrival
 *          queues one pull, and a per-receiver pacer sends pulls (GRANTs of
 *          one segment) at the receiver's link rate.
 * Independently of the mode: a RoCE notification point sends a CNP for a
 * CE-marked packet at most every cnp_gap per flow (DCQCN: 50 us), and an
 * IB channel adapter answers each FECN-marked packet with a BECN (a CNP).
 */
#include <stdlib.h>
#include "sim.h"

#define CTL_WIRE	64

void rx_init(struct flow *f)
{
	f->rx.got = calloc(SIM_RX_RING / 8, 1);
	if (!f->rx.got)
		abort();
}

static bool got(const struct rx *rx, u32 seg)
{
	u32 i = seg % SIM_RX_RING;

	return rx->got[i / 8] & (1u << (i % 8));
}

static void set_got(struct rx *rx, u32 seg, bool v)
{
	u32 i = seg % SIM_RX_RING;

	if (v)
		rx->got[i / 8] |= 1u << (i % 8);
	else
		rx->got[i / 8] &= ~(1u << (i % 8));
}

static void rx_reply(struct sim *s, struct flow *f, const struct tonic_pkt *ctl, u8 kind)
{
	struct pkt *p = pkt_alloc(s);

	p->kind = kind;
	p->src = f->dst;
	p->dst = f->src;
	p->flow = f->id;
	p->wire = CTL_WIRE;
	p->sent_at = s->now;
	p->ctl = *ctl;
	port_send(&s->hosts[f->dst].nic, p);
}

static void rx_ack(struct sim *s, struct flow *f, u32 seg, bool with_sack, bool ece)
{
	struct rx *rx = &f->rx;
	struct tonic_pkt a = { .type = TONIC_PKT_ACK, .cum_ack = rx->cum };
	u32 st, en;

	if (ece)
		a.flags |= TONIC_PKT_F_ECE;
	if (with_sack && tonic_after(seg, rx->cum) && got(rx, seg)) {
		for (st = seg; tonic_after(st, rx->cum) && got(rx, st - 1); st--)
			;
		for (en = seg + 1; tonic_before(en, rx->hi) && got(rx, en); en++)
			;
		a.nsack = 1;
		a.sack[0].start = st;
		a.sack[0].end = en;
	}
	rx->pending = 0;
	rx->delack_armed = 0;
	rx_reply(s, f, &a, PK_ACK);
}

/* Accept @seg; returns how far the cumulative point moved. */
static u32 rx_accept(struct sim *s, struct flow *f, u32 seg)
{
	struct rx *rx = &f->rx;
	u32 old = rx->cum;

	if (tonic_before(seg, rx->cum) || got(rx, seg)) {
		rx->dups++;
		return 0;
	}
	if (seg - rx->cum >= SIM_RX_RING)
		return 0;	/* beyond what the receiver can track: drop */
	set_got(rx, seg, true);
	if (tonic_after(seg + 1, rx->hi))
		rx->hi = seg + 1;
	while (got(rx, rx->cum)) {
		set_got(rx, rx->cum, false);
		rx->cum++;
	}
	if (rx->cum != old) {
		rx->bytes += (u64)(rx->cum - old) * f->seg_size;
		if (f->size && rx->cum >= f->size && !rx->done_at) {
			rx->done_at = s->now;
			f->fct = s->now - f->start;
			f->done = 1;
		}
	} else {
		rx->ooo++;
	}
	return rx->cum - old;
}

static void rx_tcp(struct sim *s, struct flow *f, struct pkt *p)
{
	struct rx *rx = &f->rx;
	bool hole_before = rx->hi != rx->cum;
	bool dup = tonic_before(p->seg, rx->cum) || got(rx, p->seg);
	u32 adv = rx_accept(s, f, p->seg);

	if (p->ce || dup || !adv || hole_before || rx->delack <= 1) {
		rx_ack(s, f, p->seg, rx->sack, p->ce);
		return;
	}
	rx->pending += adv;
	if (rx->pending >= rx->delack) {
		rx_ack(s, f, p->seg, false, false);
		return;
	}
	if (!rx->delack_armed) {
		rx->delack_armed = 1;
		rx->delack_at = s->now + rx->delack_to;
		evq_push(&s->q, rx->delack_at, EV_DELACK, f->id, NULL);
	}
}

void rx_delack(struct sim *s, struct flow *f, ps_t t)
{
	if (f->rx.delack_armed && t == f->rx.delack_at && f->rx.pending)
		rx_ack(s, f, f->rx.cum, false, false);
}

static void rx_irn(struct sim *s, struct flow *f, struct pkt *p)
{
	struct rx *rx = &f->rx;
	u32 before = rx->cum;
	u32 adv = rx_accept(s, f, p->seg);

	if (tonic_after(p->seg, before) && !adv) {
		struct tonic_pkt n = { .type = TONIC_PKT_NACK, .cum_ack = rx->cum, .nack = p->seg,
				       .nsack = 1 };

		n.sack[0].start = p->seg;
		n.sack[0].end = p->seg + 1;
		rx_reply(s, f, &n, PK_NACK);
		return;
	}
	rx->pending += adv;
	if (!adv || rx->pending >= rx->ack_every || (f->size && rx->cum >= f->size) ||
	    rx->hi != rx->cum || adv > 1)
		rx_ack(s, f, p->seg, false, false);
}

static void rx_gbn(struct sim *s, struct flow *f, struct pkt *p)
{
	struct rx *rx = &f->rx;

	if (tonic_after(p->seg, rx->cum)) {
		/* RoCE drops out-of-order packets, NAKs the first of a gap. */
		if (!rx->nak_sent) {
			struct tonic_pkt n = { .type = TONIC_PKT_NACK, .cum_ack = rx->cum,
					       .nack = rx->cum };

			rx->nak_sent = 1;
			rx_reply(s, f, &n, PK_NACK);
		}
		rx->ooo++;
		return;
	}
	if (tonic_before(p->seg, rx->cum)) {
		rx->dups++;
		rx_ack(s, f, p->seg, false, false);
		return;
	}
	rx_accept(s, f, p->seg);
	rx->nak_sent = 0;
	if (++rx->pending >= rx->ack_every || (f->size && rx->cum >= f->size))
		rx_ack(s, f, p->seg, false, false);
}

static void pull_enqueue(struct sim *s, struct flow *f)
{
	struct host *h = &s->hosts[f->dst];

	if (h->pull_cnt == h->pull_cap) {
		u32 nc = h->pull_cap ? 2 * h->pull_cap : 1024, i;
		u32 *q = malloc(nc * sizeof(*q));

		if (!q)
			abort();
		for (i = 0; i < h->pull_cnt; i++)
			q[i] = h->pullq[(h->pull_head + i) % h->pull_cap];
		free(h->pullq);
		h->pullq = q;
		h->pull_cap = nc;
		h->pull_head = 0;
	}
	h->pullq[(h->pull_head + h->pull_cnt++) % h->pull_cap] = f->id;
	if (!h->pull_armed) {
		ps_t t = h->pull_next > s->now ? h->pull_next : s->now;

		h->pull_armed = 1;
		evq_push(&s->q, t, EV_PULL, h->id, NULL);
	}
}

/* The NDP pull pacer: one pull per data packet time of the receiver's link. */
void rx_pull(struct sim *s, struct host *h, ps_t t)
{
	struct flow *f;
	struct tonic_pkt g = { .type = TONIC_PKT_GRANT, .flags = TONIC_PKT_F_NO_CUM };

	h->pull_armed = 0;
	if (!h->pull_cnt)
		return;
	f = s->flows[h->pullq[h->pull_head]];
	h->pull_head = (h->pull_head + 1) % h->pull_cap;
	h->pull_cnt--;
	g.grant = f->seg_size;
	rx_reply(s, f, &g, PK_GRANT);
	h->pull_next = t + ser_ps(f->seg_size + f->hdr, s->down[h->id].rate_bps);
	if (h->pull_cnt) {
		h->pull_armed = 1;
		evq_push(&s->q, h->pull_next, EV_PULL, h->id, NULL);
	}
}

static void rx_ndp(struct sim *s, struct flow *f, struct pkt *p)
{
	struct rx *rx = &f->rx;

	if (p->trimmed) {
		struct tonic_pkt n = { .type = TONIC_PKT_NACK, .cum_ack = rx->cum, .nack = p->seg };

		rx->trims++;
		rx_reply(s, f, &n, PK_NACK);
	} else {
		rx_accept(s, f, p->seg);
		rx_ack(s, f, p->seg, true, false);
	}
	if (!f->size || tonic_before(rx->cum, f->size))
		pull_enqueue(s, f);
}

void rx_data(struct sim *s, struct flow *f, struct pkt *p)
{
	struct rx *rx = &f->rx;

	rx->pkts++;
	if (p->ce) {
		rx->ce++;
		if (rx->cnp_on_ce && (!rx->last_cnp || s->now - rx->last_cnp >= rx->cnp_gap)) {
			struct tonic_pkt c = { .type = TONIC_PKT_CNP, .flags = TONIC_PKT_F_NO_CUM };

			rx->last_cnp = s->now;
			rx->cnps++;
			rx_reply(s, f, &c, PK_CNP);
		}
	}
	if (p->fecn) {
		rx->fecn++;
		if (rx->becn_on_fecn) {
			struct tonic_pkt c = { .type = TONIC_PKT_CNP, .flags = TONIC_PKT_F_NO_CUM };

			rx->cnps++;
			rx_reply(s, f, &c, PK_CNP);
		}
	}
	switch (rx->mode) {
	case RX_TCP:
		rx_tcp(s, f, p);
		break;
	case RX_IRN:
		rx_irn(s, f, p);
		break;
	case RX_GBN:
		rx_gbn(s, f, p);
		break;
	case RX_NDP:
		rx_ndp(s, f, p);
		break;
	}
}
