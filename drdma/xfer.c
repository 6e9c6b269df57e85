// SPDX-License-Identifier: GPL-2.0
/*
 * Transfers: the table, the sliding window both sides use (the seed's
 * window of 8 frames, cumulative ACKN, fast retransmit on the third
 * duplicate ACK, go-back from ACKN on a timeout), timers and freeing.
 */
#include <linux/etherdevice.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include "drdma.h"

DEFINE_SPINLOCK(drx_lock);
static DEFINE_HASHTABLE(drx_table, 8);
static u32 drx_ibuf_mem;	/* the indirect buffer in use (skb truesize), all transfers */
unsigned int drx_responders;	/* responder transfers in the table */

static LIST_HEAD(drx_reaped);
static DEFINE_SPINLOCK(drx_reap_lock);
static void drx_reap_work(struct work_struct *w);
static DECLARE_WORK(drx_reaper, drx_reap_work);

static u32 drx_key(struct net_device *dev, const u8 *peer, u16 tid, bool initiator)
{
	return jhash(peer, ETH_ALEN, dev->ifindex ^ (u32)tid << 1 ^ initiator);
}

static void drx_timer_fn(struct timer_list *t)
{
	struct drx *x = from_timer(x, t, timer);
	struct sk_buff_head q;

	__skb_queue_head_init(&q);
	spin_lock_bh(&drx_lock);
	if (!x->dead) {
		if (x->initiator)
			drx_init_timeout(x, &q);
		else
			drx_resp_timeout(x, &q);
	}
	spin_unlock_bh(&drx_lock);
	drx_flush(&q);
}

struct drx *drx_alloc(struct net_device *dev, const u8 *peer, u16 tid, bool initiator)
{
	struct drx *x = kzalloc(sizeof(*x), GFP_ATOMIC);

	if (!x)
		return NULL;
	x->dev = dev;
	netdev_hold(dev, &x->tracker, GFP_ATOMIC);
	ether_addr_copy(x->peer, peer);
	x->tid = tid;
	x->initiator = initiator;
	refcount_set(&x->ref, 1);
	INIT_LIST_HEAD(&x->pend);
	__skb_queue_head_init(&x->ibuf);
	init_waitqueue_head(&x->wq);
	timer_setup(&x->timer, drx_timer_fn, 0);
	x->last_rx = jiffies;
	return x;
}

/* Under drx_lock. */
struct drx *drx_find(struct net_device *dev, const u8 *peer, u16 tid, bool initiator)
{
	struct drx *x;

	hash_for_each_possible(drx_table, x, node, drx_key(dev, peer, tid, initiator))
		if (x->dev == dev && x->tid == tid && x->initiator == initiator &&
		    ether_addr_equal(x->peer, peer))
			return x;
	return NULL;
}

/* Under drx_lock: the table's reference is the one drx_alloc gave. */
void drx_insert(struct drx *x)
{
	if (!x->initiator)
		drx_responders++;
	hash_add(drx_table, &x->node, drx_key(x->dev, x->peer, x->tid, x->initiator));
}

/*
 * drx_unlink: under drx_lock, out of the table for good: no frame or timer
 * acts on it again; its indirect buffer is freed now.  The caller drops
 * the table's reference (drx_put) after.
 */
void drx_unlink(struct drx *x)
{
	if (x->dead)
		return;
	x->dead = true;
	hash_del(&x->node);
	list_del_init(&x->pend);
	if (!x->initiator)
		drx_responders--;
	if (x->ibytes) {
		drx_count(TDRDMA_S_INDIRECT_FREED, x->ibytes);
		drx_ibuf_mem -= x->imem;
		x->ibytes = 0;
		x->imem = 0;
	}
	__skb_queue_purge(&x->ibuf);
	wake_up(&x->wq);
}

void drx_get(struct drx *x)
{
	refcount_inc(&x->ref);
}

/* The last reference frees in process context (unpinning may sleep). */
void drx_put(struct drx *x)
{
	unsigned long flags;

	if (!refcount_dec_and_test(&x->ref))
		return;
	spin_lock_irqsave(&drx_reap_lock, flags);
	list_add_tail(&x->reap, &drx_reaped);
	spin_unlock_irqrestore(&drx_reap_lock, flags);
	schedule_work(&drx_reaper);
}

