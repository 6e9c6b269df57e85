/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dynamic RDMA (seed 003), tonic_drdma.ko: Documentation/drdma.rst.
 *
 * One struct drx per transfer and side.  Every field below the lock line
 * is under drx_lock (one lock for the module: the protocol runs at the
 * speed of a gigabit NIC's control logic, and one lock keeps the
 * transfer's life simple).  Frames are queued under the lock and sent
 * after it (drx_flush).
 */
#ifndef _TONIC_DRDMA_H
#define _TONIC_DRDMA_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/mm_types.h>
#include <uapi/linux/tonic_drdma.h>

struct drx_pages {
	struct page **pages;
	unsigned int npages;
	unsigned int off;	/* into the first page */
	bool write;		/* pinned for writing: dirty on unpin */
};

/* A responder's memory on one netdev (one lender per netdev). */
struct drx_lender {
	struct list_head node;
	struct net_device *dev;
	netdevice_tracker tracker;
	struct mm_struct *mm;
	u64 addr, size;
	struct list_head pending;	/* drx.pend: requests to register */
	wait_queue_head_t wq;
	u32 done;
	bool gone;			/* the netdev went away */
};

enum drx_state {
	DRX_REQUEST,	/* initiator: requesting; responder: not registered */
	DRX_DATA,	/* data moving */
	DRX_RELEASE,	/* initiator: all acked, releasing */
	DRX_DONE,	/* released (responder: lingering to drop replays) */
	DRX_FAILED,
};

struct drx {
	struct hlist_node node;
	struct list_head reap;
	refcount_t ref;
	struct net_device *dev;
	netdevice_tracker tracker;
	u8 peer[ETH_ALEN];
	u16 tid;
	bool initiator;
	bool read;
	u32 len;
	u64 sba, dba;
	u32 nframes;
	struct drx_pages pg;	/* the local memory (responder: once registered) */
	struct timer_list timer;

	/* under drx_lock */
	bool dead;		/* out of the table: the timer stays idle */
	enum drx_state state;
	bool dynamic;		/* initiator's policy (responder: the request's) */
	bool indirect;		/* data without a valid REQ_ACK (seen) */
	bool registered;	/* a valid REQ_ACK sent (responder) or seen */
	bool pending;		/* responder: on lender->pending or being registered */
	u32 tries;		/* timeouts of the current request/release */
	u32 una, nxt, dupacks;	/* sender */
	bool recovering;	/* sender: resending holes up to recover */
	u32 recover;
	u32 expected;		/* receiver: next in-order frame */
	unsigned long seen;	/* receiver: frames expected + 1 + bit received */
	struct sk_buff_head ibuf;	/* responder: the indirect buffer's frames */
	u32 ibytes, imem;	/* its payload bytes; their skbs' truesize */
	unsigned long last_rx;
	struct drx_lender *lender;
	struct list_head pend;
	int err;
	wait_queue_head_t wq;
	u32 requests, frames, retransmits;
	u64 t0, t_data;		/* initiator: the request, the data's start (ns) */
};

extern spinlock_t drx_lock;
extern unsigned int drx_req_timeout_ms, drx_rto_ms, drx_req_tries, drx_rel_tries;
extern unsigned int drx_idle_ms, drx_linger_ms, drx_indirect_kb;
extern unsigned int drx_responders, drx_max_responders;

/* stats */
extern atomic64_t drx_stats[TDRDMA_S_MAX];
static inline void drx_count(int i, u64 n)
{
	atomic64_add(n, &drx_stats[i]);
}

/* wire.c */
struct sk_buff *drx_frame(struct drx *x, u8 ctrl, u32 sn, u32 ackn, u32 len);
const struct tdrdma_hdr *drx_parse(struct sk_buff *skb);
void drx_flush(struct sk_buff_head *q);

/* A frame to send after drx_lock (NULL: none could be built). */
static inline void drx_queue(struct sk_buff_head *q, struct sk_buff *skb)
{
	if (skb)
		__skb_queue_tail(q, skb);
}

/* pages.c */
int drx_pin(struct drx_pages *pg, u64 addr, u32 len, bool write);
void drx_unpin(struct drx_pages *pg);
void drx_copy_to(struct drx_pages *pg, u32 off, const void *src, u32 len);
void drx_copy_from(struct drx_pages *pg, u32 off, void *dst, u32 len);

/* xfer.c: the table, the window, timers, reaping */
struct drx *drx_alloc(struct net_device *dev, const u8 *peer, u16 tid, bool initiator);
struct drx *drx_find(struct net_device *dev, const u8 *peer, u16 tid, bool initiator);
void drx_insert(struct drx *x);
void drx_unlink(struct drx *x);
void drx_get(struct drx *x);
void drx_put(struct drx *x);
void drx_arm(struct drx *x, unsigned int ms);
u32 drx_frame_len(const struct drx *x, u32 sn);
void drx_send_window(struct drx *x, struct sk_buff_head *q);
void drx_sender_ack(struct drx *x, u32 ackn, struct sk_buff_head *q);
void drx_sender_timeout(struct drx *x, struct sk_buff_head *q);
bool drx_receive(struct drx *x, const struct tdrdma_hdr *h, struct sk_buff *skb,
		 struct sk_buff_head *q);
void drx_drain(struct drx *x);
void drx_fail_dev(struct net_device *dev);
void drx_drop_responders(struct drx_lender *l);
void drx_exit_all(void);

/* initiator.c */
int drx_initiate(struct net *net, struct tdrdma_xfer *a);
bool drx_init_rcv(struct drx *x, const struct tdrdma_hdr *h, struct sk_buff *skb,
		  struct sk_buff_head *q);
void drx_init_timeout(struct drx *x, struct sk_buff_head *q);

/* responder.c */
bool drx_resp_rcv(struct net_device *dev, const u8 *peer, const struct tdrdma_hdr *h,
		  struct sk_buff *skb, struct sk_buff_head *q);
struct sk_buff *drx_reply(struct net_device *dev, const u8 *peer, const struct tdrdma_hdr *h,
			  u8 ctrl);
void drx_resp_timeout(struct drx *x, struct sk_buff_head *q);
int drx_lend(struct net *net, struct drx_lender **out, const struct tdrdma_lend *a);
void drx_unlend(struct drx_lender *l);
int drx_next(struct drx_lender *l, struct tdrdma_request *r);
int drx_register(struct drx_lender *l, const struct tdrdma_register *r);
void drx_lender_dev_gone(struct net_device *dev);

#endif
