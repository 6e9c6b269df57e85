// SPDX-License-Identifier: GPL-2.0
/*
 * Completer: ACKs and NAKs to the QP's Tonic flow, and the flow's
 * acknowledgements to send completions.  An ACK acknowledges every packet
 * up to its PSN (coalesced ACKs), a NAK the packets before its PSN: both
 * go to the flow as TONIC_PKT_ACK; a NAK sequence error goes as
 * TONIC_PKT_NACK, after which the flow's program goes back N -- or, from
 * an IRN responder (TRD_BTH_IRN_CAP, hdr.h), with the PSN that triggered
 * it, which the responder kept: an IRN program then resends selectively.
 * How far the peer answered (ack_psn) and how far that completes
 * (comp_psn) differ by READ responses that have not arrived: comp_psn
 * passes a READ's PSNs only as its responses come, in order or, toward an
 * IRN peer, placed out of order (rd_placed).
 * The flow reports how far the acknowledgement reached (TONIC_NOTE_ACKED):
 * WQEs whose last packet is before it complete.  When it gives up
 * (timeouts, TONIC_NOTE_FAILED) the oldest WQE completes with
 * IB_WC_RETRY_EXC_ERR.
 * RNR NAK: the flow gets the NACK after the RNR delay.  Other NAKs
 * complete the WQE in error and the QP goes to ERR.
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
	case IB_WR_RDMA_READ:
		wc.opcode = IB_WC_RDMA_READ;
		break;
	default:
		wc.opcode = IB_WC_SEND;
		break;
	}
	trd_cq_post(to_tcq(qp->ib.send_cq), &wc, false);
}

/*
 * The flow acknowledged every segment before @acked (or @failed); the
 * lock held.  WQEs wholly acknowledged complete.
 */
static void trd_comp_fail(struct trd_qp *qp, enum ib_wc_status st);

/* The WQEs wholly before PSN @una complete; the lock held. */
static void trd_comp_upto(struct trd_qp *qp, u32 una)
{
	while (qp->sq.cons != qp->sq.prod) {
		struct trd_swqe *wqe = &qp->sq.wqe[qp->sq.cons % qp->sq.size];

		if (trd_psn_cmp(trd_psn_add(wqe->first_psn, wqe->npkts), una) > 0)
			break;
		if (wqe->opcode == IB_WR_RDMA_READ && qp->rd_out)
			qp->rd_out--;
		trd_send_wc(qp, wqe, IB_WC_SUCCESS);
		qp->sq.cons++;
	}
}

