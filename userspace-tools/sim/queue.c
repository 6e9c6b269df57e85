// SPDX-License-Identifier: GPL-2.0
/*
 * Queue admission at an egress port, decided when a packet arrives:
 * drop-tail against the buffer, or NDP trimming (keep the header, cut the
 * payload, send the header ahead); RED-style ECN marking between kmin and
 * kmax (DCQCN's switch: probability 0 at kmin rising to pmax at kmax, 1
 * above); IB FECN marking above a threshold at a configured rate.  Random
 * loss is applied when the packet leaves (queue_lose), so a lost packet
 * still used the link, as one corrupted on the wire does.  A flow with a
 * loss list (loss_list=FILE: a loss pattern recorded elsewhere, e.g. from
 * a Linux kernel trace) loses exactly the listed transmissions at the
 * switch port, and nothing at random.
 */
#include <stdlib.h>
#include "sim.h"

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* FILE: one `SEG [TXN]` per line (TXN 0 = first transmission), # comments. */
int loss_list_load(struct flow *f, const char *path)
{
	FILE *fp = fopen(path, "r");
	char buf[256];
	u32 cap = 0;

	if (!fp) {
		perror(path);
		return -1;
	}
	while (fgets(buf, sizeof(buf), fp)) {
		unsigned long seg, txn = 0;
		int n = sscanf(buf, "%lu %lu", &seg, &txn);

		if (buf[0] == '#' || n < 1)
			continue;
		if (txn > 255) {
			fprintf(stderr, "%s: transmission number %lu > 255\n", path, txn);
			fclose(fp);
			return -1;
		}
		if (f->nloss == cap) {
			cap = cap ? 2 * cap : 256;
			f->loss_list = realloc(f->loss_list, cap * sizeof(*f->loss_list));
			if (!f->loss_list)
				abort();
		}
		f->loss_list[f->nloss++] = (u64)seg << 8 | txn;
	}
	fclose(fp);
	if (!f->nloss) {
		/* An empty list still means "these losses only". */
		f->loss_list = malloc(sizeof(*f->loss_list));
		if (!f->loss_list)
			abort();
		f->loss_list[0] = ~0ULL;
		f->nloss = 1;
	}
	qsort(f->loss_list, f->nloss, sizeof(*f->loss_list), cmp_u64);
	return 0;
}

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
	const struct flow *f;

	if (p->kind != PK_DATA || p->trimmed)
		return false;
	f = sim_g->flows[p->flow];
	if (f->nloss) {
		u64 key = (u64)p->seg << 8 | p->txn;

		return pt->host < 0 &&
		       bsearch(&key, f->loss_list, f->nloss, sizeof(key), cmp_u64) != NULL;
	}
	if (a->loss <= 0)
		return false;
	if (a->loss_hash)
		return hash_unit(sim_g->seed, sim_g->flows[p->flow]->lkey, p->seg, p->txn) < a->loss;
	return rng_unit(&sim_g->rng) < a->loss;
}
