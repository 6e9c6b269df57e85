// SPDX-License-Identifier: GPL-2.0
/*
 * Queue admission at an egress port, decided when a packet arrives:
 * drop-tail against the buffer, or NDP trimming (keep the header, cut the
 * payload, send the header ahead); RED-style ECN marking between kmin and
 * kmax (DCQCN's switch: probability 0 at kmin rising to pmax at kmax, 1
 * above); IB FECN marking above a threshold at a configured rate.  Random
 * loss is applied when the packet leaves (queue_lose), so a lost packet
 * still used the link, as one corrupted on the wire does.
 */
#include "sim.h"

int queue_admit(struct port *pt, struct pkt *p)
{
	const struct aqm *a = &pt->aqm;
	u64 q = pt->qbytes;

	if (p->kind != PK_DATA || p->trimmed)
		return Q_ACCEPT;
	if (a->cap_bytes && q + p->wire > a->cap_bytes) {
		if (a->trim && p->wire > a->trim) {
			p->trimmed = 1;
			p->wire = a->trim;
			pt->trims++;
			return Q_TRIM;
		}
		pt->drops++;
		return Q_DROP;
	}
	if (a->ecn_kmax) {
		bool mark = false;

		if (q >= a->ecn_kmax)
			mark = true;
		else if (q > a->ecn_kmin)
			mark = rng_unit(&sim_g->rng) <
			       a->ecn_pmax * (double)(q - a->ecn_kmin) / (double)(a->ecn_kmax - a->ecn_kmin);
		if (mark) {
			p->ce = 1;
			pt->ecn_marks++;
		}
	}
	if (a->fecn_thresh && q > a->fecn_thresh &&
	    (a->fecn_prob >= 1.0 || rng_unit(&sim_g->rng) < a->fecn_prob)) {
		p->fecn = 1;
		pt->fecn_marks++;
	}
	return Q_ACCEPT;
}

bool queue_lose(struct port *pt, const struct pkt *p)
{
	const struct aqm *a = &pt->aqm;

	if (p->kind != PK_DATA || p->trimmed || a->loss <= 0)
		return false;
	if (a->loss_hash)
		return hash_unit(sim_g->seed, sim_g->flows[p->flow]->lkey, p->seg, p->txn) < a->loss;
	return rng_unit(&sim_g->rng) < a->loss;
}
