// SPDX-License-Identifier: GPL-2.0
/*
 * Responder: request packets in PSN order to data placement, receive
 * completions and ACKs.  In order (PSN == expected): place, advance, ACK
 * when AckReq is set.  Duplicate (PSN < expected): ACK the last PSN again
 * (the requester went back N).  Ahead (PSN > expected): one NAK sequence
 * error per gap (syndrome 0x60, PSN = expected), drop.  No receive WQE for
 * a SEND (or a WRITE with immediate): RNR NAK.  Bad requests: NAK and ERR.
 * IRN (hdr.h): WRITE and SEND packets in IRN framing are placed out of
 * order too, each NAKed with the cumulative ack and its PSN; the expected
 * PSN jumps over them once the gap before them is filled, completing the
 * receives as in order.
 */
#include "tonic_rdma.h"

void trd_recv_wc(struct trd_qp *qp, const struct trd_rwqe *rwqe, enum ib_wc_status st,
		 enum ib_wc_opcode op, u32 len, const __be32 *imm)
{
	struct ib_wc wc = {
		.wr_id = rwqe->wr_id,
		.status = st,
		.opcode = op,
		.byte_len = len,
		.qp = &qp->ib,
		.src_qp = qp->dest_qpn,
		.port_num = 1,
	};

	if (imm) {
		wc.ex.imm_data = *imm;
		wc.wc_flags |= IB_WC_WITH_IMM;
	}
	trd_cq_post(to_tcq(qp->ib.recv_cq), &wc, false);
}

/*
 * An ACK or NAK carrying @syn for @psn; sent by the caller after the lock.
 * IRN's NAK for a packet kept out of order also names it (@sack, after
 * the AETH; @psn is then the cumulative ack).
 */
static struct sk_buff *trd_resp_aeth(struct trd_qp *qp, u8 syn, u32 psn, const u32 *sack)
{
	struct trd_aeth *aeth;
	struct sk_buff *skb;
	__be32 *pay;

	skb = trd_pkt_alloc(qp, TRD_OP_ACK, psn, false, sack ? sizeof(struct trd_irn_sack) : 0,
			    (void **)&aeth, (void **)&pay);
	if (!skb)
		return NULL;
	aeth->smsn = htonl((u32)syn << 24 | (qp->msn & TRD_PSN_MASK));
	if (qp->irn_req || sack)
		((struct trd_bth *)aeth - 1)->qpn |= htonl(TRD_BTH_IRN_CAP);
	if (sack)
		*pay = htonl(*sack);
	trd_count(qp->dev, sack ? TRD_CNT_IRN_NAK_SENT : TRD_CNT_ACKS_SENT, 1);
	return skb;
}

static struct sk_buff *trd_resp_ack(struct trd_qp *qp, u8 syn, u32 psn)
{
	return trd_resp_aeth(qp, syn, psn, NULL);
}

static struct sk_buff *trd_resp_irn_nak(struct trd_qp *qp, u32 psn)
{
	return trd_resp_aeth(qp, TRD_AETH_NAK | TRD_NAK_PSN_SEQ_ERR, qp->epsn, &psn);
}

/* A bad request: NAK @code and fail the QP. */
static struct sk_buff *trd_resp_fail(struct trd_qp *qp, u8 code, u32 psn)
{
	struct sk_buff *nak = trd_resp_ack(qp, TRD_AETH_NAK | code, psn);

	trd_qp_error(qp);
	return nak;
}

/* No receive WQE for a message that needs one: RNR NAK, the PSN not consumed. */
static struct sk_buff *trd_resp_rnr(struct trd_qp *qp, u32 psn)
{
	trd_count(qp->dev, TRD_CNT_RNR_NAK_SENT, 1);
	return trd_resp_ack(qp, TRD_AETH_RNR_NAK | (qp->min_rnr_timer & 0x1f), psn);
}

/* Receive WQE number @sn is posted and not taken yet. */
static bool trd_resp_rwqe_posted(const struct trd_qp *qp, u32 sn)
{
	return sn - qp->rq.cons < qp->rq.prod - qp->rq.cons;
}

/* Take the next receive WQE for an incoming message; false: none (RNR). */
static bool trd_resp_take_rwqe(struct trd_qp *qp)
{
	if (qp->rq.cons == qp->rq.prod)
		return false;
	qp->rwqe = qp->rq.wqe[qp->rq.cons % qp->rq.size];
	qp->rq.cons++;
	qp->in_recv = true;
	qp->recv_off = 0;
	return true;
}

