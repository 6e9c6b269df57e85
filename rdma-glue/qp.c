// SPDX-License-Identifier: GPL-2.0
/*
 * Queue pairs: RC, the state machine (RESET -> INIT -> RTR -> RTS, ERR),
 * the attributes the transport uses, and posting work requests.  The GSI
 * QP (QP1, created by ib_mad on every RoCE port) and UD QPs send and
 * receive datagrams (ud.c).
 */
#include <linux/hash.h>
#include <linux/cgroup.h>
#include <net/ipv6.h>
#include <rdma/ib_cache.h>
#include "tonic_rdma.h"

static void trd_qp_reset(struct trd_qp *qp)
{
	qp->sq.prod = qp->sq.cons = qp->sq.cur = qp->sq.push = 0;
	qp->push_tail = qp->rd_out = 0;
	qp->rq.prod = qp->rq.cons = 0;
	qp->isn = qp->snd_una = qp->snd_max = 0;
	qp->una_seg = qp->seg_tail = qp->pushed = 0;
	qp->noack_pkts = qp->rd_resp_noack = 0;
	qp->comp_psn = qp->ack_psn = qp->rd_nak_psn = qp->desc_end = qp->flow_in_end = 0;
	qp->last_desc_psn = 0;
	qp->last_desc_rtx = false;
	qp->rnr_retries = 0;
	qp->epsn = 0;
	qp->msn = 0;
	qp->nak_sent = false;
	qp->irn_peer = qp->irn_req = false;
	qp->rsn_next = 0;
	qp->rdsn_next = qp->rd_sn = 0;
	bitmap_zero(qp->irn_placed, TRD_IRN_BITS);
	qp->in_recv = false;
	qp->wrkey = 0;
	qp->wlen = qp->woff = 0;
	trd_resp_drop_reads(qp);
	qp->rd_head = qp->rd_tail = 0;
}

int trd_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *init, struct ib_udata *udata)
{
	struct trd_dev *dev = to_tdev(ibqp->device);
	struct trd_qp *qp = to_tqp(ibqp);
	struct ib_qp_cap *cap = &init->cap;
	u32 qpn;
	int err;

	if (init->qp_type != IB_QPT_RC && init->qp_type != IB_QPT_UD &&
	    init->qp_type != IB_QPT_GSI)
		return -EOPNOTSUPP;
	if (init->srq || init->create_flags)
		return -EOPNOTSUPP;
	if (cap->max_send_wr > TRD_MAX_QP_WR || cap->max_recv_wr > TRD_MAX_QP_WR ||
	    cap->max_send_sge > TRD_MAX_SGE || cap->max_recv_sge > TRD_MAX_SGE)
		return -EINVAL;
	if (cap->max_inline_data)
		return -EINVAL;		/* not yet: see Documentation/rdma.rst */
	if (udata && udata->outlen)
		return -EINVAL;		/* ABI 1: no driver data */
	if (atomic_inc_return(&dev->nqp) > TRD_MAX_QP) {
		err = -ENOMEM;
		goto err_count;
	}

	qp->dev = dev;
	spin_lock_init(&qp->lock);
	INIT_LIST_HEAD(&qp->cnode);
	mutex_init(&qp->modify_lock);
	qp->state = IB_QPS_RESET;
	qp->sq_sig_all = init->sq_sig_type == IB_SIGNAL_ALL_WR;
	qp->sq.size = max(cap->max_send_wr, 1u);
	qp->rq.size = max(cap->max_recv_wr, 1u);
	err = -ENOMEM;
	qp->sq.wqe = kvcalloc(qp->sq.size, sizeof(*qp->sq.wqe), GFP_KERNEL);
	qp->rq.wqe = kvcalloc(qp->rq.size, sizeof(*qp->rq.wqe), GFP_KERNEL);
	if (init->qp_type == IB_QPT_RC)
		qp->txq = kvcalloc(TRD_TXQ, sizeof(*qp->txq), GFP_KERNEL);
	if (!qp->sq.wqe || !qp->rq.wqe || (init->qp_type == IB_QPT_RC && !qp->txq))
		goto err_free;
	cap->max_send_wr = qp->sq.size;
	cap->max_recv_wr = qp->rq.size;
	cap->max_send_sge = TRD_MAX_SGE;
	cap->max_recv_sge = TRD_MAX_SGE;
	cap->max_inline_data = 0;
	qp->mtu = 256;
	qp->path_mtu = IB_MTU_256;
	qp->port_num = 1;
	qp->ttl = 64;
	spin_lock_init(&qp->txq_lock);
	timer_setup(&qp->rnr_timer, trd_rnr_timer, 0);
	INIT_WORK(&qp->req_work, trd_req_work);
	INIT_WORK(&qp->resp_work, trd_resp_work);
	trd_cw_qp_init(qp);	/* before the rx path can find the QP */
	trd_qp_reset(qp);

	if (init->qp_type == IB_QPT_GSI) {
		qpn = 1;
		err = xa_insert(&dev->qps, qpn, qp, GFP_KERNEL);
	} else {
		err = xa_alloc_cyclic(&dev->qps, &qpn, qp, XA_LIMIT(16, TRD_QPN_MASK),
				      &dev->qp_next, GFP_KERNEL);
	}
	if (err < 0)
		goto err_free;
	ibqp->qp_num = qpn;
	qp->sport = TRD_SPORT_BASE + (hash_32(qpn, 14) & 0x3fff);
	qp->uid = current_fsuid();
	rcu_read_lock();
	qp->cgroup = task_dfl_cgroup(current);
	if (!cgroup_tryget(qp->cgroup))
		qp->cgroup = NULL;
	rcu_read_unlock();
	return 0;

err_free:
	kvfree(qp->txq);
	kvfree(qp->sq.wqe);
	kvfree(qp->rq.wqe);
err_count:
	atomic_dec(&dev->nqp);
	return err;
}

