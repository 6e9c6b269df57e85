/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sock-glue: offload of an established TCP connection's send path to a
 * Tonic device.  One struct tonic_sk per socket that has the "tonic" ULP
 * (installed by setsockopt(TCP_ULP) or by the "tonic" congestion control).
 *
 * Byte offsets (u64) count from the sequence number `isn` the flow was
 * attached at: head (first unacked byte), tail (end of what the
 * application gave us), ttail (tonic-tail: end of what the device was told
 * about).  Segment s of the oldest burst not all acked starts at
 * base_off + (s - base_seg) * C, of a later one at its own start (bursts[])
 * plus as many C; a burst ends with at most one sub-segment, and the next
 * burst follows it at once (TONIC_FLOW_SHORT_SEGS).
 *
 * The files form a line, entry points first:
 *   ulp.c, proto.c, sockopt.c, glue.c  how a socket becomes ours, and the
 *                                      socket calls we override
 *   offload.c                          attach, hand back to TCP, failover,
 *                                      the per-flow work
 *   sendbuf.c carve.c tx.c ack.c       the bytes, the segments, the ACKs
 *   rtt.c                              their round trip, for the socket
 *   ../driver                          the device
 *
 * Who owns the bytes: while attached, [head, tail) are ours and TCP's own
 * queues are empty; every path that takes the socket off the device gives
 * [snd_una, tail) back to TCP's queues (tonic_handback), or the connection
 * is gone (reset) and TCP would have dropped them too.
 *
 * Locking: everything that touches the socket or the send buffer runs under
 * lock_sock (sendmsg, setsockopt, the per-flow work) or under the socket's
 * own lock in TCP's receive path (the ACK commit, which also frees what was
 * acked and transmits what the device released, ack.c).  ctx->lock
 * protects the fields the ACK path reads (attached, flow id, mapping, peer
 * window) and the tap's slots; ctx->qlock the descriptors and notes the
 * device hands over.  Order: socket -> ctx->lock -> device locks -> ctx->qlock.
 */
#ifndef _TONIC_GLUE_H
#define _TONIC_GLUE_H

#include <linux/types.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/hrtimer.h>
#include <linux/xarray.h>
#include <linux/refcount.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <net/inet_connection_sock.h>
#include <uapi/linux/tonic.h>
#include "tonic.h"
#include "program.h"
#include "../driver/device.h"
#include "../driver/counters.h"

/*
 * Descriptors queued between device and tx: a whole window, which one ACK
 * may release (after a hole is filled) before TSQ has held the flow.
 */
#define TONIC_RING		TONIC_WND_MAX
#define TONIC_TX_BUDGET		512	/* descriptors one tx run takes before it yields */
#define TONIC_TSQ_SKBS		16	/* skbs below the socket, at most (tonic_tsq_limit()) */
#define TONIC_ACK_NOTIFY	1	/* device forwards acks every this many segments */
/*
 * Bursts in flight after the oldest (each but the last ended by a
 * sub-segment): a sender of small TCP_NODELAY writes has this many + 1
 * segments out at most, kernel TCP as many as cwnd allows.
 */
#define TONIC_BURSTS		64
/* How far the base may lag the cumulative ack (carve.c: tonic_bursts_acked()). */
#define TONIC_BASE_LAG		BIT_ULL(29)
#define TONIC_TAP_SLOTS		8	/* ACKs seen at the tap, waiting for TCP's verdict */
/* Send times kept, by segment number (rtt.c): one per segment in flight, for Karn's rule. */
#define TONIC_STAMPS		TONIC_WND_MAX

enum tonic_sk_bit {
	TONIC_WORK_QUEUED,
	TONIC_T_EXPIRED,
	TONIC_REBASE,
	TONIC_HANDBACK,		/* the device refused the flow: give it to TCP */
	TONIC_DEFERRED,		/* a timer found the socket owned: tonic_release_cb() */
};

/*
 * What the tap read from an ACK that TCP may still reject: the SACK blocks
 * and whether it carried data.  Committed only from TCP's own ack
 * processing (ack.c), matched by cumulative ack and timestamp.
 */
