// SPDX-License-Identifier: GPL-2.0
/*
 * The reference: TCP NewReno written directly from RFC 5681 and RFC 6582,
 * in the style of a host stack (ns-3's TcpNewReno / Linux's reno), sharing
 * no code with tonic-core.  It is what Tonic's `newreno` program is
 * compared against in the fidelity scenario.  Segment-granular: cwnd and
 * ssthresh in segments, like tonic-core's window scheme.
 *
 *  - slow start: cwnd += segments acked (ns-3 / Linux without ABC limit),
 *    congestion avoidance: +1 per cwnd segments acked (tcp_cong_avoid_ai);
 *  - three duplicate ACKs covering more than `recover` (6582 3.2 (2)):
 *    ssthresh = max(FlightSize / 2, 2), recover = highest sent,
 *    retransmit, cwnd = ssthresh + 3; each further dupack inflates by one;
 *  - partial ack: retransmit the next unacked segment, deflate cwnd by the
 *    amount acked and add one (6582 3.2 (5));
 *  - full ack: cwnd = min(ssthresh, FlightSize + 1), leave recovery;
 *  - RTO (RFC 6298, fixed base as Linux's RTOmin dominates at 10 us RTTs):
 *    ssthresh from the flight, cwnd = 1, go back to the first unacked
 *    segment, double the RTO.
 * The window is capped at the same bitmap size Tonic has (wnd_bits), so
 * both see the same maximum window.
 */
#include <stdlib.h>
#include "sim.h"

struct refnr {
	u32 una, nxt, high;	/* high: one past the highest segment ever sent */
	u32 cwnd, ssthresh, cnt, dupacks, recover;
	u8 in_fr;
	u32 backoff;
	ps_t rto, rto_at;
};

u32 ref_cwnd(const struct flow *f)
{
	return f->ref ? f->ref->cwnd : 0;
}

u32 ref_una(const struct flow *f)
{
	return f->ref ? f->ref->una : 0;
}

u32 ref_nxt(const struct flow *f)
{
	return f->ref ? f->ref->high : 0;
}

/*
 * Segment @seg of a reference sender's flow @f onto its host's NIC,
 * counted and traced; a retransmission when below *@high, which moves
 * past it.  Both references (this one and refdcqcn.c) send through it.
 */
void ref_data_xmit(struct sim *s, struct flow *f, u32 seg, u32 *high)
{
	struct pkt *p = pkt_alloc(s);

	p->kind = PK_DATA;
	p->src = f->src;
	p->dst = f->dst;
	p->flow = f->id;
	p->seg = seg;
	p->len = f->seg_size;
	p->wire = f->seg_size + f->hdr;
	p->rtx = tonic_before(seg, *high);
	p->txn = host_next_txn(f, seg);
	p->sent_at = s->now;
	f->tx_pkts++;
	if (p->rtx)
		f->rtx_pkts++;
	if (f->trace)
		trace_seq(s, f, seg, p->rtx);
	port_send(&s->hosts[f->src].nic, p);
	if (tonic_after(seg + 1, *high))
		*high = seg + 1;
}

static void ref_xmit(struct sim *s, struct flow *f, u32 seg)
{
	struct refnr *r = f->ref;

	ref_data_xmit(s, f, seg, &r->high);
	if (r->rto_at == PS_NONE) {
		r->rto_at = s->now + (r->rto << r->backoff);
		evq_push(&s->q, r->rto_at, EV_REF_RTO, f->id, NULL);
	}
}

static void ref_restart_timer(struct sim *s, struct flow *f)
{
	struct refnr *r = f->ref;

	if (r->una == r->high) {
		r->rto_at = PS_NONE;
		return;
	}
	r->rto_at = s->now + (r->rto << r->backoff);
	evq_push(&s->q, r->rto_at, EV_REF_RTO, f->id, NULL);
}

/*
 * Host side, like Linux's TSQ + fq: a flow puts at most one packet at a
 * time into the NIC queue while it holds fewer than sim_nic_q() packets;
 * flows with an open window wait in a per-host queue and the NIC serves them
 * round robin as it drains.  (Tonic does the same with its round-robin ready
 * set, its transmit module stalled while the NIC is full.)
 */

static bool ref_can_send(struct sim *s, struct flow *f)
{
	struct refnr *r = f->ref;
	u32 wnd = r->cwnd < s->wnd_bits ? r->cwnd : s->wnd_bits;

	return f->active && r->nxt - r->una < wnd && (!f->size || r->nxt < f->size);
}

