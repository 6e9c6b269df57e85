// SPDX-License-Identifier: GPL-2.0
/*
 * The Tonic flow of an RC queue pair: attached when the QP enters RTS,
 * detached when it is reset or destroyed.  Segment i of the flow is the
 * request packet with PSN isn + i (isn: the QP's initial send PSN), C is
 * the path MTU.  post_send gives each WQE its PSNs and the requester
 * announces them (push); the flow says which segment to send, new or
 * again (desc), and when everything before a segment is acknowledged
 * (note ACKED), or that it gave up (note FAILED); the completer hands it
 * the ACKs (TONIC_PKT_ACK) and NAK sequence errors (TONIC_PKT_NACK), IRN's
 * with the PSN that triggered them.
 *
 * desc() and note() run under the Tonic device's lock: they queue and
 * schedule the QP's work, nothing more.
 */
#include <linux/moduleparam.h>
#include <uapi/linux/tonic.h>
#include "program.h"
#include "../driver/registry.h"
#include "tonic_rdma.h"

/*
 * The program of new QPs' flows, by name as net.tonic.program: a program
 * module is held only while a flow runs it.  Default rc, IB RC
 * reliability: go-back-N on NACK and timeout, no selective acks (dcqcn and
 * ibcc add rate control on CNPs).
 */
static char trd_flow_prog[TONIC_PROG_NAME_MAX] = "rc";
static DEFINE_SPINLOCK(trd_flow_prog_lock);

/*
 * Checked when written, as net.ipv4.tcp_congestion_control is: an unknown
 * name is refused, and "echo dcqcn >" works (the newline is not part of
 * the name).
 */
static int trd_flow_prog_set(const char *val, const struct kernel_param *kp)
{
	char name[TONIC_PROG_NAME_MAX];
	size_t len = strcspn(val, "\n");

	if (!len || len >= sizeof(name))
		return -EINVAL;
	memcpy(name, val, len);
	name[len] = 0;
	if (!tonic_program_exists(name))
		return -ENOENT;
	spin_lock(&trd_flow_prog_lock);
	strscpy(trd_flow_prog, name, sizeof(trd_flow_prog));
	spin_unlock(&trd_flow_prog_lock);
	return 0;
}

static int trd_flow_prog_get(char *buf, const struct kernel_param *kp)
{
	char name[TONIC_PROG_NAME_MAX];

	spin_lock(&trd_flow_prog_lock);
	strscpy(name, trd_flow_prog, sizeof(name));
	spin_unlock(&trd_flow_prog_lock);
	return sysfs_emit(buf, "%s\n", name);
}

static const struct kernel_param_ops trd_flow_prog_ops = {
	.set = trd_flow_prog_set,
	.get = trd_flow_prog_get,
};
module_param_cb(program, &trd_flow_prog_ops, NULL, 0644);
MODULE_PARM_DESC(program, "Tonic program of new RC QPs' flows: rc (default), dcqcn, ibcc");

/* cfg.param[] of new flows; each program defines them (Documentation/programs.rst). */
static unsigned int trd_flow_params[TONIC_PROG_PARAMS];
module_param_array_named(program_params, trd_flow_params, uint, NULL, 0644);
MODULE_PARM_DESC(program_params,
		 "Program parameters of new RC QPs' flows, comma-separated (0 = the program's default)");

static void trd_flow_desc(void *priv, const struct tonic_desc *d)
{
	struct trd_qp *qp = priv;
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&qp->txq_lock, flags);
	ok = qp->txq_tail - qp->txq_head < TRD_TXQ;
	if (ok) {
		qp->txq[qp->txq_tail % TRD_TXQ] = (struct trd_txd){ d->seg, d->flags };
		qp->txq_tail++;
	}
	spin_unlock_irqrestore(&qp->txq_lock, flags);
	/* A dropped one is lost as on the wire: the flow's timeout resends it. */
	trd_count(qp->dev, ok ? TRD_CNT_FLOW_DESCS : TRD_CNT_FLOW_DESC_DROPS, 1);
	queue_work(system_wq, &qp->req_work);
}