/*
 * The IPv4 addresses, TOS and TTL of an address vector (a QP's, an address
 * handle's), from its GIDs: RoCEv2 over IPv4 only, for now.
 */
int trd_av_ipv4(const struct rdma_ah_attr *ah, __be32 *saddr, __be32 *daddr, u8 *tos, u8 *ttl)
{
	const struct ib_global_route *grh = rdma_ah_read_grh(ah);
	const struct ib_gid_attr *sgid = grh->sgid_attr;

	if (!(rdma_ah_get_ah_flags(ah) & IB_AH_GRH) || !sgid)
		return -EINVAL;
	if (sgid->gid_type != IB_GID_TYPE_ROCE_UDP_ENCAP)
		return -EPROTONOSUPPORT;
	if (!ipv6_addr_v4mapped((const struct in6_addr *)sgid->gid.raw) ||
	    !ipv6_addr_v4mapped((const struct in6_addr *)grh->dgid.raw))
		return -EAFNOSUPPORT;
	memcpy(saddr, &sgid->gid.raw[12], 4);
	memcpy(daddr, &grh->dgid.raw[12], 4);
	*tos = grh->traffic_class;
	*ttl = grh->hop_limit ?: 64;
	return 0;
}

static int trd_qp_set_av(struct trd_qp *qp, const struct rdma_ah_attr *ah)
{
	int err = trd_av_ipv4(ah, &qp->saddr, &qp->daddr, &qp->tos, &qp->ttl);

	if (err)
		return err;
	qp->ah = *ah;
	qp->ah.grh.sgid_attr = NULL;	/* no reference kept */
	return 0;
}

