// SPDX-License-Identifier: GPL-2.0
/*
 * Priority flow control (802.1Qbb) at the switch, for the data class: the
 * bytes a host sent that are still in the switch's buffer are counted per
 * ingress port; above Xoff the switch sends that host a PAUSE, at or below
 * Xon a RESUME, each arriving one propagation delay later.  A paused NIC
 * sends no data (ACKs, NAKs and CNPs ride another class and go on), and a
 * Tonic host's transmit module stalls behind it as behind any full NIC.
 * Lossless needs headroom -- Xoff plus what arrives during the pause's
 * round trip must fit in the buffer -- which the scenario provides; a drop
 * is still counted, never prevented.
 */
#include "sim.h"

/* A data packet from @p->src was admitted to a switch queue. */
void pfc_in(struct sim *s, const struct pkt *p)
{
	struct host *h = &s->hosts[p->src];

	if (!s->pfc_xoff)
		return;
	h->pfc_bytes += p->wire;
	if (!h->pfc_paused && h->pfc_bytes > s->pfc_xoff) {
		h->pfc_paused = true;
		h->pfc_pauses++;
		evq_push(&s->q, s->now + h->nic.delay, EV_PFC_PAUSE, h->id, NULL);
	}
}

/* A data packet from @p->src left the switch. */
void pfc_out(struct sim *s, const struct pkt *p)
{
	struct host *h = &s->hosts[p->src];

	if (!s->pfc_xoff)
		return;
	h->pfc_bytes -= p->wire;
	if (h->pfc_paused && h->pfc_bytes <= s->pfc_xon) {
		h->pfc_paused = false;
		evq_push(&s->q, s->now + h->nic.delay, EV_PFC_RESUME, h->id, NULL);
	}
}

/* The PAUSE or RESUME reached the host's NIC. */
void pfc_event(struct sim *s, struct host *h, bool pause)
{
	port_pause(&h->nic, pause);
	if (!pause)
		host_nic_drained(s, h);
}
