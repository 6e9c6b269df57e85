// SPDX-License-Identifier: GPL-2.0
/*
 * Requester: send queue WQEs to request packets.  Each WQE is a message
 * of npkts = ceil(length / path MTU) packets with consecutive PSNs, given
 * at post_send; the packets are the segments of the QP's Tonic flow
 * (flow.c), announced as WQEs are posted.  Which packet goes when -- new
 * data, a go-back-N after a NAK sequence error or a timeout, pacing, at
 * most TRD_WINDOW unacknowledged -- is the flow's decision: the requester
 * builds the packets it names.  AckReq on the last packet of a message,
 * on the last one announced, on the last the flow's window allows, on
 * retransmissions and at least every TRD_ACKREQ_EVERY packets.
 * With an IRN program, requests say so (TRD_BTH_IRN_CAP), and WRITEs,
 * SENDs and READs started once the peer said it too go in IRN framing
 * (hdr.h).
 *
 * Runs wherever it is kicked (post_send's caller, the rx softirq), and
 * from a work item when the flow gave descriptors or notes or when kicked
 * with IRQs off; one runner at a time per QP (qp->sending), packets built
 * under the QP's lock and sent after it.
 */
#include "tonic_rdma.h"

static u8 trd_req_opcode(const struct trd_swqe *wqe, bool first, bool last)
{
	bool imm = wqe->opcode == IB_WR_SEND_WITH_IMM ||
		   wqe->opcode == IB_WR_RDMA_WRITE_WITH_IMM;

	if (wqe->opcode == IB_WR_SEND || wqe->opcode == IB_WR_SEND_WITH_IMM) {
		if (first && last)
			return imm ? TRD_OP_SEND_ONLY_IMM : TRD_OP_SEND_ONLY;
		if (first)
			return TRD_OP_SEND_FIRST;
		if (last)
			return imm ? TRD_OP_SEND_LAST_IMM : TRD_OP_SEND_LAST;
		return TRD_OP_SEND_MIDDLE;
	}
	if (first && last)
		return imm ? TRD_OP_WRITE_ONLY_IMM : TRD_OP_WRITE_ONLY;
	if (first)
		return TRD_OP_WRITE_FIRST;
	if (last)
		return imm ? TRD_OP_WRITE_LAST_IMM : TRD_OP_WRITE_LAST;
	return TRD_OP_WRITE_MIDDLE;
}

/* The WQE PSN @psn belongs to; the lock held, @psn in [snd_una, snd_max). */
struct trd_swqe *trd_req_wqe(struct trd_qp *qp, u32 psn)
{
	struct trd_swqe *wqe;
	u32 i = qp->sq.cur;

	if (i - qp->sq.cons >= qp->sq.prod - qp->sq.cons ||
	    trd_psn_cmp(psn, qp->sq.wqe[i % qp->sq.size].first_psn) < 0)
		i = qp->sq.cons;
	for (; i != qp->sq.prod; i++) {
		wqe = &qp->sq.wqe[i % qp->sq.size];
		if (trd_psn_cmp(psn, trd_psn_add(wqe->first_psn, wqe->npkts)) < 0) {
			qp->sq.cur = i;
			return wqe;
		}
	}
	return NULL;
}

/*
 * A READ request for a WQE's PSNs from the @k-th on, @n of them: the
 * responder answers each with a response packet.  Sent for the first PSN
 * of a run of them the flow names; the later ones are already asked for.
 * In IRN framing it says which READ it is (read_WQE_SN).
 */
static struct sk_buff *trd_req_read(struct trd_qp *qp, const struct trd_swqe *wqe, u32 psn,
				    u32 k, u32 n)
{
	u32 off = k * qp->mtu;
	struct trd_irn_read *ir;
	struct trd_reth *reth;
	struct sk_buff *skb;

	skb = trd_pkt_alloc(qp, TRD_OP_READ_REQ, psn, true, wqe->irn ? sizeof(*ir) : 0,
			    (void **)&reth, (void **)&ir);
	if (!skb)
		return NULL;
	if (qp->irn)
		((struct trd_bth *)reth - 1)->qpn |= htonl(TRD_BTH_IRN_CAP |
							   (wqe->irn ? TRD_BTH_IRN : 0));
	if (wqe->irn)
		ir->wqe_sn = htonl(wqe->rsn);
	reth->va = cpu_to_be64(wqe->remote_addr + off);
	reth->rkey = cpu_to_be32(wqe->rkey);
	reth->len = cpu_to_be32(min_t(u64, wqe->length - off, (u64)n * qp->mtu));
	return skb;
}

/*
 * IRN: the flow resends READ PSN @psn: ask again for the hole it is in --
 * from the first response missing at or after it to the next one that
 * arrived (trd_comp_read_arrived) -- once per run of them.
 */