static struct sk_buff *trd_resp_send(struct trd_qp *qp, const struct trd_bth *bth, u32 psn,
				     void *pay, u32 len)
{
	u8 op = bth->opcode;

	if (trd_op_is_first(op)) {
		if (qp->in_recv || qp->wrkey)	/* inside a SEND or a WRITE */
			return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);
		if (!trd_resp_take_rwqe(qp))
			return trd_resp_rnr(qp, psn);
	} else if (!qp->in_recv) {
		return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);
	}
	if (len > qp->rwqe.length - qp->recv_off) {
		trd_recv_wc(qp, &qp->rwqe, IB_WC_LOC_LEN_ERR, IB_WC_RECV, qp->recv_off, NULL);
		qp->in_recv = false;
		return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);
	}
	if (trd_sge_copy(qp, qp->rwqe.sge, qp->rwqe.num_sge, qp->recv_off, pay, len, true)) {
		trd_recv_wc(qp, &qp->rwqe, IB_WC_LOC_PROT_ERR, IB_WC_RECV, qp->recv_off, NULL);
		qp->in_recv = false;
		return trd_resp_fail(qp, TRD_NAK_REM_OP, psn);
	}
	qp->recv_off += len;
	if (trd_op_is_last(op)) {
		trd_recv_wc(qp, &qp->rwqe, IB_WC_SUCCESS, IB_WC_RECV, qp->recv_off,
			    trd_op_has_imm(op) ? &((struct trd_immdt *)trd_pkt_ext(bth))->imm :
			    NULL);
		qp->in_recv = false;
	}
	return NULL;
}

/*
 * A WRITE packet of @len bytes with @resid bytes of its message left
 * (rxe's check_rkey): while more than an MTU is left, an MTU and no pad;
 * then exactly what is left, padded to 4 bytes.
 */
static bool trd_resp_write_len_ok(const struct trd_qp *qp, const struct trd_bth *bth, u32 resid,
				  u32 len)
{
	u32 pad = (bth->flags & TRD_BTH_PAD_MASK) >> TRD_BTH_PAD_SHIFT;

	return resid > qp->mtu ? len == qp->mtu && !pad : len == resid && pad == (-resid & 3);
}

/* Place @len bytes of a WRITE at @va of the MR @rkey names; false: no access. */
static bool trd_resp_write_place(struct trd_qp *qp, u32 rkey, u64 va, void *pay, u32 len)
{
	struct trd_mr *mr;

	if (!len)
		return true;
	mr = trd_mr_lookup(qp->dev, rkey);
	return mr && mr->pd == to_tpd(qp->ib.pd) && mr->umem &&
	       (mr->access & IB_ACCESS_REMOTE_WRITE) && !trd_mr_copy(mr, va, pay, len, true);
}

/*
 * A RETH (a WRITE's first packet, a READ request) names an MR of the
 * QP's PD with @access (remote write or read) and a range inside it, all
 * of its length: checked before anything is placed or read (rxe's
 * check_rkey).  Zero bytes need no valid key.
 */
static bool trd_resp_reth_ok(struct trd_qp *qp, u32 rkey, u64 va, u32 len, int access)
{
	struct trd_mr *mr;

	if (!len)
		return true;
	mr = trd_mr_lookup(qp->dev, rkey);
	return mr && mr->pd == to_tpd(qp->ib.pd) && mr->umem && (mr->access & access) &&
	       va >= mr->iova && len <= mr->length && va - mr->iova <= mr->length - len;
}

static struct sk_buff *trd_resp_write(struct trd_qp *qp, const struct trd_bth *bth, u32 psn,
				      void *pay, u32 len)
{
	u8 op = bth->opcode;
	void *ext = trd_pkt_ext(bth);

	/*
	 * A WRITE with immediate consumes a receive WQE: RNR before anything
	 * of it is kept (its retry starts over), and never inside a SEND.
	 */
	if (trd_op_has_imm(op) && qp->in_recv)
		return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);
	if (trd_op_has_imm(op) && qp->rq.cons == qp->rq.prod)
		return trd_resp_rnr(qp, psn);
	if (trd_op_is_first(op)) {
		const struct trd_reth *reth = ext;

		if (qp->wrkey || qp->in_recv)	/* inside a WRITE or a SEND */
			return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);
		if (!(qp->access & IB_ACCESS_REMOTE_WRITE))
			return trd_resp_fail(qp, TRD_NAK_REM_ACCESS, psn);
		qp->wva = be64_to_cpu(reth->va);
		qp->wrkey = be32_to_cpu(reth->rkey);
		qp->wlen = be32_to_cpu(reth->len);
		qp->woff = 0;
		ext = (void *)(reth + 1);
		if (!trd_resp_reth_ok(qp, qp->wrkey, qp->wva, qp->wlen, IB_ACCESS_REMOTE_WRITE)) {
			qp->wrkey = 0;
			return trd_resp_fail(qp, TRD_NAK_REM_ACCESS, psn);
		}
	} else if (!qp->wrkey) {
		return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);
	}
	/* The RETH's length, exactly, in path-MTU packets; the last packet ends it. */
	if (!trd_resp_write_len_ok(qp, bth, qp->wlen - qp->woff, len) ||
	    (trd_op_is_last(op) && qp->woff + len != qp->wlen))
		return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);
	if (!trd_resp_write_place(qp, qp->wrkey, qp->wva + qp->woff, pay, len))
		return trd_resp_fail(qp, TRD_NAK_REM_ACCESS, psn);
	qp->woff += len;
	if (trd_op_is_last(op)) {
		if (trd_op_has_imm(op)) {
			trd_resp_take_rwqe(qp);
			trd_recv_wc(qp, &qp->rwqe, IB_WC_SUCCESS, IB_WC_RECV_RDMA_WITH_IMM,
				    qp->wlen, &((struct trd_immdt *)ext)->imm);
			qp->in_recv = false;
		}
		qp->wrkey = 0;
	}
	return NULL;
}

