// SPDX-License-Identifier: GPL-2.0
/*
 * A port: a queue in front of a link.  The link serialises one packet at a
 * time at rate_bps, then the packet propagates for `delay` to the node at
 * the far end.  Control packets and trimmed headers have their own queue,
 * served first (NDP's header queue; ACKs and CNPs are small and, in the
 * switches these protocols assume, prioritised).
 */
#include <string.h>
#include "sim.h"

void port_init(struct port *pt, const char *name, u64 rate_bps, ps_t delay, u16 to, int host)
{
	memset(pt, 0, sizeof(*pt));
	snprintf(pt->name, sizeof(pt->name), "%s", name);
	pt->rate_bps = rate_bps;
	pt->delay = delay;
	pt->to = to;
	pt->host = host;
}

static void port_start(struct port *pt)
{
	struct sim *s = sim_g;
	struct pkt *p;

	if (pt->cur)
		return;
	if (pt->hhead) {
		p = pt->hhead;
		pt->hhead = p->next;
		if (!pt->hhead)
			pt->htail = NULL;
		pt->hqlen--;
	} else if (pt->head && !pt->paused) {
		p = pt->head;
		pt->head = p->next;
		if (!pt->head)
			pt->tail = NULL;
		pt->qlen--;
		pt->qbytes -= p->wire;
	} else {
		return;
	}
	p->next = NULL;
	pt->cur = p;
	evq_push(&s->q, s->now + ser_ps(p->wire, pt->rate_bps), EV_TX_DONE, 0, pt);
	pt->busy_ps += ser_ps(p->wire, pt->rate_bps);
}

bool port_send(struct port *pt, struct pkt *p)
{
	int r = queue_admit(pt, p);

	if (r == Q_DROP) {
		pkt_free(sim_g, p);
		return false;
	}
	p->next = NULL;
	if (p->kind != PK_DATA || p->trimmed) {
		if (pt->htail)
			pt->htail->next = p;
		else
			pt->hhead = p;
		pt->htail = p;
		pt->hqlen++;
	} else {
		if (pt->tail)
			pt->tail->next = p;
		else
			pt->head = p;
		pt->tail = p;
		pt->qlen++;
		pt->qbytes += p->wire;
		if (pt->qbytes > pt->max_qbytes)
			pt->max_qbytes = pt->qbytes;
	}
	port_start(pt);
	return true;
}

void port_pause(struct port *pt, bool pause)
{
	pt->paused = pause;
	if (!pause)
		port_start(pt);
}

void port_tx_done(struct port *pt)
{
	struct sim *s = sim_g;
	struct pkt *p = pt->cur;

	pt->cur = NULL;
	pt->tx_pkts++;
	pt->tx_bytes += p->wire;
	if (pt->host < 0 && p->kind == PK_DATA && !p->trimmed)
		pfc_out(s, p);
	if (queue_lose(pt, p)) {
		pt->losses++;
		pkt_free(s, p);
	} else {
		ps_t at = s->now + pt->delay;

		/*
		 * Jitter (NIC and switch pipelines are not clockwork) breaks
		 * the phase lock of senders that are exactly as fast as the
		 * bottleneck; never reorders a link's packets.
		 */
		if (pt->jitter)
			at += rng_next(&s->rng) % pt->jitter;
		if (at < pt->last_arrival)
			at = pt->last_arrival;
		pt->last_arrival = at;
		evq_push(&s->q, at, EV_ARRIVE, pt->to, p);
	}
	port_start(pt);
	if (pt->host >= 0)
		host_nic_drained(s, &s->hosts[pt->host]);
}