static struct sk_buff *trd_req_read_hole(struct trd_qp *qp, const struct trd_swqe *wqe, u32 psn,
					 bool run)
{
	u32 end = trd_psn_add(wqe->first_psn, wqe->npkts), q;
	struct sk_buff *skb;

	if (run && trd_psn_cmp(psn, qp->rd_irn_end) < 0)
		return NULL;		/* asked for with the run's first */
	if (trd_psn_cmp(psn, qp->comp_psn) < 0)
		psn = qp->comp_psn;
	while (trd_psn_cmp(psn, end) < 0 && trd_comp_read_arrived(qp, psn))
		psn = trd_psn_add(psn, 1);	/* at most TRD_IRN_BITS placed */
	if (trd_psn_cmp(psn, end) >= 0)
		return NULL;
	for (q = trd_psn_add(psn, 1); trd_psn_cmp(q, end) < 0; q = trd_psn_add(q, 1)) {
		if (((q - qp->comp_psn) & TRD_PSN_MASK) >= TRD_IRN_BITS) {
			q = end;	/* nothing is placed that far */
			break;
		}
		if (trd_comp_read_arrived(qp, q))
			break;
	}
	qp->rd_irn_end = q;
	skb = trd_req_read(qp, wqe, psn, (psn - wqe->first_psn) & TRD_PSN_MASK,
			   (q - psn) & TRD_PSN_MASK);
	if (skb)
		trd_count(qp->dev, TRD_CNT_RETRANS_PKTS, 1);
	return skb;
}

/* The packet of segment @d->seg; NULL when it is not to be sent (any more). */
static struct sk_buff *trd_req_next(struct trd_qp *qp, const struct trd_txd *d)
{
	u32 psn = trd_psn_add(qp->isn, d->seg);
	bool rtx = d->flags & TONIC_DESC_RTX;
	u32 k, off, paylen, irn_ext;
	bool first, last, ackreq, run;
	struct trd_reth *reth = NULL;
	struct trd_swqe *wqe;
	struct trd_bth *bth;
	struct sk_buff *skb;
	void *ext, *pay;
	u8 op;

	if (qp->dying || qp->state != IB_QPS_RTS || !qp->flow_on)
		return NULL;
	/* Acknowledged (and maybe completed) since the flow named it. */
	if (tonic_before(d->seg, qp->una_seg) || !tonic_before(d->seg, qp->seg_tail))
		return NULL;
	wqe = trd_req_wqe(qp, psn);
	if (!wqe)
		return NULL;
	if (trd_psn_cmp(psn, qp->desc_end) >= 0)
		qp->desc_end = trd_psn_add(psn, 1);
	/* The next PSN of the same run of new data or of one go-back-N round. */
	run = psn == trd_psn_add(qp->last_desc_psn, 1) && rtx == qp->last_desc_rtx &&
	      psn != qp->rd_nak_psn;
	qp->last_desc_psn = psn;
	qp->last_desc_rtx = rtx;
	k = (psn - wqe->first_psn) & TRD_PSN_MASK;
	/*
	 * IRN framing, decided when its first packet is built (WQEs posted
	 * before the peer's first answer get it too): a WRITE's packets each
	 * carry a RETH, before the payload if not in the header, and the last
	 * of one with immediate its receive WQE and length after it; a SEND's
	 * its receive WQE and offset; a READ request its read_WQE_SN (hdr.h).
	 */
	if (!wqe->started) {
		wqe->started = true;
		wqe->irn = qp->irn_peer;
	}
	if (wqe->opcode == IB_WR_RDMA_READ) {
		if (rtx && qp->irn_peer)
			return trd_req_read_hole(qp, wqe, psn, run);
		/* New data: asked for with its first PSN; a go-back: at its start. */
		if (k && (run || !rtx))
			return NULL;
		/*
		 * Ask from the first response missing: not again for those that
		 * arrived (the flow's view lags, it is acked every few), and
		 * never from a later PSN: rxe answers a repeated READ only if it
		 * starts at or after the last repeat's start.
		 */
		if (trd_psn_cmp(qp->comp_psn, psn) != 0) {
			if (trd_psn_cmp(qp->comp_psn, trd_psn_add(wqe->first_psn, wqe->npkts)) >= 0)
				return NULL;
			if (trd_psn_cmp(qp->comp_psn, wqe->first_psn) > 0)
				psn = qp->comp_psn;
			else
				psn = wqe->first_psn;
			k = (psn - wqe->first_psn) & TRD_PSN_MASK;
		}
		skb = trd_req_read(qp, wqe, psn, k, wqe->npkts - k);
		if (skb && rtx)
			trd_count(qp->dev, TRD_CNT_RETRANS_PKTS, 1);
		return skb;
	}
	off = k * qp->mtu;
	paylen = min(qp->mtu, wqe->length - off);
	first = k == 0;
	last = k == wqe->npkts - 1;
	op = trd_req_opcode(wqe, first, last);
	/*
	 * A retransmission asks too: IRN resends one packet on a timeout,
	 * and one consumed without an answer would time out again.
	 */
	ackreq = last || rtx || (d->flags & (TONIC_DESC_LAST | TONIC_DESC_WND)) ||
		 ++qp->noack_pkts >= TRD_ACKREQ_EVERY;
	irn_ext = 0;
	if (wqe->irn && trd_op_is_send(op))
		irn_ext = sizeof(struct trd_irn_send);
	else if (wqe->irn)
		irn_ext = (trd_op_has_reth(op) ? 0 : sizeof(struct trd_reth)) +
			  (trd_op_has_imm(op) ? sizeof(struct trd_irn_send) : 0);