/*
 * IRN: a WRITE packet in IRN framing stands alone -- its RETH says where
 * it goes -- so it is placed when it arrives, in order or not (IRN 3.2).
 * Checked as one packet of the message its RETH describes from here on:
 * a full MTU and no pad while more than an MTU is left, else exactly what
 * is left, padded, and the opcode says last exactly then; the MR, access
 * and range of its own bytes.  @pay and @len include the RETH that
 * opcodes without one carry first, and the receive and length the end of
 * a WRITE with immediate carries after it.  0 when placed, else the NAK
 * code.
 */
static int trd_resp_irn_place(struct trd_qp *qp, const struct trd_bth *bth, void *pay, u32 len)
{
	u32 at = trd_op_has_imm(bth->opcode) ? sizeof(struct trd_irn_send) : 0;
	const struct trd_reth *reth = trd_pkt_ext(bth);
	u8 op = bth->opcode;
	u32 rlen;

	if (!trd_op_has_reth(op)) {
		reth = pay;
		at += sizeof(*reth);
	}
	if (len < at)
		return TRD_NAK_INVALID_REQ;
	pay += at;
	len -= at;
	rlen = be32_to_cpu(reth->len);
	if (!trd_resp_write_len_ok(qp, bth, rlen, len) || trd_op_is_last(op) != (rlen <= qp->mtu))
		return TRD_NAK_INVALID_REQ;
	if (!(qp->access & IB_ACCESS_REMOTE_WRITE) ||
	    !trd_resp_write_place(qp, be32_to_cpu(reth->rkey), be64_to_cpu(reth->va), pay, len))
		return TRD_NAK_REM_ACCESS;
	return 0;
}

/* IRN framing: a WRITE or a SEND packet, a READ request. */
static bool trd_resp_irn_framed(const struct trd_bth *bth)
{
	u8 op = bth->opcode;

	return (ntohl(bth->qpn) & TRD_BTH_IRN) &&
	       (trd_op_is_write(op) || trd_op_is_send(op) || op == TRD_OP_READ_REQ);
}

/* An IRN-framed READ request's read_WQE_SN; false: too short. */
static bool trd_resp_irn_read_sn(const struct trd_bth *bth, u32 len, u32 *sn)
{
	if (len < sizeof(struct trd_irn_read))
		return false;
	*sn = ntohl(((const struct trd_irn_read *)trd_pkt_payload(bth))->wqe_sn);
	return true;
}

/*
 * The last packet of an IRN-framed WRITE with immediate: the receive WQE
 * it takes and the message's length, after its RETH; false: too short,
 * or a length that cannot be the message's (less than what its RETH says
 * is left, other than it for an ONLY packet, past the largest message).
 */
static bool trd_resp_irn_wimm_hdr(const struct trd_bth *bth, u32 len, u32 *sn, u32 *mlen)
{
	bool own = trd_op_has_reth(bth->opcode);
	const struct trd_reth *reth = own ? trd_pkt_ext(bth) : trd_pkt_payload(bth);
	const struct trd_irn_send *is = trd_pkt_payload(bth) + (own ? 0 : sizeof(*reth));
	u32 rlen;

	if (len < (own ? 0 : sizeof(*reth)) + sizeof(*is))
		return false;
	rlen = be32_to_cpu(reth->len);
	*sn = ntohl(is->wqe_sn);
	*mlen = ntohl(is->off);
	return *mlen >= rlen && (!own || *mlen == rlen) && *mlen <= TRD_MAX_MSG;
}

/* A WRITE with immediate's immediate: after the RETH of an ONLY packet. */
static __be32 trd_resp_write_imm(const struct trd_bth *bth)
{
	const void *ext = trd_pkt_ext(bth);

	if (trd_op_has_reth(bth->opcode))
		ext += sizeof(struct trd_reth);
	return ((const struct trd_immdt *)ext)->imm;
}

