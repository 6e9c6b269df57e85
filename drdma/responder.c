// SPDX-License-Identifier: GPL-2.0
/*
 * The responder: memory lent by a process (the upper layer), requests it
 * registers or refuses, data placed directly or kept in the indirect
 * buffer until registration, the release.
 *
 * A request is handed to the lending process (TDRDMA_IOC_NEXT); it
 * registers it (TDRDMA_IOC_REGISTER: the pages pinned, a valid REQ_ACK)
 * or refuses it (an invalid one; the initiator's next request is handed
 * over again).  Write data that comes before registration (an indirect
 * transfer: its frames say so) waits in the indirect buffer, shared by
 * all transfers (drx_indirect_kb), and is moved to the memory when it is
 * registered; ACKed either way, as it is held.  Read: after registering,
 * the responder sends the data once the initiator confirms the valid
 * REQ_ACK (direct) or, when the initiator allows it (dynamic), after the
 * second timeout without a confirmation (indirect: the seed's rule, mirrored).
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include "drdma.h"

static LIST_HEAD(drx_lenders);	/* under drx_lock */

static struct drx_lender *drx_lender_of(struct net_device *dev)
{
	struct drx_lender *l;

	list_for_each_entry(l, &drx_lenders, node)
		if (l->dev == dev)
			return l;
	return NULL;
}

static void drx_req_ack(struct drx *x, bool valid, struct sk_buff_head *q)
{
	drx_queue(q, drx_frame(x, TDRDMA_F_REQ_ACK | (valid ? TDRDMA_F_VALID : 0), 0,
			       x->expected, 0));
	drx_count(valid ? TDRDMA_S_REQ_ACK_VALID_TX : TDRDMA_S_REQ_ACK_INVALID_TX, 1);
}

/* A transfer first heard of, by its request or (indirect) by its data. */
static struct drx *drx_resp_new(struct net_device *dev, const u8 *peer,
				const struct tdrdma_hdr *h)
{
	struct drx_lender *l = drx_lender_of(dev);
	struct drx *x;

	if (!l) {
		drx_count(TDRDMA_S_RX_UNKNOWN, 1);
		return NULL;
	}
	if (drx_responders >= drx_max_responders) {
		drx_count(TDRDMA_S_RX_TABLE_FULL, 1);
		return NULL;
	}
	x = drx_alloc(dev, peer, ntohs(h->tid), false);
	if (!x)
		return NULL;
	x->lender = l;
	x->read = h->ctrl & TDRDMA_F_READ;
	x->dba = be64_to_cpu(h->dba);
	x->sba = be64_to_cpu(h->sba);
	x->state = DRX_REQUEST;
	drx_insert(x);
	drx_arm(x, drx_idle_ms);
	return x;
}

static void drx_resp_send(struct drx *x, bool indirect, struct sk_buff_head *q)
{
	x->state = DRX_DATA;
	x->indirect = indirect;
	x->tries = 0;
	drx_count(indirect ? TDRDMA_S_INDIRECT : TDRDMA_S_DIRECT, 1);
	drx_send_window(x, q);
	drx_arm(x, drx_rto_ms);
}

static void drx_resp_request(struct drx *x, const struct tdrdma_hdr *h, struct sk_buff_head *q)
{
	u32 len = ntohl(h->len);

	if (!x->len) {
		x->len = len;
		x->nframes = DIV_ROUND_UP(len, TDRDMA_FRAME_BYTES);
		x->dba = be64_to_cpu(h->dba);
	} else if (x->len != len || x->dba != be64_to_cpu(h->dba)) {
		drx_count(TDRDMA_S_RX_MALFORMED, 1);
		return;
	}
	x->dynamic = h->ctrl & TDRDMA_F_INDIRECT;
	if (x->registered) {
		drx_req_ack(x, true, q);	/* the last one was lost */
	} else if (!x->pending) {
		x->pending = true;
		list_add_tail(&x->pend, &x->lender->pending);
		wake_up(&x->lender->wq);
	}
}

/* A release: true when it is answered (REL_ACK). */
static bool drx_resp_release(struct drx *x, const struct tdrdma_hdr *h)
{
	if (!(h->ctrl & TDRDMA_F_VALID)) {	/* abort */
		drx_unlink(x);
		drx_put(x);
		return true;
	}
	/* Done: the write's data all in memory, or the read's all taken. */
	if (!x->registered || (!x->read && x->expected < x->nframes)) {
		drx_count(TDRDMA_S_RX_MALFORMED, 1);
		return false;
	}
	x->state = DRX_DONE;
	x->lender->done++;
	wake_up(&x->lender->wq);
	drx_arm(x, drx_linger_ms);
	return true;
}