void ref_queue(struct sim *s, struct flow *f)
{
	struct host *h = &s->hosts[f->src];

	if (f->ref_queued)
		return;
	if (h->ref_cnt == h->ref_cap) {
		u32 nc = h->ref_cap ? 2 * h->ref_cap : 256, i;
		u32 *q = malloc(nc * sizeof(*q));

		if (!q)
			abort();
		for (i = 0; i < h->ref_cnt; i++)
			q[i] = h->refq[(h->ref_head + i) % h->ref_cap];
		free(h->refq);
		h->refq = q;
		h->ref_cap = nc;
		h->ref_head = 0;
	}
	h->refq[(h->ref_head + h->ref_cnt++) % h->ref_cap] = f->id;
	f->ref_queued = 1;
}

void ref_nic_drained(struct sim *s, struct host *h)
{
	while (h->ref_cnt && h->nic.qlen < sim_nic_q(s)) {
		struct flow *f = s->flows[h->refq[h->ref_head]];

		h->ref_head = (h->ref_head + 1) % h->ref_cap;
		h->ref_cnt--;
		f->ref_queued = 0;
		if (f->refdq) {
			/* A DCQCN reference QP: one packet, then back in line. */
			if (!refdq_can_send(s, f))
				continue;
			refdq_send(s, f);
			continue;
		}
		if (!ref_can_send(s, f))
			continue;
		ref_xmit(s, f, f->ref->nxt);
		f->ref->nxt++;
		if (ref_can_send(s, f))
			ref_queue(s, f);
	}
}

static void ref_send_some(struct sim *s, struct flow *f)
{
	if (ref_can_send(s, f))
		ref_queue(s, f);
	ref_nic_drained(s, &s->hosts[f->src]);
}

void ref_start(struct sim *s, struct flow *f)
{
	struct refnr *r = calloc(1, sizeof(*r));

	if (!r)
		abort();
	f->ref = r;
	r->cwnd = f->cfg.init_cwnd ? f->cfg.init_cwnd : 10;
	r->ssthresh = s->wnd_bits;
	r->rto = (ps_t)(f->cfg.rto_cycles ? f->cfg.rto_cycles : 20000000) * s->cycle_ps;
	r->rto_at = PS_NONE;
	ref_send_some(s, f);
}

static void ref_grow(struct refnr *r, u32 acked)
{
	if (r->cwnd < r->ssthresh) {
		u32 ss = acked < r->ssthresh - r->cwnd ? acked : r->ssthresh - r->cwnd;

		r->cwnd += ss;
		acked -= ss;
	}
	r->cnt += acked;
	if (r->cnt >= r->cwnd) {
		u32 w = r->cwnd;

		r->cwnd += r->cnt / w;
		r->cnt %= w;
	}
}

void ref_incoming(struct sim *s, struct flow *f, struct pkt *p)
{
	struct refnr *r = f->ref;
	u32 a = p->ctl.cum_ack, acked, flight;

	if (!f->active || !r || p->ctl.type != TONIC_PKT_ACK)
		return;
	if (tonic_after(a, r->high))
		return;
	if (tonic_after(a, r->una)) {
		acked = a - r->una;
		r->una = a;
		if (tonic_before(r->nxt, a))
			r->nxt = a;
		r->backoff = 0;
		r->dupacks = 0;
		if (r->in_fr) {
			if (!tonic_before(a, r->recover)) {
				flight = r->high - r->una + 1;
				r->cwnd = flight < r->ssthresh ? flight : r->ssthresh;
				r->in_fr = 0;
			} else {
				ref_xmit(s, f, r->una);
				r->cwnd = r->cwnd > acked ? r->cwnd - acked + 1 : 1;
			}
		} else {
			ref_grow(r, acked);
		}
		ref_restart_timer(s, f);
	} else if (a == r->una && r->high != r->una) {
		if (r->in_fr) {
			r->cwnd++;
		} else if (++r->dupacks == 3 && !tonic_before(a, r->recover)) {
			flight = r->high - r->una;
			r->ssthresh = flight / 2 > 2 ? flight / 2 : 2;
			r->recover = r->high;
			r->in_fr = 1;
			r->cnt = 0;
			r->cwnd = r->ssthresh + 3;
			ref_xmit(s, f, r->una);
		}
	}
	if (f->size && r->una == f->size) {
		f->active = 0;
		return;
	}
	ref_send_some(s, f);
}

void ref_rto(struct sim *s, struct flow *f, ps_t t)
{
	struct refnr *r = f->ref;
	u32 flight;

	if (!r || !f->active || t != r->rto_at)
		return;
	r->rto_at = PS_NONE;
	if (r->una == r->high)
		return;
	f->ref_timeouts++;
	flight = r->high - r->una;
	r->ssthresh = flight / 2 > 2 ? flight / 2 : 2;
	r->cwnd = 1;
	r->cnt = 0;
	r->recover = r->high;
	r->in_fr = 0;
	r->dupacks = 0;
	r->nxt = r->una;
	if (r->backoff < 6)
		r->backoff++;
	ref_send_some(s, f);
	if (r->rto_at == PS_NONE)
		ref_restart_timer(s, f);
}