/* It takes the receive WQE now (in order, or when epsn passes it). */
static void trd_resp_irn_wimm_done(struct trd_qp *qp, u32 mlen, __be32 imm)
{
	trd_resp_take_rwqe(qp);
	trd_recv_wc(qp, &qp->rwqe, IB_WC_SUCCESS, IB_WC_RECV_RDMA_WITH_IMM, mlen, &imm);
	qp->in_recv = false;
}

/* An IRN-framed SEND packet's receive WQE number and offset; false: too short. */
static bool trd_resp_irn_send_hdr(const struct trd_bth *bth, u32 len, u32 *sn, u32 *off)
{
	const struct trd_irn_send *is = trd_pkt_payload(bth);

	if (len < sizeof(*is))
		return false;
	*sn = ntohl(is->wqe_sn);
	*off = ntohl(is->off);
	return true;
}

/*
 * An IRN-framed SEND packet out of order, into the receive WQE it names:
 * the one being filled now, or one posted after it.  A full MTU and no
 * pad unless it ends the message, at an MTU multiple, within the receive
 * buffer.  0 when placed, with @slot filled for when epsn passes it.
 */
static int trd_resp_irn_send_place(struct trd_qp *qp, const struct trd_bth *bth, u32 len,
				   struct trd_irn_slot *slot)
{
	u32 pad = (bth->flags & TRD_BTH_PAD_MASK) >> TRD_BTH_PAD_SHIFT;
	const struct trd_rwqe *rwqe;
	u8 op = bth->opcode;
	u32 sn, off;

	if (!trd_resp_irn_send_hdr(bth, len, &sn, &off))
		return -EINVAL;
	len -= sizeof(struct trd_irn_send);
	if (qp->in_recv && sn == qp->rq.cons - 1 && !trd_op_is_first(op))
		rwqe = &qp->rwqe;
	else if (trd_resp_rwqe_posted(qp, sn))
		rwqe = &qp->rq.wqe[sn % qp->rq.size];
	else
		return -ENOENT;		/* not posted (yet): in order it gets an RNR NAK */
	if ((trd_op_is_last(op) ? len > qp->mtu : len != qp->mtu || pad) ||
	    off % qp->mtu || (trd_op_is_first(op) && off) || off > rwqe->length ||
	    len > rwqe->length - off)
		return -EINVAL;
	if (trd_sge_copy(qp, rwqe->sge, rwqe->num_sge, off, (u8 *)trd_pkt_payload(bth) +
			 sizeof(struct trd_irn_send), len, true))
		return -EFAULT;
	slot->end = off + len;
	slot->sn = sn;
	slot->flags |= TRD_IRN_SEND;
	if (trd_op_has_imm(op)) {
		slot->imm = ((struct trd_immdt *)trd_pkt_ext(bth))->imm;
		slot->flags |= TRD_IRN_IMM;
	}
	return 0;
}

/*
 * The end of a WRITE with immediate out of order: for @slot, the receive
 * WQE it takes when epsn passes it, which must be posted already (else it
 * is dropped, and in order gets its RNR NAK), the length and immediate of
 * the completion.
 */
static bool trd_resp_irn_wimm_slot(struct trd_qp *qp, const struct trd_bth *bth, u32 len,
				   struct trd_irn_slot *slot)
{
	u32 sn, mlen;

	if (!trd_resp_irn_wimm_hdr(bth, len, &sn, &mlen) ||
	    !trd_resp_rwqe_posted(qp, sn))
		return false;
	slot->sn = sn;
	slot->end = mlen;
	slot->imm = trd_resp_write_imm(bth);
	slot->flags |= TRD_IRN_WIMM;
	return true;
}

/*
 * An IRN-framed packet at the expected PSN: a WRITE placed, a SEND taken
 * as RC takes one (its offset must be where the message is), or the NAK
 * that fails the QP.
 */
static struct sk_buff *trd_resp_irn_in_order(struct trd_qp *qp, struct sk_buff *skb,
					     const struct trd_bth *bth, u32 psn)
{
	u32 len = trd_pkt_paylen(skb, bth), sn, off;
	u8 op = bth->opcode;
	int code;

	if (trd_op_is_first(op) && (qp->in_recv || qp->wrkey))
		return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);	/* inside a message */
	/* A WRITE with immediate: RNR before anything of its end is kept. */
	if (trd_op_is_write(op) && trd_op_has_imm(op)) {
		u32 mlen;

		if (qp->in_recv || !trd_resp_irn_wimm_hdr(bth, len, &sn, &mlen) ||
		    sn != qp->rq.cons)
			return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);
		if (qp->rq.cons == qp->rq.prod)
			return trd_resp_rnr(qp, psn);
		code = trd_resp_irn_place(qp, bth, trd_pkt_payload(bth), len);
		if (code)
			return trd_resp_fail(qp, code, psn);
		trd_resp_irn_wimm_done(qp, mlen, trd_resp_write_imm(bth));
		return NULL;
	}
	if (trd_op_is_send(op)) {
		bool first = trd_op_is_first(op);

		/* Where the message is: its receive (taken by a FIRST), its offset. */
		if (!trd_resp_irn_send_hdr(bth, len, &sn, &off) ||
		    off != (first ? 0 : qp->recv_off) || sn != qp->rq.cons - !first)
			return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);
		len -= sizeof(struct trd_irn_send);
		return trd_resp_send(qp, bth, psn, (u8 *)trd_pkt_payload(bth) +
				     sizeof(struct trd_irn_send), len);
	}
	code = trd_resp_irn_place(qp, bth, trd_pkt_payload(bth), len);
	return code ? trd_resp_fail(qp, code, psn) : NULL;
}

