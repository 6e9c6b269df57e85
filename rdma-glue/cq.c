// SPDX-License-Identifier: GPL-2.0
/*
 * Completion queues: a ring of struct ib_wc in the kernel.  With uverbs
 * ABI 1 the provider polls through the POLL_CQ command; arming
 * (req_notify_cq) makes the next completion call the consumer's
 * comp_handler (the completion channel of a user CQ), from a tasklet: the
 * handler of a kernel consumer may post and poll, and completions are
 * queued with the QP's lock held.
 */
#include "tonic_rdma.h"

static void trd_cq_comp_task(struct tasklet_struct *t)
{
	struct trd_cq *cq = from_tasklet(cq, t, comp_task);

	if (cq->ib.comp_handler)
		cq->ib.comp_handler(&cq->ib, cq->ib.cq_context);
}

int trd_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr, struct ib_udata *udata)
{
	struct trd_dev *dev = to_tdev(ibcq->device);
	struct trd_cq *cq = to_tcq(ibcq);

	if (attr->flags || attr->cqe < 1 || attr->cqe > TRD_MAX_CQE)
		return -EINVAL;
	if (udata && udata->outlen)
		return -EINVAL;
	/* As many as query_device promises, and charged to their creator. */
	if (atomic_inc_return(&dev->ncq) > TRD_MAX_QP * 2) {
		atomic_dec(&dev->ncq);
		return -ENOMEM;
	}
	cq->size = attr->cqe + 1;
	cq->wc = kvcalloc(cq->size, sizeof(*cq->wc), GFP_KERNEL_ACCOUNT);
	if (!cq->wc) {
		atomic_dec(&dev->ncq);
		return -ENOMEM;
	}
	spin_lock_init(&cq->lock);
	tasklet_setup(&cq->comp_task, trd_cq_comp_task);
	ibcq->cqe = attr->cqe;
	return 0;
}

int trd_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct trd_cq *cq = to_tcq(ibcq);

	/* The core refuses while QPs use it (usecnt). */
	tasklet_kill(&cq->comp_task);
	kvfree(cq->wc);
	atomic_dec(&to_tdev(ibcq->device)->ncq);
	return 0;
}

int trd_poll_cq(struct ib_cq *ibcq, int n, struct ib_wc *wc)
{
	struct trd_cq *cq = to_tcq(ibcq);
	unsigned long flags;
	int i;

	spin_lock_irqsave(&cq->lock, flags);
	for (i = 0; i < n && cq->tail != cq->head; i++) {
		wc[i] = cq->wc[cq->tail];
		cq->tail = (cq->tail + 1) % cq->size;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return i;
}

int trd_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags flags)
{
	struct trd_cq *cq = to_tcq(ibcq);
	unsigned long irqf;
	int ret = 0;

	spin_lock_irqsave(&cq->lock, irqf);
	if (cq->notify != IB_CQ_NEXT_COMP)
		cq->notify = flags & IB_CQ_SOLICITED_MASK;
	if ((flags & IB_CQ_REPORT_MISSED_EVENTS) && cq->head != cq->tail)
		ret = 1;
	spin_unlock_irqrestore(&cq->lock, irqf);
	return ret;
}

void trd_cq_post(struct trd_cq *cq, const struct ib_wc *wc, bool solicited)
{
	unsigned long flags;
	u32 next;

	spin_lock_irqsave(&cq->lock, flags);
	next = (cq->head + 1) % cq->size;
	if (next == cq->tail) {
		bool first = !cq->overflow;

		cq->overflow = true;
		spin_unlock_irqrestore(&cq->lock, flags);
		if (first && cq->ib.event_handler) {
			struct ib_event ev = {
				.device = cq->ib.device,
				.element.cq = &cq->ib,
				.event = IB_EVENT_CQ_ERR,
			};

			cq->ib.event_handler(&ev, cq->ib.cq_context);
		}
		return;
	}
	cq->wc[cq->head] = *wc;
	cq->head = next;
	if (cq->notify == IB_CQ_NEXT_COMP ||
	    (cq->notify == IB_CQ_SOLICITED && (solicited || wc->status != IB_WC_SUCCESS))) {
		cq->notify = 0;
		tasklet_schedule(&cq->comp_task);
	}
	spin_unlock_irqrestore(&cq->lock, flags);
}