/* A frame for a responder (under drx_lock).  Returns true when it keeps @skb. */
bool drx_resp_rcv(struct net_device *dev, const u8 *peer, const struct tdrdma_hdr *h,
		  struct sk_buff *skb, struct sk_buff_head *q)
{
	struct drx *x = drx_find(dev, peer, ntohs(h->tid), false);
	bool read = h->ctrl & TDRDMA_F_READ;
	u8 c = h->ctrl;

	if (x && x->read != read) {
		drx_count(TDRDMA_S_RX_MALFORMED, 1);
		return false;
	}
	if (x && x->state == DRX_DONE) {
		if (c & TDRDMA_F_REL)
			drx_queue(q, drx_reply(dev, peer, h, TDRDMA_F_REL_ACK));
		else
			drx_count(TDRDMA_S_RX_REPLAY, 1);
		return false;
	}
	if (x)
		x->last_rx = jiffies;
	if (c & TDRDMA_F_REQ) {
		if (!x)
			x = drx_resp_new(dev, peer, h);
		if (x)
			drx_resp_request(x, h, q);
		return false;
	}
	if (c & TDRDMA_F_REL) {
		/* No state: released before (an answer lost) or expired; either way done here. */
		if (!x || drx_resp_release(x, h))
			drx_queue(q, drx_reply(dev, peer, h, TDRDMA_F_REL_ACK));
		return false;
	}
	if (!read) {		/* write data: only indirect data may come first */
		if (!x && (c & TDRDMA_F_INDIRECT))
			x = drx_resp_new(dev, peer, h);
		if (!x) {
			if (!(c & TDRDMA_F_INDIRECT))
				drx_count(TDRDMA_S_RX_UNKNOWN, 1);
			return false;
		}
		return drx_receive(x, h, skb, q);
	}
	/* The initiator's ACK of read data. */
	if (!x || !x->registered) {
		drx_count(TDRDMA_S_RX_UNKNOWN, 1);
		return false;
	}
	if (x->state == DRX_REQUEST)
		drx_resp_send(x, false, q);	/* confirmed: direct */
	else
		drx_sender_ack(x, ntohl(h->ackn), q);
	return false;
}

void drx_resp_timeout(struct drx *x, struct sk_buff_head *q)
{
	if (x->state == DRX_DONE ||
	    time_after(jiffies, x->last_rx + msecs_to_jiffies(drx_idle_ms))) {
		if (x->state != DRX_DONE)
			drx_count(TDRDMA_S_EXPIRED, 1);
		drx_unlink(x);
		drx_put(x);
		return;
	}
	if (!x->read || !x->registered) {
		drx_arm(x, drx_idle_ms);
		return;
	}
	drx_count(TDRDMA_S_TIMEOUTS, 1);
	if (x->state == DRX_REQUEST) {
		drx_req_ack(x, true, q);
		if (x->dynamic && ++x->tries >= 2) {
			drx_resp_send(x, true, q);	/* no confirmation: indirect */
			return;
		}
	} else if (x->una < x->nframes) {
		drx_sender_timeout(x, q);
	}
	drx_arm(x, drx_rto_ms);
}

/* TDRDMA_IOC_LEND: [addr, addr + size) of the caller's memory, on a netdev. */
int drx_lend(struct net *net, struct drx_lender **out, const struct tdrdma_lend *a)
{
	struct net_device *dev;
	struct drx_lender *l;
	int err;

	if (!a->size || a->size > U32_MAX || a->addr + a->size < a->addr ||
	    !access_ok(u64_to_user_ptr(a->addr), a->size))
		return -EINVAL;
	dev = dev_get_by_index(net, a->ifindex);
	if (!dev)
		return -ENODEV;
	err = -EINVAL;
	if (dev->type != ARPHRD_ETHER)
		goto out;
	err = -ENOMEM;
	l = kzalloc(sizeof(*l), GFP_KERNEL);
	if (!l)
		goto out;
	INIT_LIST_HEAD(&l->pending);
	init_waitqueue_head(&l->wq);
	l->addr = a->addr;
	l->size = a->size;
	l->mm = current->mm;
	mmgrab(l->mm);
	spin_lock_bh(&drx_lock);
	if (drx_lender_of(dev)) {
		spin_unlock_bh(&drx_lock);
		mmdrop(l->mm);
		kfree(l);
		err = -EBUSY;
		goto out;
	}
	l->dev = dev;
	netdev_hold(dev, &l->tracker, GFP_ATOMIC);
	list_add(&l->node, &drx_lenders);
	spin_unlock_bh(&drx_lock);
	*out = l;
	err = 0;
out:
	dev_put(dev);
	return err;
}