/* The PSNs a READ of @len bytes takes: one per response packet. */
static u32 trd_resp_read_npkts(const struct trd_qp *qp, u32 len)
{
	return max_t(u32, 1, DIV_ROUND_UP(len, qp->mtu));
}

/*
 * A READ's responses, from PSN @psn, queued for the responder's work
 * item; false when TRD_MAX_RD_ATOM are being answered already (it is
 * dropped and counted, as if lost).  The lock held.
 */
static bool trd_resp_read_queue(struct trd_qp *qp, u32 psn, u32 rkey, u64 va, u32 len)
{
	if (qp->rd_tail - qp->rd_head >= TRD_MAX_RD_ATOM) {
		trd_count(qp->dev, TRD_CNT_READ_REQ_DROPS, 1);
		return false;
	}
	qp->rd[qp->rd_tail++ % TRD_MAX_RD_ATOM] =
		(struct trd_rd_res){ .psn = psn, .rkey = rkey, .va = va, .len = len };
	queue_work(system_wq, &qp->resp_work);
	return true;
}

/* A new READ at epsn (@psn, @len bytes) was queued: it takes its PSNs, ends a message. */
static void trd_resp_read_take(struct trd_qp *qp, u32 psn, u32 len)
{
	qp->epsn = trd_psn_add(psn, trd_resp_read_npkts(qp, len));
	qp->msn = (qp->msn + 1) & TRD_PSN_MASK;
	qp->rd_sn++;
}

/*
 * An IRN-framed READ request out of order: checked as one in order is
 * (length, access, the MR's range) and kept in @slot, to be answered when
 * epsn passes it; false when it fails a check (in order it fails the QP).
 */
static bool trd_resp_irn_read_slot(struct trd_qp *qp, const struct trd_bth *bth, u32 len,
				   struct trd_irn_slot *slot)
{
	const struct trd_reth *reth = trd_pkt_ext(bth);
	u32 rkey = be32_to_cpu(reth->rkey), rlen = be32_to_cpu(reth->len), sn;
	u64 va = be64_to_cpu(reth->va);

	if (!trd_resp_irn_read_sn(bth, len, &sn) || rlen > TRD_MAX_MSG ||
	    !(qp->access & IB_ACCESS_REMOTE_READ) ||
	    !trd_resp_reth_ok(qp, rkey, va, rlen, IB_ACCESS_REMOTE_READ))
		return false;
	slot->end = rlen;
	slot->sn = sn;
	slot->rkey = rkey;
	slot->va = va;
	slot->flags = TRD_IRN_READ;
	return true;
}

/*
 * An IRN-framed packet past the expected PSN, within TRD_IRN_BITS of it:
 * placed (once; a READ request kept) and NAKed with its PSN.  One that
 * fails its checks is dropped, not NAKed: the requester sends it again,
 * and in order it fails the QP as any bad request does (a SEND for a
 * receive not posted yet gets its RNR NAK then).
 */
static struct sk_buff *trd_resp_irn_ooo(struct trd_qp *qp, struct sk_buff *skb,
					const struct trd_bth *bth, u32 psn)
{
	u32 bit = psn % TRD_IRN_BITS, len = trd_pkt_paylen(skb, bth);
	struct trd_irn_slot *slot = &qp->irn_slot[bit];
	u8 op = bth->opcode;
	int err;

	if (test_bit(bit, qp->irn_placed)) {
		trd_count(qp->dev, TRD_CNT_DUP_REQ, 1);
		return trd_resp_irn_nak(qp, psn);
	}
	memset(slot, 0, sizeof(*slot));
	if (op == TRD_OP_READ_REQ)
		err = trd_resp_irn_read_slot(qp, bth, len, slot) ? 0 : -EINVAL;
	else if (trd_op_is_send(op))
		err = trd_resp_irn_send_place(qp, bth, len, slot);
	else if (trd_op_has_imm(op) && !trd_resp_irn_wimm_slot(qp, bth, len, slot))
		err = -ENOENT;
	else
		err = trd_resp_irn_place(qp, bth, trd_pkt_payload(bth), len);
	if (err) {
		trd_count(qp->dev, TRD_CNT_BAD_PKT, 1);
		return NULL;
	}
	slot->flags |= (trd_op_is_first(op) ? TRD_IRN_FIRST : 0) |
		       (trd_op_is_last(op) ? TRD_IRN_LAST : 0);
	__set_bit(bit, qp->irn_placed);
	if (op == TRD_OP_READ_REQ)
		trd_count(qp->dev, TRD_CNT_IRN_READ_REQ_KEPT, 1);
	else
		trd_qp_count(qp, TRD_CNT_IRN_OOO_PLACED, TRD_CNT_QP_IRN_OOO);
	return trd_resp_irn_nak(qp, psn);
}