/* As rxe_qp_chk_attr: values the transport cannot honour are refused. */
static int trd_qp_check_attr(const struct ib_qp_attr *attr, int mask)
{
	if ((mask & IB_QP_PATH_MTU) &&
	    (attr->path_mtu < IB_MTU_256 || attr->path_mtu > IB_MTU_4096))
		return -EINVAL;
	if ((mask & IB_QP_RNR_RETRY) && attr->rnr_retry > 7)
		return -EINVAL;
	if ((mask & IB_QP_RETRY_CNT) && attr->retry_cnt > 7)
		return -EINVAL;
	if ((mask & IB_QP_TIMEOUT) && attr->timeout > 31)
		return -EINVAL;
	if ((mask & IB_QP_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic > TRD_MAX_INIT_RD_ATOM)
		return -EINVAL;
	if ((mask & IB_QP_MAX_DEST_RD_ATOMIC) && attr->max_dest_rd_atomic > TRD_MAX_RD_ATOM)
		return -EINVAL;
	return 0;
}

int trd_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask, struct ib_udata *udata)
{
	struct trd_qp *qp = to_tqp(ibqp);
	enum ib_qp_state cur, next;
	struct ib_port_attr pattr;
	unsigned long flags;
	bool attached = false, ok;
	int err;

	if (mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;
	err = trd_qp_check_attr(attr, mask);
	if (err)
		return err;
	if ((mask & IB_QP_PATH_MTU) && ib_query_port(ibqp->device, 1, &pattr))
		return -EIO;

	/*
	 * uverbs lets modifies of one QP run at once (it read-locks the QP):
	 * one at a time here, or two could attach a flow each and lose one
	 * that later runs against a freed QP.
	 */
	mutex_lock(&qp->modify_lock);
	spin_lock_irqsave(&qp->lock, flags);
	cur = (mask & IB_QP_CUR_STATE) ? attr->cur_qp_state : qp->state;
	next = (mask & IB_QP_STATE) ? attr->qp_state : cur;
	ok = ib_modify_qp_is_ok(cur, next, ibqp->qp_type, mask) &&
	     (!(mask & IB_QP_PORT) || attr->port_num == 1);
	spin_unlock_irqrestore(&qp->lock, flags);
	if (!ok) {
		err = -EINVAL;
		goto unlock;
	}
	/* Leaving RTS for RESET (or ERR, asked for): the flow goes first. */
	if ((mask & IB_QP_STATE) && (next == IB_QPS_RESET || next == IB_QPS_ERR))
		trd_flow_detach(qp);
	/* Entering RTS: an RC QP's send side is a Tonic flow from now on. */
	if (next == IB_QPS_RTS && cur != IB_QPS_RTS && ibqp->qp_type == IB_QPT_RC &&
	    !qp->flow_on) {
		u32 isn = (mask & IB_QP_SQ_PSN) ? attr->sq_psn & TRD_PSN_MASK : qp->isn;
		u8 timeout = (mask & IB_QP_TIMEOUT) ? attr->timeout : qp->timeout;

		if (mask & IB_QP_PATH_MTU)
			qp->mtu = ib_mtu_enum_to_int(min(attr->path_mtu, pattr.active_mtu));
		err = trd_flow_attach(qp, isn, timeout);
		if (err)
			goto unlock;
		attached = true;
	}

	spin_lock_irqsave(&qp->lock, flags);
	if (qp->state != cur) {		/* the receive path moved it (to ERR) */
		err = -EINVAL;
		goto out;
	}
	if (mask & IB_QP_AV) {
		err = trd_qp_set_av(qp, &attr->ah_attr);
		if (err)
			goto out;
	}
	if (mask & IB_QP_ACCESS_FLAGS)
		qp->access = attr->qp_access_flags;
	if (mask & IB_QP_PKEY_INDEX)
		qp->pkey_index = attr->pkey_index;
	if (mask & IB_QP_QKEY)
		qp->qkey = attr->qkey;
	if (mask & IB_QP_PATH_MTU) {
		qp->path_mtu = min(attr->path_mtu, pattr.active_mtu);
		qp->mtu = ib_mtu_enum_to_int(qp->path_mtu);
	}
	if (mask & IB_QP_TIMEOUT)
		qp->timeout = attr->timeout;
	if (mask & IB_QP_RETRY_CNT)
		qp->retry_cnt = attr->retry_cnt;
	if (mask & IB_QP_RNR_RETRY)
		qp->rnr_retry = attr->rnr_retry;
	if (mask & IB_QP_MIN_RNR_TIMER)
		qp->min_rnr_timer = attr->min_rnr_timer;
	if (mask & IB_QP_MAX_QP_RD_ATOMIC)
		qp->max_rd_atomic = attr->max_rd_atomic;
	if (mask & IB_QP_MAX_DEST_RD_ATOMIC)
		qp->max_dest_rd_atomic = attr->max_dest_rd_atomic;
	if (mask & IB_QP_RQ_PSN) {
		qp->epsn = attr->rq_psn & TRD_PSN_MASK;
		qp->nak_sent = false;
		bitmap_zero(qp->irn_placed, TRD_IRN_BITS);
	}
	if (mask & IB_QP_SQ_PSN)
		qp->isn = qp->snd_una = qp->snd_max = attr->sq_psn & TRD_PSN_MASK;
	if (mask & IB_QP_DEST_QPN)
		qp->dest_qpn = attr->dest_qp_num & TRD_QPN_MASK;

	if (next != cur || (mask & IB_QP_STATE)) {
		if (next == IB_QPS_RESET)
			trd_qp_reset(qp);
		if (next == IB_QPS_ERR)
			trd_qp_error(qp);
		qp->state = next;
	}
out:
	spin_unlock_irqrestore(&qp->lock, flags);
	if (err && attached)
		trd_flow_detach(qp);
unlock:
	mutex_unlock(&qp->modify_lock);
	if (!err && next == IB_QPS_RTS)
		trd_req_kick(qp);
	return err;
}

int trd_query_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init)
{
	struct trd_qp *qp = to_tqp(ibqp);
	unsigned long flags;

	memset(attr, 0, sizeof(*attr));
	memset(init, 0, sizeof(*init));
	spin_lock_irqsave(&qp->lock, flags);
	attr->qp_state = qp->state;
	attr->cur_qp_state = qp->state;
	attr->path_mtu = qp->path_mtu;
	attr->path_mig_state = IB_MIG_MIGRATED;
	attr->qkey = qp->qkey;
	attr->rq_psn = qp->epsn;
	attr->sq_psn = qp->snd_max;
	attr->dest_qp_num = qp->dest_qpn;
	attr->qp_access_flags = qp->access;
	attr->ah_attr = qp->ah;
	attr->pkey_index = qp->pkey_index;
	attr->port_num = qp->port_num;
	attr->timeout = qp->timeout;
	attr->retry_cnt = qp->retry_cnt;
	attr->rnr_retry = qp->rnr_retry;
	attr->min_rnr_timer = qp->min_rnr_timer;
	attr->max_rd_atomic = qp->max_rd_atomic;
	attr->max_dest_rd_atomic = qp->max_dest_rd_atomic;
	attr->cap.max_send_wr = qp->sq.size;
	attr->cap.max_recv_wr = qp->rq.size;
	attr->cap.max_send_sge = TRD_MAX_SGE;
	attr->cap.max_recv_sge = TRD_MAX_SGE;
	spin_unlock_irqrestore(&qp->lock, flags);

	init->qp_type = ibqp->qp_type;
	init->send_cq = ibqp->send_cq;
	init->recv_cq = ibqp->recv_cq;
	init->cap = attr->cap;
	init->sq_sig_type = qp->sq_sig_all ? IB_SIGNAL_ALL_WR : IB_SIGNAL_REQ_WR;
	return 0;
}

