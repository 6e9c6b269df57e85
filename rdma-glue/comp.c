// SPDX-License-Identifier: GPL-2.0
/*
 * Completer: ACKs and NAKs to send completions, and the retransmission
 * timer.  An ACK acknowledges every packet up to its PSN (coalesced ACKs);
 * a NAK acknowledges the packets before its PSN.  NAK sequence error and
 * timeout: go back N to the first unacknowledged PSN.  RNR NAK: wait, then
 * go back.  Other NAKs complete the WQE in error and the QP goes to ERR.
 */
#include "tonic_rdma.h"

void trd_send_wc(struct trd_qp *qp, const struct trd_swqe *wqe, enum ib_wc_status st)
{
	struct ib_wc wc = {
		.wr_id = wqe->wr_id,
		.status = st,
		.byte_len = wqe->length,
		.qp = &qp->ib,
		.port_num = 1,
	};

	if (st == IB_WC_SUCCESS && !qp->sq_sig_all && !(wqe->send_flags & IB_SEND_SIGNALED))
		return;
	switch (wqe->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_WRITE_WITH_IMM:
		wc.opcode = IB_WC_RDMA_WRITE;
		break;
	default:
		wc.opcode = IB_WC_SEND;
		break;
	}
	trd_cq_post(to_tcq(qp->ib.send_cq), &wc, false);
}

void trd_rto_arm(struct trd_qp *qp)
{
	unsigned long rto;

	if (qp->timeout)
		rto = max(nsecs_to_jiffies(4096ull << qp->timeout),
			  msecs_to_jiffies(TRD_MIN_RTO_MS));
	else
		rto = msecs_to_jiffies(TRD_DEF_RTO_MS);
	mod_timer(&qp->rto_timer, jiffies + rto);
}

/* Every packet up to and including @psn arrived; the lock held. */
static void trd_comp_ack(struct trd_qp *qp, u32 psn)
{
	u32 una = trd_psn_add(psn, 1);

	if (trd_psn_cmp(una, qp->snd_una) <= 0 || trd_psn_cmp(una, qp->snd_max) > 0)
		return;
	while (qp->sq.cons != qp->sq.assigned) {
		struct trd_swqe *wqe = &qp->sq.wqe[qp->sq.cons % qp->sq.size];

		if (trd_psn_cmp(trd_psn_add(wqe->first_psn, wqe->npkts), una) > 0)
			break;
		trd_send_wc(qp, wqe, IB_WC_SUCCESS);
		qp->sq.cons++;
	}
	qp->snd_una = una;
	qp->retries = 0;
	qp->rnr_retries = 0;
	if (trd_psn_cmp(qp->snd_nxt, una) < 0)
		trd_req_rewind(qp, una);
	if (una == qp->snd_max)
		del_timer(&qp->rto_timer);
	else
		trd_rto_arm(qp);
}

/* Complete the oldest WQE with @st and fail the QP; the lock held. */
static void trd_comp_fail(struct trd_qp *qp, enum ib_wc_status st)
{
	if (qp->sq.cons != qp->sq.prod) {
		trd_send_wc(qp, &qp->sq.wqe[qp->sq.cons % qp->sq.size], st);
		qp->sq.cons++;
	}
	trd_qp_error(qp);
}

void trd_comp_rcv(struct trd_qp *qp, struct sk_buff *skb, const struct trd_bth *bth)
{
	const struct trd_aeth *aeth = trd_pkt_ext(bth);
	u32 psn = ntohl(bth->apsn) & TRD_PSN_MASK;
	u32 smsn = ntohl(aeth->smsn);
	u8 syn = smsn >> 24;
	bool kick = false;
	unsigned long flags;

	trd_count(qp->dev, TRD_CNT_ACKS_RCVD, 1);
	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state != IB_QPS_RTS || trd_psn_cmp(psn, qp->snd_max) >= 0)
		goto out;

	switch (syn & TRD_AETH_TYPE_MASK) {
	case TRD_AETH_ACK:
		trd_comp_ack(qp, psn);
		kick = true;
		break;
	case TRD_AETH_RNR_NAK:
		trd_count(qp->dev, TRD_CNT_RNR_NAK_RCVD, 1);
		trd_comp_ack(qp, trd_psn_add(psn, TRD_PSN_MASK));	/* psn - 1 */
		if (qp->rnr_retry != 7 && ++qp->rnr_retries > qp->rnr_retry) {
			trd_comp_fail(qp, IB_WC_RNR_RETRY_EXC_ERR);
			break;
		}
		trd_req_rewind(qp, psn);
		qp->rnr_wait = true;
		mod_timer(&qp->rto_timer, jiffies + usecs_to_jiffies(TRD_RNR_DELAY_US));
		break;
	case TRD_AETH_NAK:
		trd_comp_ack(qp, trd_psn_add(psn, TRD_PSN_MASK));
		switch (syn & 0x1f) {
		case TRD_NAK_PSN_SEQ_ERR:
			trd_count(qp->dev, TRD_CNT_NAK_SEQ_RCVD, 1);
			if (psn == qp->snd_una) {
				trd_req_rewind(qp, psn);
				kick = true;
			}
			break;
		case TRD_NAK_INVALID_REQ:
			trd_comp_fail(qp, IB_WC_REM_INV_REQ_ERR);
			break;
		case TRD_NAK_REM_ACCESS:
			trd_comp_fail(qp, IB_WC_REM_ACCESS_ERR);
			break;
		default:
			trd_comp_fail(qp, IB_WC_REM_OP_ERR);
			break;
		}
		break;
	default:
		trd_count(qp->dev, TRD_CNT_BAD_PKT, 1);
		break;
	}
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	if (kick)
		trd_req_kick(qp);
}

void trd_rto_timer(struct timer_list *t)
{
	struct trd_qp *qp = from_timer(qp, t, rto_timer);
	unsigned long flags;
	bool kick = false;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->dying || qp->state != IB_QPS_RTS)
		goto out;
	if (qp->rnr_wait) {
		qp->rnr_wait = false;
		kick = true;
		goto out;
	}
	if (qp->snd_una == qp->snd_max)
		goto out;
	trd_count(qp->dev, TRD_CNT_TIMEOUTS, 1);
	if (++qp->retries > qp->retry_cnt) {
		trd_comp_fail(qp, IB_WC_RETRY_EXC_ERR);
		goto out;
	}
	trd_req_rewind(qp, qp->snd_una);
	trd_rto_arm(qp);
	kick = true;
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	if (kick)
		trd_req_kick(qp);
}
