// SPDX-License-Identifier: GPL-2.0
/*
 * Incoming module, fixed stage 1: the queue of control packets from the
 * network, then per packet wnd_start = max(wnd_start, cum_ack), acked[s]
 * for SACKed segments, slide the bitmaps, count newly acked segments.
 * Everything here is fed by the network, so it is validated: nothing a
 * packet says can touch another flow or a segment outside the window.
 * Stage 2 (the program) runs from merge.c; tonic_in_post() emits the ACKED
 * and BURST_DONE notifications afterwards.
 */
#include "compat.h"
#include "tonic.h"
#include "program.h"
#include "core.h"

int tonic_incoming(struct tonic_core *tc, u32 id, const struct tonic_pkt *pkt)
{
	struct tonic_in_ent *e;
	u32 slot;

	if (!tonic_flow_in_use(tc, id))
		return -ENOENT;
	if (!pkt || pkt->type > TONIC_PKT_GRANT) {
		tc->st.bad_ack++;
		return -EINVAL;
	}
	if (tc->in_cnt >= tc->cfg.in_queue) {
		tc->st.in_overflow++;
		return -ENOBUFS;
	}
	slot = tc->in_head + tc->in_cnt;
	if (slot >= tc->cfg.in_queue)
		slot -= tc->cfg.in_queue;
	e = &tc->inq[slot];
	e->flow = id;
	e->gen = tc->flows[id].gen;
	e->pkt = *pkt;
	tc->in_cnt++;
	return 0;
}

/* Apply the SACK blocks of @p to the acked bitmap (already slid). */
static u32 tonic_in_sack(struct tonic_core *tc, u32 id, const struct tonic_pkt *p)
{
	struct tonic_flow *f = &tc->flows[id];
	struct tonic_bitmap acked = tonic_flow_bm(tc, id, TONIC_BM_ACKED);
	u32 i, n = p->nsack, newly = 0;

	if (n > TONIC_MAX_SACK) {
		tc->st.bad_sack++;
		n = TONIC_MAX_SACK;
	}
	/* A D-SACK reports a duplicate, not a newly arrived segment. */
	for (i = tonic_pkt_sack0(p); i < n; i++) {
		u32 s = p->sack[i].start, e = p->sack[i].end;

		/* Empty, inverted, or wholly outside [wnd_start, highest_sent). */
		if (!tonic_before(s, e) || !tonic_before(s, f->highest_sent) ||
		    !tonic_after(e, f->wnd_start)) {
			tc->st.bad_sack++;
			continue;
		}
		if (tonic_before(s, f->wnd_start) || tonic_after(e, f->highest_sent)) {
			tc->st.bad_sack++;
			if (tonic_before(s, f->wnd_start))
				s = f->wnd_start;
			if (tonic_after(e, f->highest_sent))
				e = f->highest_sent;
		}
		newly += tonic_bm_set_range(&acked, s - f->wnd_start, e - f->wnd_start);
	}
	return newly;
}

bool tonic_in_stage1(struct tonic_core *tc, struct tonic_in_info *in)
{
	struct tonic_in_ent *e = &tc->inq[tc->in_head];
	const struct tonic_pkt *p = &e->pkt;
	struct tonic_flow_counters *c;
	struct tonic_flow *f;
	u32 id = e->flow, old, nw, prev = 0;

	if (++tc->in_head == tc->cfg.in_queue)
		tc->in_head = 0;
	tc->in_cnt--;
	f = &tc->flows[id];
	if ((f->flags & (TF_USED | TF_FAILED)) != TF_USED || f->gen != e->gen) {
		if (!(f->flags & TF_FAILED) || f->gen != e->gen)
			tc->st.bad_flow++;
		return false;
	}
	c = &tc->ctr[id];
	old = f->wnd_start;
	nw = old;
	in->id = id;
	in->old_wnd_start = old;
	in->new_acked = 0;
	in->pkt = p;	/* stays valid: the slot is not reused before stage 2 */

	if (p->type == TONIC_PKT_ACK || p->type == TONIC_PKT_NACK) {
		if (!(p->flags & TONIC_PKT_F_NO_CUM)) {
			if (tonic_after(p->cum_ack, f->highest_sent)) {
				tc->st.bad_ack++;
				return false;
			}
			if (tonic_before(p->cum_ack, old))
				tc->st.stale_ack++;
			else
				nw = p->cum_ack;
		}
		if (nw != old) {
			struct tonic_bitmap acked = tonic_flow_bm(tc, id, TONIC_BM_ACKED);
			struct tonic_bitmap done = tonic_flow_bm(tc, id, TONIC_BM_RTX_DONE);

			prev = tonic_bm_slide(&acked, nw - old);	/* SACKed before */
			tonic_bm_slide(&done, nw - old);
			if (f->marked) {	/* else all clear: nothing to slide */
				struct tonic_bitmap marked = tonic_flow_bm(tc, id, TONIC_BM_MARKED);

				f->marked -= tonic_bm_slide(&marked, nw - old);
			}
			f->wnd_start = nw;
		}
		in->new_acked = (nw - old) - prev + tonic_in_sack(tc, id, p);
		c->segs_acked += in->new_acked;
	}
	switch (p->type) {
	case TONIC_PKT_NACK:
		c->nacks++;
		break;
	case TONIC_PKT_CNP:
		c->cnps++;
		break;
	case TONIC_PKT_GRANT:
		c->grants++;
		if (f->scheme == TONIC_CREDIT_GRANT)
			tonic_cr_add_credit(tc, id, p->grant);
		break;
	}
	if (p->rtt)
		c->last_rtt = p->rtt;
	return true;
}

void tonic_in_post(struct tonic_core *tc, const struct tonic_in_info *in)
{
	struct tonic_flow *f = &tc->flows[in->id];
	u32 adv = f->wnd_start - in->old_wnd_start;

	if ((f->flags & (TF_USED | TF_FAILED)) != TF_USED)
		return;
	if (adv) {
		f->acked_since_note += adv;
		if (f->acked_since_note >= f->cfg.ack_notify || f->wnd_start == f->tail) {
			f->acked_since_note = 0;
			tonic_note(tc, in->id, TONIC_NOTE_ACKED, f->wnd_start);
		}
		if ((f->flags & TF_SUB) && f->wnd_start == f->tail) {
			f->flags &= ~TF_SUB;
			tonic_note(tc, in->id, TONIC_NOTE_BURST_DONE, f->wnd_start);
		}
	}
	/* Everything generated is acked: stop the retransmission timer. */
	if (f->wnd_start == f->highest_sent && f->rto_at != TONIC_IDLE) {
		f->rto_at = TONIC_IDLE;
		tonic_dd_timer_update(tc, in->id);
	}
	tonic_dd_update(tc, in->id);
}