static void drx_reap_work(struct work_struct *w)
{
	struct drx *x, *n;
	LIST_HEAD(list);

	spin_lock_irq(&drx_reap_lock);
	list_splice_init(&drx_reaped, &list);
	spin_unlock_irq(&drx_reap_lock);
	list_for_each_entry_safe(x, n, &list, reap) {
		del_timer_sync(&x->timer);
		drx_unpin(&x->pg);
		netdev_put(x->dev, &x->tracker);
		kfree(x);
	}
}

/* Under drx_lock; a dead transfer's timer stays idle. */
void drx_arm(struct drx *x, unsigned int ms)
{
	if (!x->dead)
		mod_timer(&x->timer, jiffies + msecs_to_jiffies(ms));
}

u32 drx_frame_len(const struct drx *x, u32 sn)
{
	return min_t(u32, TDRDMA_FRAME_BYTES, x->len - sn * TDRDMA_FRAME_BYTES);
}

/* Sender: new frames up to the window, ACKN + TDRDMA_WINDOW. */
void drx_send_window(struct drx *x, struct sk_buff_head *q)
{
	u8 ctrl = TDRDMA_F_DATA | (x->indirect ? TDRDMA_F_INDIRECT : 0);
	struct sk_buff *skb;

	while (x->nxt < x->nframes && x->nxt < x->una + TDRDMA_WINDOW) {
		skb = drx_frame(x, ctrl, x->nxt, 0, drx_frame_len(x, x->nxt));
		if (!skb)
			break;
		__skb_queue_tail(q, skb);
		drx_count(TDRDMA_S_DATA_TX, 1);
		x->frames++;
		x->nxt++;
	}
}

static void drx_resend(struct drx *x, struct sk_buff_head *q)
{
	struct sk_buff *skb;

	skb = drx_frame(x, TDRDMA_F_DATA | (x->indirect ? TDRDMA_F_INDIRECT : 0),
			x->una, 0, drx_frame_len(x, x->una));
	if (!skb)
		return;
	__skb_queue_tail(q, skb);
	x->retransmits++;
	drx_count(TDRDMA_S_DATA_TX, 1);
	drx_count(TDRDMA_S_RETRANSMITS, 1);
}

/*
 * A loss: ACKN's frame again; until the window sent so far is acked, each
 * partial ACK names the next hole (the receiver keeps what came after).
 */
static void drx_recover(struct drx *x, struct sk_buff_head *q)
{
	x->recovering = true;
	x->recover = x->nxt;
	x->dupacks = 0;
	drx_resend(x, q);
}

/* Sender: an ACK.  Progress moves the window; the third duplicate is a loss. */
void drx_sender_ack(struct drx *x, u32 ackn, struct sk_buff_head *q)
{
	if (ackn > x->nxt) {
		drx_count(TDRDMA_S_RX_OUT_OF_WINDOW, 1);
		return;
	}
	if (ackn > x->una) {
		x->una = ackn;
		x->dupacks = 0;
		x->tries = 0;
		if (x->recovering && x->una >= x->recover)
			x->recovering = false;
		else if (x->recovering)
			drx_resend(x, q);
		drx_send_window(x, q);
		if (x->una < x->nframes)
			drx_arm(x, drx_rto_ms);
		return;
	}
	if (ackn == x->una && x->una < x->nxt && ++x->dupacks == 3 && !x->recovering) {
		drx_count(TDRDMA_S_FAST_RETRANSMITS, 1);
		drx_recover(x, q);
	}
}

/* Sender: no progress for an RTO. */
void drx_sender_timeout(struct drx *x, struct sk_buff_head *q)
{
	drx_recover(x, q);
}

static void drx_place(struct drx *x, u32 sn, const void *data, u32 len)
{
	drx_copy_to(&x->pg, sn * TDRDMA_FRAME_BYTES, data, len);
}

