// SPDX-License-Identifier: GPL-2.0
/*
 * Requester: send queue WQEs to request packets.  Each WQE is a message
 * of npkts = ceil(length / path MTU) packets with consecutive PSNs, given
 * when the requester first reaches it.  At most TRD_WINDOW packets are
 * unacknowledged; AckReq on the last packet of a message and at least
 * every TRD_ACKREQ_EVERY packets.  Go-back-N: trd_req_rewind() moves the
 * send point back to a PSN (NAK sequence error, RNR NAK, timeout) and the
 * requester sends everything from there again.
 *
 * Runs wherever it is kicked (post_send's caller, the rx softirq, the
 * retransmission timer), from a work item when kicked with IRQs off; one
 * runner at a time per QP (qp->sending), packets built under the QP's
 * lock and sent after it.
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

static bool trd_req_can_send(struct trd_qp *qp)
{
	return !qp->dying && qp->state == IB_QPS_RTS && !qp->rnr_wait &&
	       qp->sq.cur != qp->sq.prod &&
	       trd_psn_cmp(qp->snd_nxt, trd_psn_add(qp->snd_una, TRD_WINDOW)) < 0;
}

/* The next packet of the send queue; NULL when out of memory or route (the timer retries). */
static struct sk_buff *trd_req_next(struct trd_qp *qp)
{
	struct trd_swqe *wqe = &qp->sq.wqe[qp->sq.cur % qp->sq.size];
	u32 k, off, paylen, psn;
	bool first, last, ackreq;
	struct trd_bth *bth;
	struct sk_buff *skb;
	void *ext, *pay;
	u8 op;

	if (qp->sq.cur == qp->sq.assigned) {
		wqe->first_psn = qp->snd_nxt;
		wqe->npkts = max_t(u32, 1, DIV_ROUND_UP(wqe->length, qp->mtu));
		qp->sq.assigned++;
	}
	k = qp->sq.cur_pkt;
	off = k * qp->mtu;
	paylen = min(qp->mtu, wqe->length - off);
	first = k == 0;
	last = k == wqe->npkts - 1;
	psn = trd_psn_add(wqe->first_psn, k);
	op = trd_req_opcode(wqe, first, last);
	ackreq = last || ++qp->noack_pkts >= TRD_ACKREQ_EVERY;

	skb = trd_pkt_alloc(qp, op, psn, ackreq, paylen, &ext, &pay);
	if (!skb)
		return NULL;
	bth = (struct trd_bth *)ext - 1;
	if (last && (wqe->send_flags & IB_SEND_SOLICITED))
		bth->flags |= TRD_BTH_SE;
	if (trd_op_has_reth(op)) {
		struct trd_reth *reth = ext;

		reth->va = cpu_to_be64(wqe->remote_addr);
		reth->rkey = cpu_to_be32(wqe->rkey);
		reth->len = cpu_to_be32(wqe->length);
		ext = reth + 1;
	}
	if (trd_op_has_imm(op))
		((struct trd_immdt *)ext)->imm = wqe->imm;
	if (trd_sge_copy(qp, wqe->sge, wqe->num_sge, off, pay, paylen, false)) {
		kfree_skb(skb);
		trd_send_wc(qp, wqe, IB_WC_LOC_PROT_ERR);
		trd_qp_error(qp);
		return NULL;
	}

	if (ackreq)
		qp->noack_pkts = 0;
	if (last) {
		qp->sq.cur++;
		qp->sq.cur_pkt = 0;
	} else {
		qp->sq.cur_pkt++;
	}
	if (trd_psn_cmp(psn, qp->snd_max) >= 0)
		qp->snd_max = trd_psn_add(psn, 1);
	else
		trd_count(qp->dev, TRD_CNT_RETRANS_PKTS, 1);
	qp->snd_nxt = trd_psn_add(psn, 1);
	return skb;
}

static void trd_req_run(struct trd_qp *qp)
{
	struct sk_buff_head q;
	struct sk_buff *skb;
	unsigned long flags;

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
		while (trd_req_can_send(qp)) {
			skb = trd_req_next(qp);
			if (!skb)
				break;
			__skb_queue_tail(&q, skb);
		}
		if (!skb_queue_empty(&q) && !timer_pending(&qp->rto_timer))
			trd_rto_arm(qp);
		spin_unlock_irqrestore(&qp->lock, flags);
		while ((skb = __skb_dequeue(&q)))
			trd_pkt_xmit(qp, skb);
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

/* Go back to @psn (in [snd_una, snd_max]); the lock held. */
void trd_req_rewind(struct trd_qp *qp, u32 psn)
{
	struct trd_swqe *wqe = NULL;
	u32 i;

	for (i = qp->sq.cons; i != qp->sq.assigned; i++) {
		wqe = &qp->sq.wqe[i % qp->sq.size];
		if (trd_psn_cmp(psn, trd_psn_add(wqe->first_psn, wqe->npkts)) < 0)
			break;
	}
	qp->sq.cur = i;
	qp->sq.cur_pkt = i == qp->sq.assigned ? 0 : (psn - wqe->first_psn) & TRD_PSN_MASK;
	qp->snd_nxt = psn;
	qp->noack_pkts = 0;
}