/*
 * epsn passes a SEND packet placed out of order: what taking it in order
 * would have done to the receive queue.  False: it does not fit the
 * message in progress (the requester broke its own numbering).
 */
static bool trd_resp_irn_send_pass(struct trd_qp *qp, const struct trd_irn_slot *slot)
{
	if (slot->flags & TRD_IRN_FIRST) {
		if (qp->in_recv || qp->wrkey || slot->sn != qp->rq.cons || !trd_resp_take_rwqe(qp))
			return false;
	} else if (!qp->in_recv || slot->sn != qp->rq.cons - 1) {
		return false;
	}
	qp->recv_off = slot->end;
	if (slot->flags & TRD_IRN_LAST) {
		trd_recv_wc(qp, &qp->rwqe, IB_WC_SUCCESS, IB_WC_RECV, slot->end,
			    slot->flags & TRD_IRN_IMM ? &slot->imm : NULL);
		qp->in_recv = false;
	}
	return true;
}

/*
 * Bits of the PSNs from @from to epsn, which it jumped over (a READ's),
 * are cleared: nothing is placed more than TRD_IRN_BITS past epsn.
 */
static void trd_resp_irn_jumped(struct trd_qp *qp, u32 from)
{
	u32 n = min_t(u32, (qp->epsn - from) & TRD_PSN_MASK, TRD_IRN_BITS), i;

	for (i = 0; i < n; i++)
		__clear_bit((from + i) % TRD_IRN_BITS, qp->irn_placed);
}

/*
 * The expected PSN moved (to qp->epsn, from @from): past packets placed
 * out of order that follow it now -- a SEND's receive taken and completed
 * as in order, a READ kept queued for its responses, every message's end
 * counted in the MSN.  A READ that finds TRD_MAX_RD_ATOM being answered
 * stops it there, as one in order is dropped: the requester resends it.
 * 1 when it moved further, 0 when not, -EPROTO when a SEND or a READ did
 * not fit (the caller fails the QP).
 */
static int trd_resp_irn_advance(struct trd_qp *qp, u32 from)
{
	u32 bit;
	int moved = 0;

	trd_resp_irn_jumped(qp, from);
	for (bit = qp->epsn % TRD_IRN_BITS; test_bit(bit, qp->irn_placed);
	     bit = qp->epsn % TRD_IRN_BITS) {
		const struct trd_irn_slot *slot = &qp->irn_slot[bit];

		if (slot->flags & TRD_IRN_READ) {
			if (qp->in_recv || qp->wrkey || slot->sn != qp->rd_sn)
				return -EPROTO;
			if (!trd_resp_read_queue(qp, qp->epsn, slot->rkey, slot->va, slot->end))
				break;
			from = qp->epsn;
			trd_resp_read_take(qp, from, slot->end);
			trd_resp_irn_jumped(qp, from);
			moved = 1;
			continue;
		}
		__clear_bit(bit, qp->irn_placed);
		if ((slot->flags & TRD_IRN_SEND) && !trd_resp_irn_send_pass(qp, slot))
			return -EPROTO;
		if (slot->flags & TRD_IRN_WIMM) {
			if (qp->in_recv || qp->wrkey || slot->sn != qp->rq.cons)
				return -EPROTO;
			trd_resp_irn_wimm_done(qp, slot->end, slot->imm);
		}
		if (slot->flags & TRD_IRN_LAST)
			qp->msn = (qp->msn + 1) & TRD_PSN_MASK;
		qp->epsn = trd_psn_add(qp->epsn, 1);
		moved = 1;
	}
	return moved;
}

/* After epsn moved from @from: the ACK (or the NAK failing the QP) it earns, or NULL. */
static struct sk_buff *trd_resp_irn_ack(struct trd_qp *qp, u32 from, bool ackreq)
{
	int moved = trd_resp_irn_advance(qp, from);

	if (moved < 0)
		return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, qp->epsn);
	if (moved || ackreq)
		return trd_resp_ack(qp, TRD_AETH_ACK | TRD_AETH_CREDIT_INVALID,
				    trd_psn_add(qp->epsn, TRD_PSN_MASK));
	return NULL;
}

/*
 * Is the response with @psn still to be sent?  A repeated request for it
 * (the requester timed out while it waited in the queue) adds nothing.
 */
