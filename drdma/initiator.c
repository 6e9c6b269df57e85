// SPDX-License-Identifier: GPL-2.0
/*
 * The initiator: a request, the mode choice, the data (write) or its
 * acknowledgement (read), the release.
 *
 * Write, the seed's rule: a valid REQ_ACK -> direct; an invalid one ->
 * indirect; no answer after the second timeout -> indirect.  Indirect,
 * the data goes at once and the request is sent again at each timeout
 * until a valid REQ_ACK; the release waits for it.  Direct (the policy of
 * traditional RDMA) waits for a valid REQ_ACK whatever comes.  Read: the
 * responder chooses (responder.c); the initiator's memory is registered
 * before its request, so data is placed as it comes.
 */
#include <linux/etherdevice.h>
#include <linux/if_arp.h>
#include <linux/ktime.h>
#include "drdma.h"

static atomic_t drx_tids = ATOMIC_INIT(0);

static void drx_request(struct drx *x, struct sk_buff_head *q)
{
	drx_queue(q, drx_frame(x, TDRDMA_F_REQ | (x->dynamic ? TDRDMA_F_INDIRECT : 0),
			       x->requests++, 0, x->len));
	drx_count(TDRDMA_S_REQUESTS_TX, 1);
}

/* The receiver's ACK (read): ACKN, the next frame expected. */
static void drx_ack(struct drx *x, struct sk_buff_head *q)
{
	drx_queue(q, drx_frame(x, TDRDMA_F_DATA, 0, x->expected, 0));
}

/* The data starts: direct or indirect. */
static void drx_mode(struct drx *x, bool indirect)
{
	x->t_data = ktime_get_ns();
	x->indirect = indirect;
	drx_count(indirect ? TDRDMA_S_INDIRECT : TDRDMA_S_DIRECT, 1);
}

static void drx_start_write(struct drx *x, bool indirect, struct sk_buff_head *q)
{
	x->state = DRX_DATA;
	x->tries = 0;
	drx_mode(x, indirect);
	drx_send_window(x, q);
	drx_arm(x, drx_rto_ms);
}

static void drx_release(struct drx *x, struct sk_buff_head *q)
{
	x->state = DRX_RELEASE;
	x->tries = 0;
	drx_queue(q, drx_frame(x, TDRDMA_F_REL | TDRDMA_F_VALID, 0, x->expected, 0));
	drx_arm(x, drx_req_timeout_ms);
}

static void drx_finish(struct drx *x, int err)
{
	x->err = err;
	x->state = err ? DRX_FAILED : DRX_DONE;
	wake_up(&x->wq);
}

/* Write: everything acked and the memory registered: release. */
static void drx_write_progress(struct drx *x, struct sk_buff_head *q)
{
	if (x->state == DRX_DATA && x->registered && x->una == x->nframes)
		drx_release(x, q);
}

/* A frame for this initiator (under drx_lock); never keeps @skb. */
bool drx_init_rcv(struct drx *x, const struct tdrdma_hdr *h, struct sk_buff *skb,
		  struct sk_buff_head *q)
{
	u8 c = h->ctrl;
	u32 before;

	if (c & TDRDMA_F_REQ_ACK) {
		if (x->registered || x->state >= DRX_RELEASE)
			return false;
		if (c & TDRDMA_F_VALID) {
			x->registered = true;
			if (x->read) {
				x->state = DRX_DATA;
				x->tries = 0;
				drx_ack(x, q);	/* the responder's confirmation */
				drx_arm(x, drx_rto_ms);
			} else if (x->state == DRX_REQUEST) {
				drx_start_write(x, false, q);
			} else {
				drx_write_progress(x, q);
			}
		} else if (x->state == DRX_REQUEST) {
			if (!x->read && x->dynamic)
				drx_start_write(x, true, q);
			else	/* the seed: reset the timer, request again */
				drx_arm(x, drx_req_timeout_ms);
		}
		return false;
	}
	if (c & TDRDMA_F_REL_ACK) {
		if (x->state == DRX_RELEASE) {
			drx_count(TDRDMA_S_DONE, 1);
			drx_finish(x, 0);
		}
		return false;
	}
	if (!x->read) {		/* an ACK of our data */
		if (x->state == DRX_DATA) {
			drx_sender_ack(x, ntohl(h->ackn), q);
			drx_write_progress(x, q);
		}
		return false;
	}
	/* Read data: the first frame tells the responder's mode. */
	if (x->state == DRX_REQUEST) {
		x->registered = true;
		x->state = DRX_DATA;
	}
	if (x->state != DRX_DATA) {
		drx_ack(x, q);
		return false;
	}
	if (!x->frames)
		drx_mode(x, c & TDRDMA_F_INDIRECT);
	before = x->expected;
	drx_receive(x, h, skb, q);
	x->frames = x->expected;
	if (x->expected != before)
		x->tries = 0;
	if (x->expected == x->nframes)
		drx_release(x, q);
	else
		drx_arm(x, drx_rto_ms);
	return false;
}