int trd_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	struct trd_qp *qp = to_tqp(ibqp);
	struct trd_dev *dev = qp->dev;
	unsigned long flags;

	spin_lock_irqsave(&qp->lock, flags);
	WRITE_ONCE(qp->dying, true);
	spin_unlock_irqrestore(&qp->lock, flags);
	xa_erase(&dev->qps, ibqp->qp_num);
	synchronize_rcu();		/* the rx path is done with it */
	trd_cw_qp_destroy(qp);		/* and so, then, is the resume timer */
	trd_flow_detach(qp);
	if (qp->cgroup)
		cgroup_put(qp->cgroup);
	del_timer_sync(&qp->rnr_timer);
	cancel_work_sync(&qp->req_work);
	cancel_work_sync(&qp->resp_work);
	kfree_skb(qp->rd_ack);
	kvfree(qp->txq);
	kvfree(qp->sq.wqe);
	kvfree(qp->rq.wqe);
	atomic_dec(&dev->nqp);
	return 0;
}

/* Flush every outstanding work request; the lock held. */
void trd_qp_error(struct trd_qp *qp)
{
	qp->state = IB_QPS_ERR;
	while (qp->sq.cons != qp->sq.prod) {
		trd_send_wc(qp, &qp->sq.wqe[qp->sq.cons % qp->sq.size], IB_WC_WR_FLUSH_ERR);
		qp->sq.cons++;
	}
	qp->sq.cur = qp->sq.push = qp->sq.cons;
	qp->rd_out = 0;
	trd_resp_drop_reads(qp);
	if (qp->in_recv) {
		trd_recv_wc(qp, &qp->rwqe, IB_WC_WR_FLUSH_ERR, IB_WC_RECV, 0, NULL);
		qp->in_recv = false;
	}
	while (qp->rq.cons != qp->rq.prod) {
		trd_recv_wc(qp, &qp->rq.wqe[qp->rq.cons % qp->rq.size], IB_WC_WR_FLUSH_ERR,
			    IB_WC_RECV, 0, NULL);
		qp->rq.cons++;
	}
}

static int trd_sge_len(const struct ib_sge *sge, int n, u32 *len)
{
	u64 sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += sge[i].length;
	if (sum > TRD_MAX_MSG)
		return -EINVAL;
	*len = sum;
	return 0;
}