static void trd_flow_note(void *priv, const struct tonic_note *n)
{
	struct trd_qp *qp = priv;
	unsigned long flags;

	spin_lock_irqsave(&qp->txq_lock, flags);
	if (n->type == TONIC_NOTE_ACKED && tonic_after(n->value, qp->flow_acked))
		qp->flow_acked = n->value;
	else if (n->type == TONIC_NOTE_FAILED)
		qp->flow_failed = true;
	spin_unlock_irqrestore(&qp->txq_lock, flags);
	queue_work(system_wq, &qp->req_work);
}

/*
 * What "tonic flow show" says of the flow: the QP and its IPv4/UDP
 * addresses.  Under the device's lock, any context: no QP lock (the
 * fields are set before the flow is attached and while the QP is in RTS).
 * Charged to, and shown in, init_net: an RDMA device is not a namespace's.
 */
static int trd_flow_info(void *priv, struct tonic_flow_info *fi)
{
	struct trd_qp *qp = priv;

	fi->owner = TONIC_FLOW_OWNER_RDMA_QP;
	strscpy(fi->rdma_dev, dev_name(&qp->dev->ib.dev), sizeof(fi->rdma_dev));
	fi->qpn = qp->ib.qp_num;
	fi->family = AF_INET;
	fi->saddr4 = READ_ONCE(qp->saddr);
	fi->daddr4 = READ_ONCE(qp->daddr);
	fi->sport = htons(qp->sport);
	fi->dport = htons(TRD_UDP_DPORT);
	fi->uid = qp->uid;
	fi->cgroup = qp->cgroup;
	return 0;
}

static const struct tonic_flow_client trd_flow_client = {
	.desc = trd_flow_desc,
	.note = trd_flow_note,
	.info = trd_flow_info,
};

bool trd_flow_pop(struct trd_qp *qp, struct trd_txd *d)
{
	unsigned long flags;
	bool ok;

	spin_lock_irqsave(&qp->txq_lock, flags);
	ok = qp->txq_head != qp->txq_tail;
	if (ok)
		*d = qp->txq[qp->txq_head++ % TRD_TXQ];
	spin_unlock_irqrestore(&qp->txq_lock, flags);
	return ok;
}

void trd_flow_take_notes(struct trd_qp *qp, u32 *acked, bool *failed)
{
	unsigned long flags;

	spin_lock_irqsave(&qp->txq_lock, flags);
	*acked = qp->flow_acked;
	*failed = qp->flow_failed;
	spin_unlock_irqrestore(&qp->txq_lock, flags);
}

/* The segment index of @psn, near the oldest unacknowledged one. */
u32 trd_psn_to_seg(const struct trd_qp *qp, u32 psn)
{
	return qp->una_seg + (u32)(trd_psn_cmp(psn, qp->snd_una) >> 8);
}

/* Process context, no QP lock: the QP is entering RTS. */
int trd_flow_attach(struct trd_qp *qp, u32 isn, u8 timeout)
{
	struct tonic_dev *tdev = tonic_dev_default();
	char name[TONIC_PROG_NAME_MAX];
	struct tonic_flow_cfg cfg = {};
	unsigned long flags;
	u64 rto_ns;
	u32 flow;
	int err, i;

	if (!tdev)
		return -ENODEV;
	spin_lock(&trd_flow_prog_lock);
	strscpy(name, trd_flow_prog, sizeof(name));
	spin_unlock(&trd_flow_prog_lock);
	/* Ours until the flow holds it (its module may have gone since). */
	cfg.prog = tonic_program_get(name);
	if (!cfg.prog)
		return -ENOENT;
	cfg.seg_size = qp->mtu;
	cfg.wnd_segs = TRD_WINDOW;
	cfg.init_cwnd = TRD_WINDOW;
	cfg.ack_notify = 1;
	for (i = 0; i < TONIC_PROG_PARAMS; i++)
		cfg.param[i] = READ_ONCE(trd_flow_params[i]);
	/* The QP's local ACK timeout, 4.096 us * 2^timeout, at least 10 ms. */
	rto_ns = timeout ? max_t(u64, 4096ull << min_t(u8, timeout, 31),
				 TRD_MIN_RTO_MS * NSEC_PER_MSEC) :
			   TRD_DEF_RTO_MS * NSEC_PER_MSEC;
	cfg.rto_cycles = min_t(u64, div_u64(rto_ns * 1000, tdev->cycle_ps), U32_MAX);

	spin_lock_irqsave(&qp->txq_lock, flags);
	qp->txq_head = qp->txq_tail = 0;
	qp->flow_acked = 0;
	qp->flow_failed = false;
	spin_unlock_irqrestore(&qp->txq_lock, flags);
	err = tonic_dev_flow_attach_flags(tdev, &cfg, &trd_flow_client, qp, 0, &flow);
	tonic_program_put(cfg.prog);
	if (err)
		return err;
	spin_lock_irqsave(&qp->lock, flags);
	qp->tdev = tdev;
	qp->flow = flow;
	qp->ect = cfg.prog->cnp;
	qp->irn = cfg.prog->selective;
	qp->isn = isn;
	qp->snd_una = qp->snd_max = isn;
	qp->comp_psn = qp->ack_psn = qp->rd_nak_psn = qp->desc_end = qp->flow_in_end = isn;
	bitmap_zero(qp->rd_placed, TRD_IRN_BITS);
	qp->rd_irn_end = isn;
	qp->last_desc_psn = trd_psn_add(isn, TRD_PSN_MASK);
	qp->una_seg = qp->seg_tail = qp->pushed = qp->push_tail = 0;
	qp->sq.push = qp->sq.prod;
	qp->rd_out = 0;
	qp->flow_on = true;
	spin_unlock_irqrestore(&qp->lock, flags);
	trd_count(qp->dev, TRD_CNT_FLOWS, 1);
	return 0;
}