struct tonic_tap_slot {
	u32 ack, tsval;
	bool has_ts, payload;
	u8 nsack;
	u32 sack[TONIC_MAX_SACK][2];
};

struct tonic_sk {
	struct sock *sk;
	struct proto *orig_prot;
	struct rcu_head rcu;
	refcount_t ref;
	unsigned long bits;
	struct work_struct work;
	/* Softirq timers; a queued one holds the socket and ctx (tonic_timer_start()). */
	struct hrtimer ttimer;		/* T: sub-segment delay, zero-window probe */
	struct hrtimer qtimer;		/* the qdisc has room again (tonic_tsq_full()) */

	/* Under lock_sock. */
	u8 state;			/* TONIC_SK_* */
	bool want;			/* offload requested */
	bool dead;			/* ULP released */
	bool sub_pending;		/* the last segment announced is a sub-segment */
	bool fin_pending;		/* shutdown(SHUT_WR): TCP's FIN after the flow's bytes */
	bool t_armed;
	bool t_spent;			/* T ran out for the bytes left over (carve.c) */
	u64 sml;			/* end of the last sub-segment (TCP's snd_sml) */
	u64 t_ns;			/* what T was armed for ... */
	ktime_t t_due;			/* ... and when it expires, put off by each push */
	bool congested;			/* the qdisc refused a segment (tx.c) */
	const struct tonic_prog_ops *prog;
	/* The socket's own congestion control while ours stands in (ack.c). */
	const struct tcp_congestion_ops *orig_ca;
	u32 cfg_seg;			/* C asked for, 0 = MSS */
	u32 sub_delay_us;		/* T */
	struct tonic_dev *dev;
	struct xarray pages;		/* page index (off >> PAGE_SHIFT) -> page */
	u32 npages;			/* pages in it (the flows file shows them) */
	u64 head, tail;

	/* Under lock_sock + ctx->lock; the ACK tap reads them under ctx->lock. */
	spinlock_t lock;
	bool attached;
	u32 flow;
	u32 isn;
	u32 seg;			/* C in bytes */
	u32 base_seg, tail_seg;
	u64 base_off, ttail;
	/* The bursts after the base one, oldest first: where each begins. */
	struct tonic_burst {
		u32 seg;
		u64 off;
	} bursts[TONIC_BURSTS];
	u32 nbursts;
	u32 peer_right;			/* right edge of the peer's receive window (seq) */
	u32 last_ack;			/* last cumulative ack fed to the device (seq) */
	bool wnd_blocked;
	/*
	 * Highest offset this flow (this device, since attach or failover) has
	 * transmitted.  A cumulative ack beyond it acks what a previous
	 * device sent: the flow is re-based there (rebase_to) instead.
	 */
	u64 flow_sent_hi, rebase_to;
	struct tonic_tap_slot tap[TONIC_TAP_SLOTS];
	u32 tap_head, tap_count;

	/* Under the socket's lock or ownership (rtt.c). */
	struct tonic_stamp {
		u32 seg, us;
	} *stamps;

	/* Under ctx->qlock: handed over by the device. */
	spinlock_t qlock;
	struct tonic_desc *ring;
	u32 rhead, rcount;
	bool n_acked, n_failed;
	/*
	 * The socket's owner is in the device's inline decision (tonic_inline)
	 * and takes its output itself: the descriptors (a sender's push,
	 * carve.c) or the ACKED notes (an ACK, ack.c).  Those
	 * need no flow work.
	 */
	bool inline_desc, inline_notes;
	u32 n_acked_seg;
	bool xoff;			/* the device holds our descriptors (tonic_tx_ring()) */
	u16 credit;			/* ... or will, after this many more; 0: no limit */
	/*
	 * A transmit from inside tcp_ack() on TCP's slow path, whose segment
	 * is queued after (tcp_data_queue()): what we send now acks less
	 * than TCP will have received, so it is not the socket's ACK
	 * (rcvwnd.c).  Under the socket, as the transmit.
	 */
	bool rcv_behind;