int trd_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr, const struct ib_send_wr **bad)
{
	struct trd_qp *qp = to_tqp(ibqp);
	unsigned long flags;
	int err = 0;

	if (ibqp->qp_type != IB_QPT_RC)
		return trd_ud_post_send(qp, wr, bad);	/* UD, GSI: ud.c */
	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		struct trd_swqe *wqe;

		if (ibqp->qp_type != IB_QPT_RC || qp->state < IB_QPS_RTS) {
			err = -EINVAL;
			break;
		}
		if ((unsigned int)wr->num_sge > TRD_MAX_SGE || (wr->send_flags & IB_SEND_INLINE)) {
			err = -EINVAL;
			break;
		}
		if (qp->sq.prod - qp->sq.cons >= qp->sq.size) {
			err = -ENOMEM;
			break;
		}
		wqe = &qp->sq.wqe[qp->sq.prod % qp->sq.size];
		memset(wqe, 0, sizeof(*wqe));
		switch (wr->opcode) {
		case IB_WR_RDMA_READ:
		case IB_WR_RDMA_WRITE_WITH_IMM:
		case IB_WR_RDMA_WRITE:
			wqe->remote_addr = rdma_wr(wr)->remote_addr;
			wqe->rkey = rdma_wr(wr)->rkey;
			fallthrough;
		case IB_WR_SEND_WITH_IMM:
		case IB_WR_SEND:
			break;
		default:
			err = -EOPNOTSUPP;
			break;
		}
		if (err)
			break;
		wqe->wr_id = wr->wr_id;
		wqe->opcode = wr->opcode;
		wqe->send_flags = wr->send_flags;
		wqe->imm = wr->ex.imm_data;
		wqe->num_sge = wr->num_sge;
		memcpy(wqe->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
		err = trd_sge_len(wqe->sge, wqe->num_sge, &wqe->length);
		if (err)
			break;
		/* Its packets: the flow's next segments (announced by the requester). */
		wqe->first_psn = qp->snd_max;
		wqe->npkts = max_t(u32, 1, DIV_ROUND_UP(wqe->length, qp->mtu));
		/*
		 * PSNs compare within half of their 24-bit space: the packets
		 * outstanding stay well inside it, or acks would be misread.
		 */
		if (((qp->snd_max - qp->snd_una) & TRD_PSN_MASK) + wqe->npkts >= TRD_PSN_INFLIGHT_MAX) {
			err = -ENOMEM;
			break;
		}
		qp->snd_max = trd_psn_add(qp->snd_max, wqe->npkts);
		qp->seg_tail += wqe->npkts;
		if (wr->opcode == IB_WR_SEND || wr->opcode == IB_WR_SEND_WITH_IMM ||
		    wr->opcode == IB_WR_RDMA_WRITE_WITH_IMM)
			wqe->rsn = qp->rsn_next++;
		else if (wr->opcode == IB_WR_RDMA_READ)
			wqe->rsn = qp->rdsn_next++;
		qp->sq.prod++;
		if (qp->state == IB_QPS_ERR)
			trd_qp_error(qp);
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	if (err)
		*bad = wr;
	trd_req_kick(qp);
	return err;
}

int trd_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr, const struct ib_recv_wr **bad)
{
	struct trd_qp *qp = to_tqp(ibqp);
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&qp->lock, flags);
	for (; wr; wr = wr->next) {
		struct trd_rwqe *rwqe;

		if (qp->state == IB_QPS_RESET || (unsigned int)wr->num_sge > TRD_MAX_SGE) {
			err = -EINVAL;
			break;
		}
		if (qp->rq.prod - qp->rq.cons >= qp->rq.size) {
			err = -ENOMEM;
			break;
		}
		rwqe = &qp->rq.wqe[qp->rq.prod % qp->rq.size];
		rwqe->wr_id = wr->wr_id;
		rwqe->num_sge = wr->num_sge;
		memcpy(rwqe->sge, wr->sg_list, wr->num_sge * sizeof(*wr->sg_list));
		err = trd_sge_len(rwqe->sge, rwqe->num_sge, &rwqe->length);
		if (err)
			break;
		qp->rq.prod++;
		if (qp->state == IB_QPS_ERR)
			trd_qp_error(qp);
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	if (err)
		*bad = wr;
	return err;
}