void drx_init_timeout(struct drx *x, struct sk_buff_head *q)
{
	if (x->state >= DRX_DONE)
		return;
	drx_count(TDRDMA_S_TIMEOUTS, 1);
	if (++x->tries > drx_req_tries) {
		drx_count(TDRDMA_S_FAILED, 1);
		drx_finish(x, -ETIMEDOUT);
		return;
	}
	switch (x->state) {
	case DRX_REQUEST:
		drx_request(x, q);
		if (!x->read && x->dynamic && x->tries >= 2) {
			drx_start_write(x, true, q);	/* silence: indirect */
			return;
		}
		drx_arm(x, drx_req_timeout_ms);
		break;
	case DRX_DATA:
		if (!x->registered)
			drx_request(x, q);
		if (x->read)
			drx_ack(x, q);
		else if (x->una < x->nframes)
			drx_sender_timeout(x, q);
		drx_arm(x, drx_rto_ms);
		break;
	case DRX_RELEASE:
		drx_queue(q, drx_frame(x, TDRDMA_F_REL | TDRDMA_F_VALID, 0, x->expected, 0));
		drx_arm(x, drx_req_timeout_ms);
		break;
	default:
		break;
	}
}

/* TDRDMA_IOC_XFER: one transfer, from request to release ack. */
int drx_initiate(struct net *net, struct tdrdma_xfer *a)
{
	struct sk_buff_head q;
	struct net_device *dev;
	struct drx *x;
	int err, i;

	if (!a->len || a->len > TDRDMA_MAX_LEN || a->type > TDRDMA_READ ||
	    a->policy > TDRDMA_DYNAMIC || !is_valid_ether_addr(a->peer))
		return -EINVAL;
	dev = dev_get_by_index(net, a->ifindex);
	if (!dev)
		return -ENODEV;
	err = -EINVAL;
	if (dev->type != ARPHRD_ETHER || dev->mtu < sizeof(struct tdrdma_hdr) + TDRDMA_FRAME_BYTES)
		goto out_dev;
	err = -ENOMEM;
	x = drx_alloc(dev, a->peer, 0, true);
	if (!x)
		goto out_dev;
	dev_put(dev);
	x->read = a->type == TDRDMA_READ;
	x->len = a->len;
	x->nframes = DIV_ROUND_UP(a->len, TDRDMA_FRAME_BYTES);
	x->sba = a->addr;
	x->dba = a->dba;
	x->dynamic = a->policy == TDRDMA_DYNAMIC;
	err = drx_pin(&x->pg, a->addr, a->len, x->read);
	if (err) {
		drx_put(x);
		return err;
	}

	__skb_queue_head_init(&q);
	x->t0 = ktime_get_ns();
	spin_lock_bh(&drx_lock);
	for (i = 0; i <= U16_MAX; i++) {
		x->tid = atomic_inc_return(&drx_tids);
		if (!drx_find(dev, x->peer, x->tid, true))
			break;
	}
	if (i > U16_MAX) {
		spin_unlock_bh(&drx_lock);
		drx_put(x);
		return -EBUSY;
	}
	drx_insert(x);
	x->state = DRX_REQUEST;
	drx_request(x, &q);
	drx_arm(x, drx_req_timeout_ms);
	spin_unlock_bh(&drx_lock);
	drx_flush(&q);

	err = wait_event_interruptible(x->wq, x->state >= DRX_DONE || x->dead);

	spin_lock_bh(&drx_lock);
	if (x->state == DRX_DONE) {
		err = 0;
	} else {
		err = err ? -EINTR : x->err ?: -EIO;
		if (x->state != DRX_FAILED)
			drx_count(TDRDMA_S_FAILED, 1);
		/* Abort: the responder frees what it holds (its indirect buffer). */
		if (err != -ENODEV)
			drx_queue(&q, drx_frame(x, TDRDMA_F_REL, 0, x->expected, 0));
	}
	drx_unlink(x);
	spin_unlock_bh(&drx_lock);
	drx_flush(&q);

	a->ns = ktime_get_ns() - x->t0;
	a->start_ns = x->t_data ? x->t_data - x->t0 : 0;
	a->indirect = x->indirect;
	a->requests = x->requests;
	a->frames = x->frames;
	a->retransmits = x->retransmits;
	drx_put(x);
	return err;

out_dev:
	dev_put(dev);
	return err;
}