/*
 * Process context, no QP lock.  After it, the device calls nothing of the
 * QP's and the QP calls nothing of the device's for this flow.
 */
void trd_flow_detach(struct trd_qp *qp)
{
	u64 v[TRD_QCNT_N] = { 0 };
	struct tonic_flow_stats st;
	unsigned long flags;
	bool on;
	u32 i;

	spin_lock_irqsave(&qp->lock, flags);
	on = qp->flow_on;
	qp->flow_on = false;
	spin_unlock_irqrestore(&qp->lock, flags);
	if (!on)
		return;
	synchronize_rcu();		/* device calls in flight are done */
	del_timer_sync(&qp->rnr_timer);
	cancel_work_sync(&qp->req_work);
	if (!tonic_dev_flow_stats(qp->tdev, qp->flow, &st)) {
		trd_count(qp->dev, TRD_CNT_TIMEOUTS, st.timeouts);
		/* The QP's counters keep what its flow counted. */
		trd_flow_counts(&st, v);
		for (i = 0; i < TRD_QCNT_N; i++)
			atomic64_add(v[i], &qp->qcnt[i]);
	}
	tonic_dev_flow_detach(qp->tdev, qp->flow);
	cancel_work_sync(&qp->req_work);
	trd_count(qp->dev, TRD_CNT_FLOWS, -1);
}

/*
 * How far the flow may be told: WQEs in order, a READ only while fewer
 * than max_rd_atomic are outstanding (the peer answers that many at once,
 * and a request beyond them is dropped); the lock held.
 */
static u32 trd_flow_tail(struct trd_qp *qp)
{
	u32 lim = max_t(u32, qp->max_rd_atomic, 1);

	while (qp->sq.push != qp->sq.prod) {
		const struct trd_swqe *wqe = &qp->sq.wqe[qp->sq.push % qp->sq.size];

		if (wqe->opcode == IB_WR_RDMA_READ) {
			if (qp->rd_out >= lim)
				break;
			qp->rd_out++;
		}
		qp->sq.push++;
		qp->push_tail += wqe->npkts;
	}
	return qp->push_tail;
}