static bool trd_resp_read_queued(const struct trd_qp *qp, u32 psn)
{
	u32 i, left;

	for (i = qp->rd_head; i != qp->rd_tail; i++) {
		const struct trd_rd_res *res = &qp->rd[i % TRD_MAX_RD_ATOM];

		left = trd_resp_read_npkts(qp, res->len);
		if (trd_psn_cmp(psn, res->psn) >= 0 &&
		    trd_psn_cmp(psn, trd_psn_add(res->psn, left)) < 0)
			return true;
	}
	return false;
}

/*
 * A READ request: checked now (rkey, PD, access, the MR's bounds), queued
 * for the responder's work item, which sends a response packet per PSN of
 * it (FIRST/MIDDLE/LAST or ONLY, AETH on the first and last) in the
 * request's PSN space.  A new one takes its PSNs from the expected PSN on
 * (in IRN framing it must be the READ that comes next: read_WQE_SN); a
 * duplicate (the requester went back N into it, with va and len moved to
 * the PSN it named) is answered again, within the PSNs already taken.
 * The lock held.
 */
static struct sk_buff *trd_resp_read(struct trd_qp *qp, struct sk_buff *skb,
				     const struct trd_bth *bth, u32 psn, bool dup)
{
	const struct trd_reth *reth = trd_pkt_ext(bth);
	u64 va = be64_to_cpu(reth->va);
	u32 rkey = be32_to_cpu(reth->rkey), len = be32_to_cpu(reth->len), sn;

	if (len > TRD_MAX_MSG)
		return dup ? NULL : trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);
	if (dup && trd_psn_cmp(trd_psn_add(psn, trd_resp_read_npkts(qp, len)), qp->epsn) > 0)
		return NULL;		/* not within what was asked before */
	if (!dup && (qp->in_recv || qp->wrkey))
		return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);	/* inside a message */
	if (!dup && trd_resp_irn_framed(bth) &&
	    (!trd_resp_irn_read_sn(bth, trd_pkt_paylen(skb, bth), &sn) || sn != qp->rd_sn))
		return trd_resp_fail(qp, TRD_NAK_INVALID_REQ, psn);
	if (!(qp->access & IB_ACCESS_REMOTE_READ) ||
	    !trd_resp_reth_ok(qp, rkey, va, len, IB_ACCESS_REMOTE_READ))
		return dup ? NULL : trd_resp_fail(qp, TRD_NAK_REM_ACCESS, psn);
	if (dup && trd_resp_read_queued(qp, psn))
		return NULL;
	if (trd_resp_read_queue(qp, psn, rkey, va, len) && !dup) {
		trd_resp_read_take(qp, psn, len);
		qp->nak_sent = false;
	}
	return NULL;
}

/* The next response packet of the oldest READ being answered; the lock held. */
static struct sk_buff *trd_resp_read_next(struct trd_qp *qp)
{
	struct trd_rd_res *res = &qp->rd[qp->rd_head % TRD_MAX_RD_ATOM];
	u32 paylen = min(qp->mtu, res->len);
	bool last = res->len <= qp->mtu;
	struct sk_buff *skb;
	struct trd_mr *mr;
	void *ext, *pay;
	u8 op;

	if (!res->started)
		op = last ? TRD_OP_READ_RESP_ONLY : TRD_OP_READ_RESP_FIRST;
	else
		op = last ? TRD_OP_READ_RESP_LAST : TRD_OP_READ_RESP_MIDDLE;
	skb = trd_pkt_alloc(qp, op, res->psn, false, paylen, &ext, &pay);
	if (skb && paylen) {
		/* Checked at the request; the MR may have gone since. */
		mr = trd_mr_lookup(qp->dev, res->rkey);
		if (!mr || mr->pd != to_tpd(qp->ib.pd) || !mr->umem ||
		    !(mr->access & IB_ACCESS_REMOTE_READ) ||
		    trd_mr_copy(mr, res->va, pay, paylen, false)) {
			kfree_skb(skb);
			skb = NULL;
			last = true;	/* the rest is not sent: the requester times out */
			trd_count(qp->dev, TRD_CNT_BAD_PKT, 1);
		}
	}
	if (skb && trd_op_ext_len(op))
		((struct trd_aeth *)ext)->smsn = htonl((u32)(TRD_AETH_ACK | TRD_AETH_CREDIT_INVALID)
						       << 24 | (qp->msn & TRD_PSN_MASK));
	res->started = true;
	res->psn = trd_psn_add(res->psn, 1);
	res->va += paylen;
	res->len -= paylen;
	if (last)
		qp->rd_head++;
	return skb;
}

/*
 * Sends READ responses, TRD_RESP_BATCH packets a run, then the ACK or NAK
 * that was held back behind them.
 */