	/* Statistics (for TONIC_INFO and debugfs). */
	u64 bytes_queued, bytes_acked, segs_sent, segs_rtx, tx_errors;
	u32 attaches;
};

/*
 * The TCP integration's counters, one per entry of TONIC_SOCK_COUNTERS
 * (driver/counters.h, where they are named and documented).
 */
struct tonic_glue_stats {
#define TONIC_GLUE_STAT_FIELD(name, NAME, doc)	atomic64_t name;
	TONIC_SOCK_COUNTERS(TONIC_GLUE_STAT_FIELD)
#undef TONIC_GLUE_STAT_FIELD
};
extern struct tonic_glue_stats tonic_gstats;
#define TONIC_INC(f)	atomic64_inc(&tonic_gstats.f)

extern struct tcp_ulp_ops tonic_ulp_ops;
extern struct workqueue_struct *tonic_flow_wq;

static inline struct tonic_sk *tonic_sk(const struct sock *sk)
{
	const struct inet_connection_sock *icsk = inet_csk(sk);

	if (READ_ONCE(icsk->icsk_ulp_ops) != &tonic_ulp_ops)
		return NULL;
	return (struct tonic_sk *)rcu_dereference_raw(icsk->icsk_ulp_data);
}

static inline void tonic_sk_get(struct tonic_sk *ctx)
{
	refcount_inc(&ctx->ref);
}
void tonic_sk_put(struct tonic_sk *ctx);

/* Have the flow's work (offload.c) run: from any context. */
static inline void tonic_flow_kick(struct tonic_sk *ctx)
{
	if (test_and_set_bit(TONIC_WORK_QUEUED, &ctx->bits))
		return;
	sock_hold(ctx->sk);
	tonic_sk_get(ctx);
	if (!queue_work(tonic_flow_wq, &ctx->work)) {
		sock_put(ctx->sk);
		tonic_sk_put(ctx);
	}
}

/*
 * The T and TSQ timers run in softirq and take the socket as TCP's pacing
 * timer does (tonic_flow_poke()).  Started under the socket's lock, and
 * only when not queued, never moved: a queued timer holds one reference
 * to the socket and one to ctx, dropped when it fires or is cancelled.
 */
static inline void tonic_timer_start(struct tonic_sk *ctx, struct hrtimer *t, ktime_t at)
{
	if (hrtimer_is_queued(t))
		return;
	sock_hold(ctx->sk);
	tonic_sk_get(ctx);
	hrtimer_start(t, at, HRTIMER_MODE_ABS_SOFT);
}

static inline void tonic_timer_put(struct tonic_sk *ctx)
{
	struct sock *sk = ctx->sk;

	tonic_sk_put(ctx);
	sock_put(sk);
}

static inline void tonic_timer_cancel(struct tonic_sk *ctx, struct hrtimer *t)
{
	if (hrtimer_try_to_cancel(t) == 1)
		tonic_timer_put(ctx);
}

/* ulp.c */
int tonic_sk_install(struct sock *sk, gfp_t gfp);
int tonic_ulp_register(void);
void tonic_ulp_unregister(void);
extern struct tcp_congestion_ops tonic_ca_ops;

/* proto.c */
int tonic_proto_install(struct sock *sk, struct tonic_sk *ctx);
void tonic_proto_restore(struct sock *sk, struct tonic_sk *ctx);

/* sendbuf.c */
int tonic_sbuf_append(struct sock *sk, struct tonic_sk *ctx, struct iov_iter *from, size_t len,
		      int flags, long *timeo);
void tonic_sbuf_free_to(struct sock *sk, struct tonic_sk *ctx, u64 off);
void tonic_sbuf_purge(struct sock *sk, struct tonic_sk *ctx);
void tonic_sbuf_uncharge(struct sock *sk, struct tonic_sk *ctx);
void tonic_sbuf_release(struct tonic_sk *ctx);
int tonic_sbuf_to_tcp(struct sock *sk, struct tonic_sk *ctx, u64 from, u64 to, int flags);
int tonic_sbuf_fill_skb(struct tonic_sk *ctx, struct sk_buff *skb, u64 off, u32 len);