/* Announce the segments of new WQEs; any context but hard IRQ, no QP lock. */
void trd_flow_push(struct trd_qp *qp)
{
	unsigned long flags;
	u32 tail, mtu;
	int err = 0;

	rcu_read_lock();
	spin_lock_irqsave(&qp->lock, flags);
	tail = trd_flow_tail(qp);
	mtu = qp->mtu;
	if (!qp->flow_on || tail == qp->pushed || qp->state != IB_QPS_RTS) {
		spin_unlock_irqrestore(&qp->lock, flags);
		goto out;
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	/*
	 * Every segment is announced as a full one: the packet builder knows
	 * the real lengths, and a short last packet must not hold the next
	 * message back (a sub-segment blocks pushes until it is acked).
	 */
	err = tonic_dev_push(qp->tdev, qp->flow, tail, mtu);
	spin_lock_irqsave(&qp->lock, flags);
	if (!err && tonic_after(tail, qp->pushed))
		qp->pushed = tail;
	spin_unlock_irqrestore(&qp->lock, flags);
out:
	rcu_read_unlock();
	if (err && err != -EINVAL)
		pr_debug("tonic_rdma: QP %u: push: %d\n", qp->ib.qp_num, err);
}

/*
 * An ACK (TONIC_PKT_ACK: every PSN before @psn arrived), a NAK sequence
 * error (TONIC_PKT_NACK: @psn is the one expected) or a CNP (TONIC_PKT_CNP,
 * no PSN) for the flow; softirq, timer or process context, no QP lock.
 * A NACK names the PSN that triggered it in *@sack (IRN: the responder
 * kept it and what else came out of order), or, with @sack NULL, comes
 * from a go-back-N receiver that kept nothing from @psn on
 * (TONIC_PKT_F_GBN).  A READ's PSN is acknowledged by its response only:
 * one the responder kept as a request is the NACK's trigger, not
 * selectively acked (the flow still resends it if the response is lost).
 * Never past the last segment the flow named: a
 * READ's responses may arrive before the flow "sent" its later PSNs (one
 * request names them all), and the engine drops an ACK beyond what it
 * sent; the requester acks the rest as the flow names them
 * (trd_flow_reack).  False when the QP has no flow or the device did not
 * take the packet.
 */
bool trd_flow_in(struct trd_qp *qp, u32 type, u32 psn, const u32 *sack)
{
	struct tonic_pkt pkt = { .type = type };
	struct tonic_dev *tdev;
	unsigned long flags;
	bool on, ok = false;
	u32 flow;

	rcu_read_lock();
	spin_lock_irqsave(&qp->lock, flags);
	on = qp->flow_on;
	tdev = qp->tdev;
	flow = qp->flow;
	if (type != TONIC_PKT_CNP) {
		if (trd_psn_cmp(psn, qp->desc_end) > 0)
			psn = qp->desc_end;
		if (trd_psn_cmp(psn, qp->flow_in_end) > 0)
			qp->flow_in_end = psn;
		pkt.cum_ack = trd_psn_to_seg(qp, psn);
		pkt.nack = pkt.cum_ack;
	}
	if (type == TONIC_PKT_NACK && !sack) {
		pkt.flags |= TONIC_PKT_F_GBN;
	} else if (type == TONIC_PKT_NACK) {
		/* Sent, so named by the flow: below desc_end, past the cumulative ack. */
		if (trd_psn_cmp(*sack, psn) > 0 && trd_psn_cmp(*sack, qp->desc_end) < 0) {
			const struct trd_swqe *wqe = trd_req_wqe(qp, *sack);

			pkt.nack = trd_psn_to_seg(qp, *sack);
			pkt.nsack = !wqe || wqe->opcode != IB_WR_RDMA_READ ||
				    trd_comp_read_arrived(qp, *sack);
			pkt.sack[0].start = pkt.nack;
			pkt.sack[0].end = pkt.nack + 1;
		} else {
			pkt.type = TONIC_PKT_ACK;	/* the cumulative ack is all it says */
		}
	}
	spin_unlock_irqrestore(&qp->lock, flags);
	if (on)
		ok = !tonic_dev_incoming(tdev, flow, &pkt);
	rcu_read_unlock();
	return ok;
}

/*
 * The requester named segments the peer has already answered (a READ's
 * responses came first): ack them to the flow now.  No QP lock.
 */
void trd_flow_reack(struct trd_qp *qp)
{
	unsigned long flags;
	u32 psn;
	bool go;

	spin_lock_irqsave(&qp->lock, flags);
	psn = qp->comp_psn;
	go = qp->flow_on && trd_psn_cmp(psn, qp->flow_in_end) > 0 &&
	     trd_psn_cmp(qp->desc_end, qp->flow_in_end) > 0;
	spin_unlock_irqrestore(&qp->lock, flags);
	if (go)
		trd_flow_in(qp, TONIC_PKT_ACK, psn, NULL);
}