/*
 * drx_drain: the indirect buffer into the memory just registered, frame by
 * frame; a frame that does not fit the request is dropped and counted.
 */
void drx_drain(struct drx *x)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(&x->ibuf))) {
		const struct tdrdma_hdr *h = (const void *)skb->data;
		u32 sn = ntohl(h->sn), len = ntohl(h->len);

		x->ibytes -= len;
		x->imem -= skb->truesize;
		drx_ibuf_mem -= skb->truesize;
		if (sn < x->nframes && len == drx_frame_len(x, sn)) {
			drx_place(x, sn, h + 1, len);
			drx_count(TDRDMA_S_INDIRECT_DRAINED, len);
		} else {
			drx_count(TDRDMA_S_RX_MALFORMED, 1);
		}
		kfree_skb(skb);
	}
}

/*
 * drx_receive: a data frame for the receiving side, placed in memory, or
 * kept in the indirect buffer while the memory is not registered; then an
 * ACK with the next frame expected.  Returns true when it keeps @skb.
 */
bool drx_receive(struct drx *x, const struct tdrdma_hdr *h, struct sk_buff *skb,
		 struct sk_buff_head *q)
{
	u32 sn = ntohl(h->sn), len = ntohl(h->len);
	bool kept = false;

	if (sn >= x->expected + TDRDMA_WINDOW) {
		drx_count(TDRDMA_S_RX_OUT_OF_WINDOW, 1);
		return false;
	}
	if (x->len && (sn >= x->nframes || len != drx_frame_len(x, sn))) {
		drx_count(TDRDMA_S_RX_MALFORMED, 1);
		return false;
	}
	if (sn >= x->expected && !(sn > x->expected && test_bit(sn - x->expected - 1, &x->seen))) {
		if (x->pg.pages) {
			drx_place(x, sn, h + 1, len);
		} else if (drx_ibuf_mem + skb->truesize > drx_indirect_kb * 1024) {
			drx_count(TDRDMA_S_INDIRECT_FULL, 1);
			return false;
		} else {
			__skb_queue_tail(&x->ibuf, skb);
			x->ibytes += len;
			x->imem += skb->truesize;
			drx_ibuf_mem += skb->truesize;
			drx_count(TDRDMA_S_INDIRECT_BUFFERED, len);
			kept = true;
		}
		if (sn == x->expected) {
			x->expected++;
			while (x->seen & 1) {
				x->seen >>= 1;
				x->expected++;
			}
			x->seen >>= 1;
		} else {
			__set_bit(sn - x->expected - 1, &x->seen);
		}
	}
	drx_queue(q, drx_frame(x, TDRDMA_F_DATA, 0, x->expected, 0));
	return kept;
}

/* A netdev going away: its transfers fail (initiators wake), responders go. */
void drx_fail_dev(struct net_device *dev)
{
	struct hlist_node *n;
	struct drx *x;
	int b;

	spin_lock_bh(&drx_lock);
	hash_for_each_safe(drx_table, b, n, x, node) {
		if (x->dev != dev)
			continue;
		if (x->initiator) {
			x->err = -ENODEV;
			x->state = DRX_FAILED;
			drx_unlink(x);
		} else {
			drx_unlink(x);
			drx_put(x);
		}
	}
	spin_unlock_bh(&drx_lock);
}

/*
 * The responders of @l go (NULL: all, at module exit), but for the
 * released ones, which linger without it to drop replays.
 */
void drx_drop_responders(struct drx_lender *l)
{
	struct hlist_node *n;
	struct drx *x;
	int b;

	hash_for_each_safe(drx_table, b, n, x, node) {
		if (x->initiator || (l && x->lender != l))
			continue;
		if (l && x->state == DRX_DONE) {
			x->lender = NULL;
			continue;
		}
		drx_unlink(x);
		drx_put(x);
	}
}

/* Module exit: no initiator or lender is left; lingering responders go. */
void drx_exit_all(void)
{
	spin_lock_bh(&drx_lock);
	drx_drop_responders(NULL);
	spin_unlock_bh(&drx_lock);
	flush_work(&drx_reaper);
}
