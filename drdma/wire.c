// SPDX-License-Identifier: GPL-2.0
/* DRP frames: built for a transfer, checked on arrival. */
#include <linux/etherdevice.h>
#include <linux/if_ether.h>
#include <linux/pkt_sched.h>
#include "drdma.h"

/*
 * drx_frame: a frame of @x to its peer with @ctrl (plus READ for a read
 * transfer's frames) and, for a data frame, @len bytes of frame @sn taken
 * from the local memory.  NULL when no memory: the frame is lost, as on a
 * busy wire, and the protocol's timers send it again.
 */
struct sk_buff *drx_frame(struct drx *x, u8 ctrl, u32 sn, u32 ackn, u32 len)
{
	struct net_device *dev = x->dev;
	u32 payload = (ctrl & TDRDMA_F_DATA) ? len : 0;
	struct tdrdma_hdr *h;
	struct sk_buff *skb;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + sizeof(*h) + payload + dev->needed_tailroom,
			GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	skb_reset_network_header(skb);
	h = skb_put(skb, sizeof(*h));
	h->ctrl = ctrl | (x->read ? TDRDMA_F_READ : 0);
	h->version = TDRDMA_VERSION;
	h->tid = htons(x->tid);
	h->sn = htonl(sn);
	h->ackn = htonl(ackn);
	h->len = htonl(len);
	h->sba = cpu_to_be64(x->sba);
	h->dba = cpu_to_be64(x->dba);
	if (payload)
		drx_copy_from(&x->pg, sn * TDRDMA_FRAME_BYTES, skb_put(skb, payload), payload);
	skb->dev = dev;
	skb->protocol = htons(TDRDMA_ETH_P);
	skb->priority = TC_PRIO_CONTROL;
	if (dev_hard_header(skb, dev, TDRDMA_ETH_P, x->peer, dev->dev_addr, skb->len) < 0) {
		kfree_skb(skb);
		return NULL;
	}
	drx_count(TDRDMA_S_FRAMES_TX, 1);
	dev_hold(dev);	/* dropped by drx_flush, whatever happens to the transfer meanwhile */
	return skb;
}

/*
 * drx_parse: the header of a frame that is whole and consistent (the
 * right version, one kind of frame, a data frame's payload as long as its
 * LEN and at most a frame, a request's LEN within limits), else NULL.
 * Consistency with the transfer is the caller's.
 */
const struct tdrdma_hdr *drx_parse(struct sk_buff *skb)
{
	const struct tdrdma_hdr *h;
	u8 kind;
	u32 len;

	if (!pskb_may_pull(skb, sizeof(*h)))
		return NULL;
	h = (const struct tdrdma_hdr *)skb->data;
	len = ntohl(h->len);
	kind = h->ctrl & (TDRDMA_F_REQ | TDRDMA_F_REQ_ACK | TDRDMA_F_DATA |
			  TDRDMA_F_REL | TDRDMA_F_REL_ACK);
	if (h->version != TDRDMA_VERSION || hweight8(kind) != 1)
		return NULL;
	if (kind == TDRDMA_F_DATA) {
		if (len > TDRDMA_FRAME_BYTES || skb->len < sizeof(*h) + len ||
		    ntohl(h->sn) >= DIV_ROUND_UP(TDRDMA_MAX_LEN, TDRDMA_FRAME_BYTES))
			return NULL;
		if (len && skb_linearize(skb))
			return NULL;
		h = (const struct tdrdma_hdr *)skb->data;
	}
	if (kind == TDRDMA_F_REQ && (!len || len > TDRDMA_MAX_LEN))
		return NULL;
	return h;
}

/* drx_flush: send what was queued under drx_lock; a queued frame holds its device. */
void drx_flush(struct sk_buff_head *q)
{
	struct net_device *dev;
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(q))) {
		dev = skb->dev;
		dev_queue_xmit(skb);
		dev_put(dev);
	}
}

/* drx_reply: a header-only answer to @h with no transfer behind it. */
struct sk_buff *drx_reply(struct net_device *dev, const u8 *peer, const struct tdrdma_hdr *h,
			  u8 ctrl)
{
	struct tdrdma_hdr *r;
	struct sk_buff *skb;

	skb = alloc_skb(LL_RESERVED_SPACE(dev) + sizeof(*r) + dev->needed_tailroom, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_RESERVED_SPACE(dev));
	skb_reset_network_header(skb);
	r = skb_put(skb, sizeof(*r));
	*r = *h;
	r->ctrl = ctrl | (h->ctrl & TDRDMA_F_READ);
	r->len = 0;
	skb->dev = dev;
	skb->protocol = htons(TDRDMA_ETH_P);
	skb->priority = TC_PRIO_CONTROL;
	if (dev_hard_header(skb, dev, TDRDMA_ETH_P, peer, dev->dev_addr, skb->len) < 0) {
		kfree_skb(skb);
		return NULL;
	}
	drx_count(TDRDMA_S_FRAMES_TX, 1);
	dev_hold(dev);	/* dropped by drx_flush, whatever happens to the transfer meanwhile */
	return skb;
}
