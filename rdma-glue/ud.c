// SPDX-License-Identifier: GPL-2.0
/*
 * Datagrams: UD QPs and the GSI QP (QP1, through which ib_mad and ib_cm
 * exchange the CM MADs of rdma_cm), and the address handles they send to.
 * As Soft-RoCE speaks them (rxe_req.c, rxe_recv.c, rxe_resp.c):
 *
 * Out: one packet per message, SEND_ONLY (0x64) or SEND_ONLY_IMM (0x65),
 * BTH then DETH (Q_Key, source QP).  The GSI QP sends Q_Key IB_QP1_QKEY;
 * a UD QP the work request's remote_qkey, or its own Q_Key when the
 * request's has the high bit set (IBTA 10.2.4.4, as ib_mad asks with
 * IB_QP_SET_QKEY).  A message longer than the port's MTU is completed
 * without a packet, as C10-93.1.1 says and rxe does.  There is no Tonic
 * flow: post_send builds the packet and completes the work request at
 * once.  The packet leaves through the route at once, or, when the caller
 * has interrupts off (ib_mad posts under a spinlock_irqsave), from the
 * device's tasklet.  The PSN is the QP's snd_max, one per message (the
 * receiver does not check it).
 *
 * In: P_Key the default one, Q_Key IB_QP1_QKEY for QP1, the QP's for a UD
 * QP, else dropped and counted (bad_packets).  The receive WQE gets the
 * 40-byte GRH area first -- for RoCEv2 over IPv4, 20 zero bytes and the
 * IPv4 header, which ib_init_ah_attr_from_wc() parses to answer -- then
 * the payload; the completion carries IB_WC_GRH, the network header type
 * (IPv4) and the source QP from the DETH.  No receive WQE, or one too
 * small: the message is dropped (class D, as rxe; the WQE stays).
 */
#include <linux/ip.h>
#include <net/ip.h>
#include <rdma/ib_mad.h>
#include "tonic_rdma.h"

#define TRD_UD_TXQ_MAX	1024	/* packets waiting for the tasklet, per device */

int trd_create_ah(struct ib_ah *ibah, struct rdma_ah_init_attr *init, struct ib_udata *udata)
{
	const struct rdma_ah_attr *attr = init->ah_attr;
	struct trd_ah *ah = to_tah(ibah);

	if (udata && udata->outlen)
		return -EINVAL;		/* ABI 1: no driver data */
	if (attr->type != RDMA_AH_ATTR_TYPE_ROCE)
		return -EINVAL;
	return trd_av_ipv4(attr, &ah->saddr, &ah->daddr, &ah->tos, &ah->ttl);
}

int trd_destroy_ah(struct ib_ah *ah, u32 flags)
{
	return 0;
}

static void trd_ud_tx_task(struct tasklet_struct *t)
{
	struct trd_dev *dev = from_tasklet(dev, t, ud_tx_task);
	struct sk_buff *skb;

	while ((skb = skb_dequeue(&dev->ud_txq)))
		trd_pkt_out(dev, skb);
}

void trd_ud_dev_init(struct trd_dev *dev)
{
	skb_queue_head_init(&dev->ud_txq);
	tasklet_setup(&dev->ud_tx_task, trd_ud_tx_task);
}

/* The device goes: every QP is gone, nothing queues any more. */
void trd_ud_dev_cleanup(struct trd_dev *dev)
{
	tasklet_kill(&dev->ud_tx_task);
	skb_queue_purge(&dev->ud_txq);
}