	skb = trd_pkt_alloc(qp, op, psn, ackreq, irn_ext + paylen, &ext, &pay);
	if (!skb)
		return NULL;		/* lost: the flow's timeout sends it again */
	bth = (struct trd_bth *)ext - 1;
	if (qp->irn)
		bth->qpn |= htonl(TRD_BTH_IRN_CAP | (wqe->irn ? TRD_BTH_IRN : 0));
	if (last && (wqe->send_flags & IB_SEND_SOLICITED))
		bth->flags |= TRD_BTH_SE;
	if (irn_ext && trd_op_is_send(op)) {
		struct trd_irn_send *is = pay;

		is->wqe_sn = htonl(wqe->rsn);
		is->off = htonl(off);
	} else if (trd_op_has_reth(op)) {
		reth = ext;
		ext = reth + 1;
	} else if (wqe->irn) {
		reth = pay;
	}
	/* A WRITE with immediate's end: the receive it takes, the message's length. */
	if (wqe->irn && trd_op_is_write(op) && trd_op_has_imm(op)) {
		struct trd_irn_send *is = pay + irn_ext - sizeof(*is);

		is->wqe_sn = htonl(wqe->rsn);
		is->off = htonl(wqe->length);
	}
	pay += irn_ext;
	if (reth) {
		reth->va = cpu_to_be64(wqe->remote_addr + off);
		reth->rkey = cpu_to_be32(wqe->rkey);
		reth->len = cpu_to_be32(wqe->length - off);
	}
	if (trd_op_has_imm(op))
		((struct trd_immdt *)ext)->imm = wqe->imm;
	if (trd_sge_copy(qp, wqe->sge, wqe->num_sge, off, pay, paylen, false)) {
		kfree_skb(skb);
		if (wqe == &qp->sq.wqe[qp->sq.cons % qp->sq.size]) {
			trd_send_wc(qp, wqe, IB_WC_LOC_PROT_ERR);
			qp->sq.cons++;
		}
		trd_qp_error(qp);	/* flushes the rest */
		return NULL;
	}
	if (ackreq)
		qp->noack_pkts = 0;
	if (d->flags & TONIC_DESC_RTX)
		trd_count(qp->dev, TRD_CNT_RETRANS_PKTS, 1);
	return skb;
}

#define TRD_REQ_BATCH	32

static void trd_req_run(struct trd_qp *qp)
{
	struct sk_buff_head q;
	struct sk_buff *skb;
	struct trd_txd d;
	unsigned long flags;
	bool failed, more = false;
	u32 acked, n;

	__skb_queue_head_init(&q);
	spin_lock_irqsave(&qp->lock, flags);
	if (qp->sending) {
		qp->send_again = true;
		spin_unlock_irqrestore(&qp->lock, flags);
		return;
	}
	qp->sending = true;
	do {
		qp->send_again = false;
		/* What the flow acknowledged: completions, or it gave up. */
		trd_flow_take_notes(qp, &acked, &failed);
		if (qp->flow_on)
			trd_comp_flow(qp, acked, failed);
		spin_unlock_irqrestore(&qp->lock, flags);
		trd_flow_push(qp);
		/* The segments it said to send, a batch at a time. */
		do {
			spin_lock_irqsave(&qp->lock, flags);
			for (n = 0; n < TRD_REQ_BATCH && (more = trd_flow_pop(qp, &d)); n++) {
				skb = trd_req_next(qp, &d);
				if (skb)
					__skb_queue_tail(&q, skb);
			}
			spin_unlock_irqrestore(&qp->lock, flags);
			while ((skb = __skb_dequeue(&q)))
				trd_pkt_xmit(qp, skb);
		} while (more);
		trd_flow_reack(qp);
		spin_lock_irqsave(&qp->lock, flags);
	} while (qp->send_again);
	qp->sending = false;
	spin_unlock_irqrestore(&qp->lock, flags);
}

void trd_req_work(struct work_struct *w)
{
	trd_req_run(container_of(w, struct trd_qp, req_work));
}

void trd_req_kick(struct trd_qp *qp)
{
	if (in_hardirq() || irqs_disabled())
		queue_work(system_wq, &qp->req_work);
	else
		trd_req_run(qp);
}