void trd_resp_work(struct work_struct *w)
{
	struct trd_qp *qp = container_of(w, struct trd_qp, resp_work);
	struct sk_buff *skb;
	unsigned long flags;
	bool more = false, resp;
	int n;

	for (n = 0; n < TRD_RESP_BATCH; n++) {
		rcu_read_lock();	/* the MR lookup */
		spin_lock_irqsave(&qp->lock, flags);
		more = !qp->dying && qp->state >= IB_QPS_RTR && qp->state != IB_QPS_ERR &&
		       (qp->rd_head != qp->rd_tail || qp->rd_ack);
		resp = more && qp->rd_head != qp->rd_tail;
		skb = NULL;
		if (resp)
			skb = trd_resp_read_next(qp);
		else if (more)
			swap(skb, qp->rd_ack);
		spin_unlock_irqrestore(&qp->lock, flags);
		rcu_read_unlock();
		if (!more)
			break;
		if (skb && resp)
			trd_count(qp->dev, TRD_CNT_READ_RESP_SENT, 1);
		if (skb)
			trd_pkt_xmit(qp, skb);
	}
	if (more)
		queue_work(system_wq, &qp->resp_work);
}

/* READs being answered and the ACK behind them are dropped; the lock held. */
void trd_resp_drop_reads(struct trd_qp *qp)
{
	qp->rd_head = qp->rd_tail;
	kfree_skb(qp->rd_ack);
	qp->rd_ack = NULL;
}

void trd_resp_rcv(struct trd_qp *qp, struct sk_buff *skb, const struct trd_bth *bth)
{
	u32 apsn = ntohl(bth->apsn), psn = apsn & TRD_PSN_MASK;
	struct sk_buff *ack = NULL;
	unsigned long flags;
	u8 op = bth->opcode;
	u32 epsn;
	bool irn;
	int diff;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR)
		goto out;
	if (ntohl(bth->qpn) & TRD_BTH_IRN_CAP)
		qp->irn_req = true;
	irn = trd_resp_irn_framed(bth);
	diff = trd_psn_cmp(psn, qp->epsn);
	if (diff > 0 && irn && ((psn - qp->epsn) & TRD_PSN_MASK) < TRD_IRN_BITS) {
		ack = trd_resp_irn_ooo(qp, skb, bth, psn);
		goto out;
	}
	if (diff > 0) {
		if (!qp->nak_sent) {
			qp->nak_sent = true;
			trd_count(qp->dev, TRD_CNT_NAK_SEQ_SENT, 1);
			ack = trd_resp_ack(qp, TRD_AETH_NAK | TRD_NAK_PSN_SEQ_ERR, qp->epsn);
		}
		goto out;
	}
	if (diff < 0) {
		trd_count(qp->dev, TRD_CNT_DUP_REQ, 1);
		if (op == TRD_OP_READ_REQ) {
			ack = trd_resp_read(qp, skb, bth, psn, true);
			goto out;
		}
		ack = trd_resp_ack(qp, TRD_AETH_ACK | TRD_AETH_CREDIT_INVALID,
				   trd_psn_add(qp->epsn, TRD_PSN_MASK));
		goto out;
	}

	epsn = qp->epsn;
	if (op == TRD_OP_READ_REQ) {
		ack = trd_resp_read(qp, skb, bth, psn, false);
		/* Behind the READ's responses: what was placed past its PSNs. */
		if (!ack && qp->state != IB_QPS_ERR)
			ack = trd_resp_irn_ack(qp, epsn, false);
		goto out;
	}
	if (irn)
		ack = trd_resp_irn_in_order(qp, skb, bth, psn);
	else if (trd_op_is_send(op))
		ack = trd_resp_send(qp, bth, psn, trd_pkt_payload(bth), trd_pkt_paylen(skb, bth));
	else
		ack = trd_resp_write(qp, bth, psn, trd_pkt_payload(bth), trd_pkt_paylen(skb, bth));
	if (ack || qp->state == IB_QPS_ERR)
		goto out;		/* NAKed: the PSN was not consumed */
	qp->epsn = trd_psn_add(epsn, 1);
	qp->nak_sent = false;
	if (trd_op_is_last(op))
		qp->msn = (qp->msn + 1) & TRD_PSN_MASK;
	/* Acknowledge it, or everything it made contiguous. */
	ack = trd_resp_irn_ack(qp, qp->epsn, apsn & TRD_BTH_ACKREQ);
out:
	/*
	 * Responses go in PSN order: with READ responses still to send, an
	 * ACK or NAK waits behind them (the latest replaces one waiting).
	 */
	if (ack && qp->state != IB_QPS_ERR && qp->rd_head != qp->rd_tail) {
		swap(ack, qp->rd_ack);
		queue_work(system_wq, &qp->resp_work);
		spin_unlock_irqrestore(&qp->lock, flags);
		kfree_skb(ack);		/* superseded */
		return;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	if (ack)
		trd_pkt_xmit(qp, ack);
}