/* One work request: checked, its packet built, ICRC'd and sent or queued, completed. */
static int trd_ud_send_one(struct trd_qp *qp, const struct ib_send_wr *wr)
{
	const struct ib_ud_wr *ud = ud_wr(wr);
	struct trd_dev *dev = qp->dev;
	struct trd_swqe wqe = {};
	struct trd_dest to = {};
	enum ib_wc_status st = IB_WC_SUCCESS;
	struct trd_deth *deth;
	struct trd_bth *bth;
	struct sk_buff *skb;
	struct trd_ah *ah;
	unsigned long flags;
	enum ib_qp_state state;
	u32 psn, qkey;
	u64 len = 0;
	void *pay;
	u8 op;
	int i, err;

	if (wr->opcode != IB_WR_SEND && wr->opcode != IB_WR_SEND_WITH_IMM)
		return -EINVAL;
	if ((unsigned int)wr->num_sge > TRD_MAX_SGE || (wr->send_flags & IB_SEND_INLINE) ||
	    !ud->ah || ud->ah->device != qp->ib.device)
		return -EINVAL;
	for (i = 0; i < wr->num_sge; i++)
		len += wr->sg_list[i].length;
	if (len > TRD_MAX_MSG)
		return -EINVAL;
	ah = to_tah(ud->ah);
	wqe.wr_id = wr->wr_id;
	wqe.opcode = wr->opcode;
	wqe.send_flags = wr->send_flags;
	wqe.length = len;

	spin_lock_irqsave(&qp->lock, flags);
	state = qp->state;
	psn = qp->snd_max;
	if (state == IB_QPS_RTS)
		qp->snd_max = trd_psn_add(psn, 1);
	qkey = qp->qkey;
	spin_unlock_irqrestore(&qp->lock, flags);
	if (state == IB_QPS_ERR) {
		trd_send_wc(qp, &wqe, IB_WC_WR_FLUSH_ERR);
		return 0;
	}
	if (state != IB_QPS_RTS)
		return -EINVAL;
	/* C10-93.1.1: longer than the port's MTU, no packet and no error. */
	if (len > ib_mtu_enum_to_int(trd_active_mtu(dev)))
		goto complete;

	if (qp->ib.qp_type == IB_QPT_GSI)
		qkey = IB_QP1_QKEY;
	else if (!(ud->remote_qkey & 0x80000000u))
		qkey = ud->remote_qkey;
	to.saddr = ah->saddr;
	to.daddr = ah->daddr;
	to.tos = ah->tos;
	to.ttl = ah->ttl;
	to.sport = qp->sport;
	to.dqpn = ud->remote_qpn & TRD_QPN_MASK;
	op = wr->opcode == IB_WR_SEND_WITH_IMM ? TRD_OP_UD_SEND_ONLY_IMM : TRD_OP_UD_SEND_ONLY;
	skb = trd_pkt_alloc_to(dev, &to, op, psn, false, len, (void **)&deth, &pay);
	if (!skb)
		return -ENOMEM;		/* the caller hears it */
	/*
	 * No route: the caller hears it too, when it can be looked up now.
	 * With interrupts off the tasklet looks it up, and drops the packet
	 * if there is none.
	 */
	if (!irqs_disabled() && !in_hardirq() && trd_pkt_route(dev, skb)) {
		kfree_skb(skb);
		return -ENOMEM;
	}
	bth = (struct trd_bth *)deth - 1;
	if (wr->send_flags & IB_SEND_SOLICITED)
		bth->flags |= TRD_BTH_SE;
	deth->qkey = htonl(qkey);
	deth->sqpn = htonl(qp->ib.qp_num & TRD_QPN_MASK);
	if (op == TRD_OP_UD_SEND_ONLY_IMM)
		((struct trd_immdt *)(deth + 1))->imm = wr->ex.imm_data;

	rcu_read_lock();		/* MRs are looked up under RCU */
	err = trd_sge_copy(qp, wr->sg_list, wr->num_sge, 0, pay, len, false);
	rcu_read_unlock();
	if (err) {
		kfree_skb(skb);
		st = IB_WC_LOC_PROT_ERR;
		goto complete;
	}
	trd_pkt_seal(dev, skb);
	if (irqs_disabled() || in_hardirq()) {
		if (skb_queue_len(&dev->ud_txq) >= TRD_UD_TXQ_MAX) {
			kfree_skb(skb);
			return -ENOMEM;
		}
		skb_queue_tail(&dev->ud_txq, skb);
		tasklet_schedule(&dev->ud_tx_task);
	} else {
		trd_pkt_out(dev, skb);
	}
complete:
	trd_send_wc(qp, &wqe, st);
	return 0;
}