/* Set or clear the owner's claim on the device's inline output (under qlock). */
static inline void tonic_inline(struct tonic_sk *ctx, bool desc, bool notes)
{
	spin_lock_bh(&ctx->qlock);
	ctx->inline_desc = desc;
	ctx->inline_notes = notes;
	spin_unlock_bh(&ctx->qlock);
}

/* carve.c */
void tonic_carve(struct sock *sk, struct tonic_sk *ctx);
void tonic_carve_init(struct tonic_sk *ctx);
u64 tonic_seg_off(const struct tonic_sk *ctx, u32 seg);
u32 tonic_off_seg(const struct tonic_sk *ctx, u64 off, bool round_up);
u32 tonic_seg_len(const struct tonic_sk *ctx, u32 seg);
void tonic_bursts_acked(struct tonic_sk *ctx, u32 seg, u64 off);

/* tx.c */
void tonic_tx_init(struct tonic_sk *ctx);
void tonic_client_desc(void *priv, const struct tonic_desc *d);
void tonic_client_note(void *priv, const struct tonic_note *n);
void tonic_flow_failed(struct tonic_sk *ctx);
void tonic_tx_ring(struct sock *sk, struct tonic_sk *ctx);
u16 tonic_rcv_window(struct sock *sk, bool rcv_behind);
void tonic_pace(struct sock *sk, struct tonic_sk *ctx);
void tonic_wake(struct sock *sk);

/* glue.c: the device client, registration (tonic_main.c) */
extern const struct tonic_flow_client tonic_client;
int tonic_glue_init(void);
void tonic_glue_exit(void);
int tonic_glue_register(void);
void tonic_glue_unregister(void);
void tonic_auto_offload(struct sock *sk);

/* offload.c */
int tonic_attach(struct sock *sk, struct tonic_sk *ctx);
void tonic_ring_free(struct tonic_sk *ctx);
int tonic_failover(struct sock *sk, struct tonic_sk *ctx, bool same_dev);
int tonic_handback(struct sock *sk, struct tonic_sk *ctx, u8 state);
void tonic_detach(struct sock *sk, struct tonic_sk *ctx);
int tonic_wait_kernel_idle(struct sock *sk, long timeo);
bool tonic_drained(const struct tonic_sk *ctx);
int tonic_set_offload(struct sock *sk, struct tonic_sk *ctx, bool on);
void tonic_flow_work(struct work_struct *w);
void tonic_flow_fast(struct sock *sk, struct tonic_sk *ctx);
void tonic_flow_poke(struct tonic_sk *ctx);
void tonic_release_cb(struct sock *sk);

/* sockopt.c */
int tonic_setsockopt(struct sock *sk, int level, int optname, sockptr_t optval,
		     unsigned int optlen);
int tonic_getsockopt(struct sock *sk, int level, int optname, char __user *optval,
		     int __user *optlen);
void tonic_fill_info(struct sock *sk, struct tonic_sk *ctx, struct tonic_sock_info *info);

/* ack.c */
void tonic_ack_commit(struct sock *sk, u32 ca_flags);
void tonic_ca_take(struct sock *sk, struct tonic_sk *ctx);
void tonic_ca_restore(struct sock *sk, struct tonic_sk *ctx);
int tonic_acktap_register(void);
void tonic_acktap_unregister(void);

/* rtt.c */
void tonic_rtt_reset(struct tonic_sk *ctx);
void tonic_rtt_stamp(struct tonic_sk *ctx, u32 seg, u32 n, bool rtx, u64 now_us);
long tonic_rtt_sample(struct sock *sk, struct tonic_sk *ctx, const struct tonic_pkt *pkt,
		      const u32 *first, long ts_ms);

/* stats.c */
int tonic_stats_init(void);
void tonic_stats_exit(void);

#endif /* _TONIC_GLUE_H */