void trd_comp_flow(struct trd_qp *qp, u32 acked, bool failed)
{
	u32 una;

	if (qp->state != IB_QPS_RTS)
		return;
	if (tonic_after(acked, qp->una_seg) && !tonic_after(acked, qp->seg_tail)) {
		una = trd_psn_add(qp->isn, acked);
		trd_comp_upto(qp, una);
		qp->snd_una = una;
		qp->una_seg = acked;
		qp->rnr_retries = 0;
	}
	if (failed && qp->sq.cons != qp->sq.prod)
		trd_comp_fail(qp, IB_WC_RETRY_EXC_ERR);
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

/* IRN: the READ response @psn arrived (before comp_psn, or placed past it); the lock held. */
bool trd_comp_read_arrived(const struct trd_qp *qp, u32 psn)
{
	if (trd_psn_cmp(psn, qp->comp_psn) < 0)
		return true;
	return ((psn - qp->comp_psn) & TRD_PSN_MASK) < TRD_IRN_BITS &&
	       test_bit(psn % TRD_IRN_BITS, qp->rd_placed);
}

/*
 * The peer answered every request before @upto (an ACK, a NAK's PSN, a
 * READ response's implicit acknowledgement): comp_psn goes as far as the
 * answers reach, passing a READ's PSNs only as their responses arrived
 * (in order, or placed out of order: rd_placed).  The lock held.  True
 * when it stops at a READ response missing while later PSNs were
 * answered: it was lost.
 */
static bool trd_comp_answered(struct trd_qp *qp, u32 upto)
{
	u32 i, end;

	if (trd_psn_cmp(upto, qp->ack_psn) > 0)
		qp->ack_psn = upto;
	for (i = qp->sq.cons; i != qp->sq.prod; i++) {
		const struct trd_swqe *wqe = &qp->sq.wqe[i % qp->sq.size];

		end = trd_psn_add(wqe->first_psn, wqe->npkts);
		if (trd_psn_cmp(qp->comp_psn, end) >= 0)
			continue;
		if (wqe->opcode != IB_WR_RDMA_READ) {
			if (trd_psn_cmp(qp->ack_psn, end) >= 0) {
				qp->comp_psn = end;
				continue;
			}
			if (trd_psn_cmp(qp->ack_psn, qp->comp_psn) > 0)
				qp->comp_psn = qp->ack_psn;
			return false;
		}
		/* Bits are set within TRD_IRN_BITS of comp_psn only: one per PSN. */
		while (trd_psn_cmp(qp->comp_psn, end) < 0 &&
		       __test_and_clear_bit(qp->comp_psn % TRD_IRN_BITS, qp->rd_placed))
			qp->comp_psn = trd_psn_add(qp->comp_psn, 1);
		if (qp->comp_psn != end)
			return trd_psn_cmp(qp->ack_psn, qp->comp_psn) > 0;
	}
	return false;
}

/*
 * comp_psn stopped at a lost READ response (trd_comp_answered): the flow
 * hears it once per gap, as a NACK for it.  Toward an IRN peer, which
 * answers a request for the holes, with the first PSN after the READ as
 * the selective ack when the peer answered that one (the flow resends the
 * READ's holes, not what follows); toward another, it goes back N (no
 * @sack).  False when this gap was told already.
 */
static bool trd_comp_gap(struct trd_qp *qp, u32 *sack, bool *has_sack)
{
	const struct trd_swqe *wqe;
	u32 end;

	if (qp->comp_psn == qp->rd_nak_psn)
		return false;
	qp->rd_nak_psn = qp->comp_psn;
	*has_sack = false;
	if (!qp->irn_peer)
		return true;
	wqe = trd_req_wqe(qp, qp->comp_psn);
	if (!wqe)
		return false;
	end = trd_psn_add(wqe->first_psn, wqe->npkts);
	wqe = trd_req_wqe(qp, end);
	if (trd_psn_cmp(end, qp->ack_psn) < 0 && wqe &&
	    (wqe->opcode != IB_WR_RDMA_READ || trd_comp_read_arrived(qp, end))) {
		*sack = end;
		*has_sack = true;
		return true;
	}
	return false;	/* nothing to name past it: its timeout resends it */
}

void trd_comp_rcv(struct trd_qp *qp, struct sk_buff *skb, const struct trd_bth *bth)
{
	const struct trd_aeth *aeth = trd_pkt_ext(bth);
	u32 psn = ntohl(bth->apsn) & TRD_PSN_MASK;
	u32 smsn = ntohl(aeth->smsn);
	u8 syn = smsn >> 24;
	u32 type = TONIC_PKT_ACK, upto = trd_psn_add(psn, 1), sack = 0;
	bool in = false, irn = ntohl(bth->qpn) & TRD_BTH_IRN_CAP, has_sack = false;
	unsigned long flags;

	trd_count(qp->dev, TRD_CNT_ACKS_RCVD, 1);
	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state != IB_QPS_RTS || !qp->flow_on ||
	    trd_psn_cmp(psn, qp->snd_max) >= 0 || trd_psn_cmp(psn, qp->snd_una) < 0)
		goto out;
	/* The peer places WRITEs out of order: new ones go in IRN framing. */
	if (irn && qp->irn)
		qp->irn_peer = true;
	switch (syn & TRD_AETH_TYPE_MASK) {
	case TRD_AETH_ACK:
		if (trd_comp_answered(qp, upto) && trd_comp_gap(qp, &sack, &has_sack))
			type = TONIC_PKT_NACK;
		upto = qp->comp_psn;
		in = true;
		break;
	case TRD_AETH_RNR_NAK:
		trd_count(qp->dev, TRD_CNT_RNR_NAK_RCVD, 1);
		if (qp->rnr_retry != 7 && ++qp->rnr_retries > qp->rnr_retry) {
			trd_comp_fail(qp, IB_WC_RNR_RETRY_EXC_ERR);
			break;
		}
		upto = psn;
		in = true;
		qp->rnr_psn = psn;
		mod_timer(&qp->rnr_timer, jiffies + usecs_to_jiffies(TRD_RNR_DELAY_US));
		break;
	case TRD_AETH_NAK:
		switch (syn & 0x1f) {
		case TRD_NAK_PSN_SEQ_ERR:
			/* IRN's names the packet that triggered it, which was kept. */
			if (irn && trd_pkt_paylen(skb, bth) >= sizeof(struct trd_irn_sack)) {
				sack = ntohl(((struct trd_irn_sack *)trd_pkt_payload(bth))->psn);
				sack &= TRD_PSN_MASK;
				has_sack = true;
				trd_count(qp->dev, TRD_CNT_IRN_NAK_RCVD, 1);
			} else {
				trd_count(qp->dev, TRD_CNT_NAK_SEQ_RCVD, 1);
			}
			type = TONIC_PKT_NACK;
			/*
			 * A READ's responses were lost before it: that gap goes
			 * first (back N from it, or the holes below the PSN the
			 * IRN peer kept).
			 */
			trd_comp_answered(qp, psn);
			upto = qp->comp_psn;
			if (upto != psn) {
				qp->rd_nak_psn = upto;
				has_sack &= qp->irn_peer;
			}
			in = true;
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
	if (in)
		trd_flow_in(qp, type, upto, has_sack ? &sack : NULL);
}

/* The RNR delay is over: the flow goes back to the PSN the NAK named. */
void trd_rnr_timer(struct timer_list *t)
{
	struct trd_qp *qp = from_timer(qp, t, rnr_timer);
	unsigned long flags;
	bool go;
	u32 psn;

	spin_lock_irqsave(&qp->lock, flags);
	go = !qp->dying && qp->state == IB_QPS_RTS;
	psn = qp->rnr_psn;
	spin_unlock_irqrestore(&qp->lock, flags);
	if (go)
		trd_flow_in(qp, TONIC_PKT_NACK, psn, NULL);
}

/*
 * A READ response: in PSN order (each acknowledges every PSN before it),
 * its payload is placed in the READ's local scatter list at its offset,
 * and the flow gets an ACK at the READ's last response and every
 * TRD_ACKREQ_EVERY packets.  A response after a gap (one was lost) sends
 * the flow a NACK for the first missing PSN, once per gap: the flow goes
 * back N, and the requester asks again for the rest of the READ.  With
 * IRN (toward a peer that answered IRN_CAP) a response after a gap is
 * placed and the flow gets an IRN NAK naming it; the requester asks again
 * for the holes only (req.c), and comp_psn jumps over what was placed.
 * Duplicates are dropped; a response that does not fit the READ it names
 * (opcode, length) is dropped and counted.
 */
void trd_comp_read_rcv(struct trd_qp *qp, struct sk_buff *skb, const struct trd_bth *bth)
{
	u32 psn = ntohl(bth->apsn) & TRD_PSN_MASK, len = trd_pkt_paylen(skb, bth);
	u32 type = TONIC_PKT_ACK, upto = psn, k, off, sack = 0;
	struct trd_swqe *wqe;
	unsigned long flags;
	bool in = false, last, sacked = false, gap;
	u8 op = bth->opcode;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state != IB_QPS_RTS || !qp->flow_on ||
	    trd_psn_cmp(psn, qp->snd_max) >= 0 || trd_psn_cmp(psn, qp->snd_una) < 0)
		goto out;
	wqe = trd_req_wqe(qp, psn);
	if (!wqe || wqe->opcode != IB_WR_RDMA_READ)
		goto bad;
	if (trd_psn_cmp(psn, qp->comp_psn) < 0)
		goto out;			/* a duplicate */
	k = (psn - wqe->first_psn) & TRD_PSN_MASK;
	last = k == wqe->npkts - 1;
	off = k * qp->mtu;
	/*
	 * The READ's last response ends it; one before may end a request for
	 * a hole only (IRN asks for holes, not for the rest of the READ).
	 */
	if ((last ? op != TRD_OP_READ_RESP_LAST && op != TRD_OP_READ_RESP_ONLY :
		    op != TRD_OP_READ_RESP_FIRST && op != TRD_OP_READ_RESP_MIDDLE &&
		    !qp->irn_peer) ||
	    len != min(qp->mtu, wqe->length - off))
		goto bad;
	/* Every request before it was answered; so were its READ's PSNs before it. */
	gap = trd_comp_answered(qp, psn);
	if (psn != qp->comp_psn) {
		/*
		 * Past a gap.  Toward an IRN peer it is placed now (once), and
		 * the flow hears that it arrived past what is missing: it asks
		 * again for the holes (req.c).  Toward another, the flow goes
		 * back N from the gap, once.
		 */
		if (!qp->irn_peer || ((psn - qp->comp_psn) & TRD_PSN_MASK) >= TRD_IRN_BITS) {
			in = gap && trd_comp_gap(qp, &sack, &sacked);
			type = TONIC_PKT_NACK;
			upto = qp->comp_psn;
			goto out;
		}
		if (test_bit(psn % TRD_IRN_BITS, qp->rd_placed))
			goto out;		/* a duplicate */
		if (trd_sge_copy(qp, wqe->sge, wqe->num_sge, off, trd_pkt_payload(bth), len, true))
			goto bad;		/* in order, it fails the READ */
		__set_bit(psn % TRD_IRN_BITS, qp->rd_placed);
		trd_qp_count(qp, TRD_CNT_IRN_READ_OOO_PLACED, TRD_CNT_QP_IRN_READ_OOO);
		type = TONIC_PKT_NACK;
		upto = qp->comp_psn;
		sack = psn;
		sacked = true;
		in = true;
		goto out;
	}
	if (trd_sge_copy(qp, wqe->sge, wqe->num_sge, off, trd_pkt_payload(bth), len, true)) {
		trd_comp_upto(qp, psn);		/* those before it succeeded */
		trd_comp_fail(qp, IB_WC_LOC_PROT_ERR);
		goto out;
	}
	trd_count(qp->dev, TRD_CNT_READ_RESP_RCVD, 1);
	qp->comp_psn = trd_psn_add(psn, 1);
	/* On over responses placed before, and requests answered after. */
	trd_comp_answered(qp, qp->comp_psn);
	upto = qp->comp_psn;
	/* Every few, at a READ's end, and when it reached responses placed before. */
	in = last || ++qp->rd_resp_noack >= TRD_ACKREQ_EVERY || upto != trd_psn_add(psn, 1);
	if (in)
		qp->rd_resp_noack = 0;
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	if (in)
		trd_flow_in(qp, type, upto, sacked ? &sack : NULL);
	return;
bad:
	spin_unlock_irqrestore(&qp->lock, flags);
	trd_count(qp->dev, TRD_CNT_BAD_PKT, 1);
}