int trd_ud_post_send(struct trd_qp *qp, const struct ib_send_wr *wr, const struct ib_send_wr **bad)
{
	int err;

	for (; wr; wr = wr->next) {
		err = trd_ud_send_one(qp, wr);
		if (err) {
			*bad = wr;
			return err;
		}
	}
	return 0;
}

/* A P_Key that matches the default one (full member 0xffff), as rxe's pkey_match. */
static bool trd_pkey_ok(u16 pkey)
{
	return (pkey & 0x7fff) == (TRD_PKEY_DEFAULT & 0x7fff);
}

/* A UD SEND for QP bth->qpn, trimmed of its ICRC; softirq, under RCU. */
void trd_ud_rcv(struct trd_dev *dev, struct sk_buff *skb, const struct trd_bth *bth)
{
	const struct trd_deth *deth = trd_pkt_ext(bth);
	u32 qpn = ntohl(bth->qpn) & TRD_QPN_MASK;
	u32 len = trd_pkt_paylen(skb, bth);
	union rdma_network_hdr grh = {};
	struct trd_rwqe *rwqe;
	struct trd_qp *qp;
	unsigned long flags;
	struct ib_wc wc = {};
	u32 qkey;

	if (!trd_pkey_ok(ntohs(bth->pkey)) || !qpn)
		goto bad;
	qp = xa_load(&dev->qps, qpn);
	if (!qp || READ_ONCE(qp->dying) ||
	    (qp->ib.qp_type != IB_QPT_UD && qp->ib.qp_type != IB_QPT_GSI))
		goto bad;

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state < IB_QPS_RTR || qp->state == IB_QPS_ERR)
		goto drop;
	qkey = qp->ib.qp_type == IB_QPT_GSI ? IB_QP1_QKEY : qp->qkey;
	if (ntohl(deth->qkey) != qkey)
		goto bad_unlock;
	if (qp->rq.cons == qp->rq.prod)
		goto drop;			/* no receive WQE: UD has no RNR */
	rwqe = &qp->rq.wqe[qp->rq.cons % qp->rq.size];
	if (len > rwqe->length || sizeof(grh) > rwqe->length - len)
		goto bad_unlock;		/* class D: dropped, the WQE stays */
	qp->rq.cons++;

	wc.wr_id = rwqe->wr_id;
	wc.status = IB_WC_SUCCESS;
	wc.opcode = IB_WC_RECV;
	wc.byte_len = sizeof(grh) + len;
	wc.qp = &qp->ib;
	wc.src_qp = ntohl(deth->sqpn) & TRD_QPN_MASK;
	wc.wc_flags = IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
	wc.network_hdr_type = RDMA_NETWORK_IPV4;
	wc.pkey_index = 0;
	wc.port_num = 1;
	if (bth->opcode == TRD_OP_UD_SEND_ONLY_IMM) {
		wc.ex.imm_data = ((const struct trd_immdt *)(deth + 1))->imm;
		wc.wc_flags |= IB_WC_WITH_IMM;
	}
	memcpy(&grh.roce4grh, ip_hdr(skb), sizeof(grh.roce4grh));
	if (trd_sge_copy(qp, rwqe->sge, rwqe->num_sge, 0, &grh, sizeof(grh), true) ||
	    trd_sge_copy(qp, rwqe->sge, rwqe->num_sge, sizeof(grh), trd_pkt_payload(bth), len,
			 true)) {
		wc.status = IB_WC_LOC_PROT_ERR;
		wc.wc_flags = 0;
		wc.byte_len = 0;
	}
	trd_cq_post(to_tcq(qp->ib.recv_cq), &wc, bth->flags & TRD_BTH_SE);
drop:
	spin_unlock_irqrestore(&qp->lock, flags);
	return;
bad_unlock:
	spin_unlock_irqrestore(&qp->lock, flags);
bad:
	trd_count(dev, TRD_CNT_BAD_PKT, 1);
}
