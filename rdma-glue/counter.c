// SPDX-License-Identifier: GPL-2.0
/*
 * Counters bound to QPs (rdma statistic qp): the core binds and unbinds
 * QPs and reads a counter, holding counter->lock around each, which keeps
 * the counter's list of QPs.  A counter reads the QP counters (counters.h,
 * TRD_QP_COUNTERS) its QPs counted since they were bound, plus what QPs
 * that left it had counted.  At the device level those are 0: the core
 * adds every counter to the link's figures, so the link shows them summed
 * over the QPs ever bound.
 */
#include <linux/slab.h>
#include "tonic_rdma.h"

struct trd_bound_counter {
	struct list_head qps;		/* trd_qp.cnode */
	u64 gone[TRD_QCNT_N];		/* counted by QPs that left it */
};

/* What the QP counters gain from a flow's statistics @st. */
void trd_flow_counts(const struct tonic_flow_stats *st, u64 *v)
{
	v[TRD_CNT_QP_SEGS_SENT - TRD_CNT_QP_FIRST] += st->segs_sent;
	v[TRD_CNT_QP_SEGS_RTX - TRD_CNT_QP_FIRST] += st->segs_rtx;
	v[TRD_CNT_QP_TIMEOUTS - TRD_CNT_QP_FIRST] += st->timeouts;
	v[TRD_CNT_QP_NACKS - TRD_CNT_QP_FIRST] += st->nacks;
	v[TRD_CNT_QP_CNPS - TRD_CNT_QP_FIRST] += st->cnps;
}

/*
 * @qp's QP counters now: its own events, its detached flows' and its
 * attached flow's (a flow being detached may be missing for a moment).
 * Process context, no QP lock.
 */
static void trd_qp_counts(struct trd_qp *qp, u64 *v)
{
	struct tonic_flow_stats st;
	struct tonic_dev *tdev;
	unsigned long flags;
	u32 flow, i;
	bool on;

	rcu_read_lock();
	spin_lock_irqsave(&qp->lock, flags);
	on = qp->flow_on;
	tdev = qp->tdev;
	flow = qp->flow;
	spin_unlock_irqrestore(&qp->lock, flags);
	for (i = 0; i < TRD_QCNT_N; i++)
		v[i] = atomic64_read(&qp->qcnt[i]);
	/* trd_flow_detach() waits for this before the flow goes. */
	if (on && !tonic_dev_flow_stats(tdev, flow, &st))
		trd_flow_counts(&st, v);
	rcu_read_unlock();
}

static struct trd_bound_counter *trd_bound_counter(const struct rdma_counter *counter)
{
	return xa_load(&to_tdev(counter->device)->counters, counter->id);
}

int trd_counter_bind_qp(struct rdma_counter *counter, struct ib_qp *ibqp)
{
	struct trd_qp *qp = to_tqp(ibqp);
	struct trd_bound_counter *c;
	int err;

	if (!counter->id) {
		c = kzalloc(sizeof(*c), GFP_KERNEL);
		if (!c)
			return -ENOMEM;
		INIT_LIST_HEAD(&c->qps);
		err = xa_alloc(&to_tdev(counter->device)->counters, &counter->id, c,
			       xa_limit_31b, GFP_KERNEL);
		if (err) {
			kfree(c);
			return err;
		}
	}
	c = trd_bound_counter(counter);
	if (WARN_ON_ONCE(!c))
		return -EINVAL;
	trd_qp_counts(qp, qp->cbase);
	list_add_tail(&qp->cnode, &c->qps);
	ibqp->counter = counter;
	return 0;
}

int trd_counter_unbind_qp(struct ib_qp *ibqp)
{
	struct trd_bound_counter *c = trd_bound_counter(ibqp->counter);
	struct trd_qp *qp = to_tqp(ibqp);
	u64 v[TRD_QCNT_N];
	u32 i;

	trd_qp_counts(qp, v);
	for (i = 0; c && i < TRD_QCNT_N; i++)
		c->gone[i] += v[i] - qp->cbase[i];
	list_del_init(&qp->cnode);
	ibqp->counter = NULL;
	return 0;
}

int trd_counter_dealloc(struct rdma_counter *counter)
{
	struct trd_bound_counter *c = xa_erase(&to_tdev(counter->device)->counters, counter->id);

	WARN_ON(c && !list_empty(&c->qps));
	kfree(c);
	return 0;
}

int trd_counter_update_stats(struct rdma_counter *counter)
{
	struct trd_bound_counter *c = trd_bound_counter(counter);
	u64 *val = counter->stats->value, v[TRD_QCNT_N];
	struct trd_qp *qp;
	u32 i;

	memset(val, 0, sizeof(*val) * counter->stats->num_counters);
	if (!c)
		return 0;
	for (i = 0; i < TRD_QCNT_N; i++)
		val[TRD_CNT_QP_FIRST + i] = c->gone[i];
	list_for_each_entry(qp, &c->qps, cnode) {
		trd_qp_counts(qp, v);
		for (i = 0; i < TRD_QCNT_N; i++)
			val[TRD_CNT_QP_FIRST + i] += v[i] - qp->cbase[i];
	}
	return 0;
}