void drx_unlend(struct drx_lender *l)
{
	spin_lock_bh(&drx_lock);
	list_del(&l->node);
	drx_drop_responders(l);
	if (l->dev)
		netdev_put(l->dev, &l->tracker);
	spin_unlock_bh(&drx_lock);
	mmdrop(l->mm);
	kfree(l);
}

/* A netdev going away: its lender keeps lending nothing (NEXT: ENODEV). */
void drx_lender_dev_gone(struct net_device *dev)
{
	struct drx_lender *l;

	spin_lock_bh(&drx_lock);
	l = drx_lender_of(dev);
	if (l) {
		l->gone = true;
		netdev_put(l->dev, &l->tracker);
		l->dev = NULL;
		wake_up(&l->wq);
	}
	spin_unlock_bh(&drx_lock);
}

/*
 * TDRDMA_IOC_NEXT: wait for a request to register, or for a transfer to be
 * released (@r->done, in: the count the caller has seen; a return with
 * @r->len 0 is only that).
 */
int drx_next(struct drx_lender *l, struct tdrdma_request *r)
{
	u32 seen = r->done;
	struct drx *x;
	int err;

	memset(r, 0, sizeof(*r));
	err = wait_event_interruptible(l->wq, !list_empty(&l->pending) || l->gone ||
				       READ_ONCE(l->done) != seen);
	if (err)
		return err;
	spin_lock_bh(&drx_lock);
	if (l->gone) {
		spin_unlock_bh(&drx_lock);
		return -ENODEV;
	}
	x = list_first_entry_or_null(&l->pending, struct drx, pend);
	if (x) {
		list_del_init(&x->pend);
		ether_addr_copy(r->peer, x->peer);
		r->tid = x->tid;
		r->type = x->read ? TDRDMA_READ : TDRDMA_WRITE;
		r->dba = x->dba;
		r->len = x->len;
	}
	r->done = l->done;
	spin_unlock_bh(&drx_lock);
	return 0;
}

/*
 * TDRDMA_IOC_REGISTER: pin the request's pages (the process's own: the
 * caller must be the lender) and answer with a valid REQ_ACK, or refuse.
 * A request outside the lent memory or whose pages cannot be pinned is
 * refused (the error returned).
 */
int drx_register(struct drx_lender *l, const struct tdrdma_register *r)
{
	struct drx_pages pg = {};
	struct sk_buff_head q;
	bool refuse = r->refuse;
	struct drx *x;
	int err = 0;

	if (current->mm != l->mm)
		return -EPERM;
	spin_lock_bh(&drx_lock);
	x = l->dev ? drx_find(l->dev, r->peer, r->tid, false) : NULL;
	if (!x || x->lender != l || !x->pending || !list_empty(&x->pend)) {
		spin_unlock_bh(&drx_lock);
		return -ENOENT;
	}
	drx_get(x);
	spin_unlock_bh(&drx_lock);

	if (!refuse && (x->dba > l->size || x->len > l->size - x->dba)) {
		refuse = true;
		err = -ERANGE;
	}
	if (!refuse) {
		err = drx_pin(&pg, l->addr + x->dba, x->len, !x->read);
		refuse = err;
	}

	__skb_queue_head_init(&q);
	spin_lock_bh(&drx_lock);
	if (x->dead) {
		spin_unlock_bh(&drx_lock);
		drx_unpin(&pg);
		drx_put(x);
		return -ENOENT;
	}
	x->pending = false;
	if (refuse) {
		drx_count(TDRDMA_S_REFUSED, 1);
		drx_req_ack(x, false, &q);
	} else {
		x->pg = pg;
		x->registered = true;
		drx_count(TDRDMA_S_REGISTERED, 1);
		drx_drain(x);
		drx_req_ack(x, true, &q);
		if (x->read)
			drx_arm(x, drx_rto_ms);	/* the confirmation's timer */
		else
			x->state = DRX_DATA;
	}
	spin_unlock_bh(&drx_lock);
	drx_flush(&q);
	drx_put(x);
	return err;
}
