/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tonic_rdma: a RoCEv2 ib_device over an Ethernet netdev (rdma-glue).
 *
 * One file per verbs object (device.c, mr.c, cq.c, qp.c) and per transport
 * stage like Soft-RoCE: req.c (requester: the packets the QP's Tonic flow
 * names), resp.c (responder: requests to placement, recv completions and
 * ACKs), comp.c (completer: ACK/NAK to the flow, its acknowledgements to
 * send completions), flow.c (the flow: attach, detach, its output),
 * net.c (IPv4/UDP out through the route, in through an rx_handler),
 * cnp.c (congestion notification: CNPs out for ECN-marked packets, in to
 * the flow), icrc.c.  ud.c: UD and GSI QPs (a datagram out at post_send, in to a
 * receive WQE) and address handles; no Tonic flow.
 *
 * Locking: everything of a QP's transport state is under qp->lock (BH
 * off); CQs have their own lock (irqsave), taken inside qp->lock.  The rx
 * path runs in softirq under RCU: QPs and MRs are looked up in xarrays
 * and freed only after synchronize_rcu().
 *
 * The send side of an RC QP is a Tonic flow (tonic.ko, driver/device.h):
 * its output arrives under the Tonic device's lock in flow.c, which only
 * queues it (qp->txq_lock, the innermost lock) for the requester; the
 * device's ops are called with no QP lock held, inside an RCU read-side
 * section that detaching the flow waits for.
 */
#ifndef _TONIC_RDMA_H
#define _TONIC_RDMA_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/interrupt.h>
#include <linux/timer.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/ib_umem.h>
#include "hdr.h"
#include "counters.h"
#include "../driver/device.h"
#include "conweave.h"		/* tonic-core's state machines */

#define TRD_MAX_QP		4096
#define TRD_MAX_QP_WR		1024
#define TRD_MAX_SGE		8
#define TRD_MAX_CQE		32767
#define TRD_MAX_MR		65536
#define TRD_MAX_PD		65536
#define TRD_MAX_MSG		(1u << 31)
#define TRD_WINDOW		128	/* packets in flight per QP: the flow's K */
#define TRD_ACKREQ_EVERY	32	/* AckReq at least every N packets */
/* IRN: PSNs past the expected one a responder places out of order. */
#define TRD_IRN_BITS		256
#define TRD_RNR_DELAY_US	1000
#define TRD_MIN_RTO_MS		10
#define TRD_DEF_RTO_MS		500	/* QP timeout 0 ("infinite") */
#define TRD_TXQ			512	/* descriptors queued for the requester */
#define TRD_MAX_RD_ATOM		16	/* READs a responder answers at once, per QP */
#define TRD_MAX_INIT_RD_ATOM	128	/* READs a requester may have outstanding (as rxe) */
#define TRD_RESP_BATCH		32	/* READ response packets per responder run */

#define TRD_CNT_ENUM(id, name, doc)	TRD_CNT_##id,
enum trd_counter {
	TRD_COUNTERS(TRD_CNT_ENUM)
	TRD_CNT_MAX
};
/* The per-QP ones (counter.c), last in the table. */
#define TRD_CNT_QP_FIRST	TRD_CNT_QP_SEGS_SENT
#define TRD_QCNT_N		(TRD_CNT_MAX - TRD_CNT_QP_FIRST)
#undef TRD_CNT_ENUM

struct trd_dev {
	struct ib_device ib;
	struct net_device *ndev;
	struct list_head node;		/* trd_devs */
	bool rx_registered;		/* rx_handler on ndev (RTNL) */
	struct xarray qps;		/* qpn -> trd_qp */
	struct xarray mrs;		/* key >> 8 -> trd_mr */
	struct xarray counters;		/* rdma_counter id -> trd_bound_counter (counter.c) */
	u32 mr_next, qp_next;
	atomic_t nqp, ncq, nmr, npd;
	atomic64_t cnt[TRD_CNT_MAX];
	struct sk_buff_head ud_txq;	/* datagrams posted with interrupts off (ud.c) */
	struct tasklet_struct ud_tx_task;
};

/* Where a packet goes: the addresses and IPv4 fields, UDP source port, destination QP. */
struct trd_dest {
	__be32 saddr, daddr;
	u8 tos, ttl;
	u16 sport;
	u32 dqpn;
};

/* An address handle (ud.c): a UD destination, from the GIDs as a QP's AV. */
struct trd_ah {
	struct ib_ah ib;
	__be32 saddr, daddr;
	u8 tos, ttl;
};

struct trd_ucontext {
	struct ib_ucontext ib;
};

struct trd_pd {
	struct ib_pd ib;
};

struct trd_mr {
	struct ib_mr ib;
	struct trd_pd *pd;
	struct ib_umem *umem;		/* NULL: a DMA MR (kernel virtual addresses) */
	struct page **pages;
	unsigned long npages;
	u64 iova, length;
	int access;
	struct rcu_head rcu;
};

struct trd_cq {
	struct ib_cq ib;
	spinlock_t lock;
	struct ib_wc *wc;
	u32 size, head, tail;		/* ring of size entries; head == tail: empty */
	u8 notify;			/* IB_CQ_NEXT_COMP / IB_CQ_SOLICITED / 0 */
	bool overflow;
	struct tasklet_struct comp_task;	/* calls comp_handler */
};

struct trd_swqe {
	u64 wr_id;
	enum ib_wr_opcode opcode;
	int send_flags;
	__be32 imm;
	u64 remote_addr;
	u32 rkey;
	u32 length;
	int num_sge;
	struct ib_sge sge[TRD_MAX_SGE];
	u32 first_psn, npkts;		/* given at post_send */
	u32 rsn;			/* IRN's recv_WQE_SN (SEND, WRITE-imm), read_WQE_SN */
	bool started;			/* a packet of it was built: its framing is fixed */
	bool irn;			/* IRN framing: toward a peer that does IRN */
};

struct trd_rwqe {
	u64 wr_id;
	int num_sge;
	struct ib_sge sge[TRD_MAX_SGE];
	u32 length;
};

/* Ring indices are free-running u32; slot = idx % size. */
struct trd_sq {
	struct trd_swqe *wqe;
	u32 size;
	u32 prod;		/* posted (each has its PSNs) */
	u32 cons;		/* completed (acknowledged) */
	u32 push;		/* announced to the flow (flow.c) */
	u32 cur;		/* WQE the requester last sent from (a hint) */
};

/* A READ the responder answers (resp.c): its next response packet. */
struct trd_rd_res {
	u32 psn;
	u32 rkey;
	u64 va;
	u32 len;			/* bytes still to send */
	bool started;			/* FIRST (or ONLY) sent */
};

/* A segment the flow said to send (flow.c -> req.c). */
struct trd_txd {
	u32 seg, flags;
};

struct trd_rq {
	struct trd_rwqe *wqe;
	u32 size;
	u32 prod, cons;
};

/*
 * A packet the responder placed out of order (IRN): what happens when the
 * expected PSN passes it -- a SEND's receive WQE is taken (FIRST) and
 * completed (LAST, end bytes, with imm); a WRITE with immediate's is
 * taken and completed (WIMM, end: the message's length); a READ request
 * is queued for its responses (READ: end its length, rkey and va its
 * RETH's, sn its read_WQE_SN); any message's end counts in the MSN.
 */
struct trd_irn_slot {
	u32 end;			/* SEND: offset + length of the packet; WIMM: see above */
	u32 sn;				/* its receive WQE's number (rq.cons when taken) */
	__be32 imm;
	u32 rkey;
	u64 va;
	u8 flags;			/* TRD_IRN_* */
};

#define TRD_IRN_FIRST		0x1
#define TRD_IRN_LAST		0x2
#define TRD_IRN_IMM		0x4
#define TRD_IRN_SEND		0x8
#define TRD_IRN_WIMM		0x10
#define TRD_IRN_READ		0x20

struct trd_qp {
	struct ib_qp ib;
	struct trd_dev *dev;
	struct mutex modify_lock;	/* one modify_qp at a time */
	spinlock_t lock;
	enum ib_qp_state state;
	bool dying;
	int sq_sig_all;

	/* Attributes (modify_qp). */
	u32 dest_qpn;
	u32 mtu;			/* path MTU in bytes */
	enum ib_mtu path_mtu;
	int access;
	u8 timeout, retry_cnt, rnr_retry, min_rnr_timer;
	u16 pkey_index;
	u8 port_num;
	struct rdma_ah_attr ah;		/* no sgid_attr reference kept */
	__be32 saddr, daddr;		/* from the source GID and the GID in ah */
	u8 tos, ttl;
	/* Its creator, for tenants (tonic tenant): fsuid, cgroup v2 (referenced). */
	kuid_t uid;
	struct cgroup *cgroup;
	u16 sport;
	u32 qkey;
	bool ect;			/* requests go out ECN-capable (the flow reacts to CNPs) */
	bool irn;			/* the flow recovers selectively: IRN_CAP on requests */
	bool irn_peer;			/* the peer answered IRN_CAP: new WRITEs in IRN framing */
	bool irn_req;			/* the peer's requests have IRN_CAP: so do our ACKs */
	/* ConWeave (conweave.c): the source of our requests, the destination of the peer's. */
	bool cw_on;			/* ConWeave spoken (the conweave setting at creation) */
	bool cw;			/* ... and sourced: CW_CAP on requests (paths set) */
	bool cw_peer;			/* the peer answered CW_CAP: requests ConWeave-framed */
	bool cw_req;			/* the peer's requests have CW_CAP: so do our ACKs */
	bool spray;			/* each request on a random path (the baseline) */
	spinlock_t cw_src_lock, cw_dst_lock;
	struct cw_src cw_src;
	struct cw_dst cw_dst;
	struct sk_buff_head cw_held;	/* REROUTED requests ahead of their TAIL */
	struct timer_list cw_timer;	/* the resume timer */
	u64 cw_notified;		/* us, the last NOTIFY */
	u32 cw_psn_next;		/* after the highest request PSN framed (cw_src_lock) */
	bool cw_psn_seen;		/* ... once one was */
	u32 rsn_next;			/* receive-consuming messages posted: the next rsn */
	u32 rdsn_next;			/* READs posted: the next READ's rsn */
	u64 cnp_last_ns;		/* when the last CNP for this QP left (cnp.c) */

	struct trd_sq sq;
	struct trd_rq rq;

	/*
	 * Requester (req.c) and completer (comp.c); the Tonic flow (flow.c)
	 * decides what is sent when.  Segment i of the flow is PSN isn + i.
	 */
	u32 isn;			/* the initial send PSN (segment 0) */
	u32 snd_una;			/* oldest unacknowledged PSN */
	u32 una_seg;			/* ... as a segment index */
	u32 snd_max;			/* next PSN to give a WQE: the flow's tail */
	u32 seg_tail;			/* ... as a segment index */
	u32 pushed;			/* tail announced to the flow */
	u32 push_tail;			/* ... to announce: the WQEs up to sq.push */
	u32 rd_out;			/* READs announced and not completed */
	u32 noack_pkts;
	u32 comp_psn;			/* next PSN the peer has to answer (ACK or READ response) */
	u32 ack_psn;			/* the peer answered every request before it */
	u32 rd_nak_psn;			/* the last READ gap sent to the flow as a NACK */
	u32 rd_resp_noack;		/* READ responses placed since the last ACK to the flow */
	/* IRN: READ responses placed past comp_psn (bit psn % TRD_IRN_BITS). */
	DECLARE_BITMAP(rd_placed, TRD_IRN_BITS);
	u32 desc_end;			/* one past the last segment the flow named */
	u32 flow_in_end;		/* one past the last segment acked to the flow */
	u32 last_desc_psn;		/* the segment the requester took last ... */
	bool last_desc_rtx;		/* ... a retransmission? */
	u32 rd_irn_end;			/* IRN: one past the READ PSNs last asked for again */
	u8 max_rd_atomic, max_dest_rd_atomic;
	u8 rnr_retries;
	u32 rnr_psn;			/* RNR NAK: resend from here after the wait */
	bool sending, send_again;
	struct timer_list rnr_timer;
	struct work_struct req_work;

	/* The flow (flow.c): set and cleared in process context. */
	struct tonic_dev *tdev;
	u32 flow;
	bool flow_on;			/* under lock; device calls under RCU */
	spinlock_t txq_lock;		/* innermost: the fields below */
	struct trd_txd *txq;		/* ring of TRD_TXQ */
	u32 txq_head, txq_tail;
	u32 flow_acked;			/* last TONIC_NOTE_ACKED (segments) */
	bool flow_failed;		/* TONIC_NOTE_FAILED */

	/* Responder (resp.c). */
	u32 epsn;			/* expected PSN */
	u32 msn;
	bool nak_sent;
	/*
	 * IRN: packets placed past epsn (bit psn % TRD_IRN_BITS), and what
	 * epsn passing them does (the slot of the same index).
	 */
	DECLARE_BITMAP(irn_placed, TRD_IRN_BITS);
	struct trd_irn_slot irn_slot[TRD_IRN_BITS];
	/* Per-QP counters (counter.c): events, and detached flows' totals. */
	atomic64_t qcnt[TRD_QCNT_N];
	u64 cbase[TRD_QCNT_N];		/* the QP's counts when bound to ib.counter */
	struct list_head cnode;		/* in that counter's list */
	bool in_recv;			/* a SEND message is being received */
	struct trd_rwqe rwqe;		/* the recv WQE it lands in */
	u32 recv_off;
	u32 wrkey;			/* RDMA WRITE being received, 0: none */
	u64 wva;
	u32 wlen, woff;
	struct trd_rd_res rd[TRD_MAX_RD_ATOM];	/* READs being answered, a ring */
	u32 rd_sn;			/* READs taken in order: the next one's read_WQE_SN */
	u32 rd_head, rd_tail;
	struct sk_buff *rd_ack;		/* an ACK/NAK waiting behind READ responses */
	struct work_struct resp_work;	/* sends READ responses */
};

static inline struct trd_dev *to_tdev(struct ib_device *ib)
{
	return container_of(ib, struct trd_dev, ib);
}

static inline struct trd_pd *to_tpd(struct ib_pd *pd)
{
	return container_of(pd, struct trd_pd, ib);
}

static inline struct trd_mr *to_tmr(struct ib_mr *mr)
{
	return container_of(mr, struct trd_mr, ib);
}

static inline struct trd_cq *to_tcq(struct ib_cq *cq)
{
	return container_of(cq, struct trd_cq, ib);
}

static inline struct trd_qp *to_tqp(struct ib_qp *qp)
{
	return container_of(qp, struct trd_qp, ib);
}

static inline struct trd_ah *to_tah(struct ib_ah *ah)
{
	return container_of(ah, struct trd_ah, ib);
}

/* A received packet, trimmed of its ICRC: extension headers, payload, its length. */
static inline void *trd_pkt_ext(const struct trd_bth *bth)
{
	return (u8 *)(bth + 1);
}

static inline void *trd_pkt_payload(const struct trd_bth *bth)
{
	return (u8 *)(bth + 1) + trd_op_ext_len(bth->opcode);
}

static inline u32 trd_pkt_paylen(const struct sk_buff *skb, const struct trd_bth *bth)
{
	return skb_tail_pointer(skb) - (u8 *)trd_pkt_payload(bth) -
	       ((bth->flags & TRD_BTH_PAD_MASK) >> TRD_BTH_PAD_SHIFT);
}

static inline void trd_count(struct trd_dev *dev, enum trd_counter c, long n)
{
	atomic64_add(n, &dev->cnt[c]);
}

/* An event of @qp's counted for the device and, as @qc, for the QP (counter.c). */
static inline void trd_qp_count(struct trd_qp *qp, enum trd_counter c, enum trd_counter qc)
{
	trd_count(qp->dev, c, 1);
	atomic64_inc(&qp->qcnt[qc - TRD_CNT_QP_FIRST]);
}

/* counter.c */
void trd_flow_counts(const struct tonic_flow_stats *st, u64 *v);
int trd_counter_bind_qp(struct rdma_counter *counter, struct ib_qp *ibqp);
int trd_counter_unbind_qp(struct ib_qp *ibqp);
int trd_counter_dealloc(struct rdma_counter *counter);
int trd_counter_update_stats(struct rdma_counter *counter);

/* device.c */
extern const struct ib_device_ops trd_dev_ops;
int trd_dev_add(const char *name, struct net_device *ndev);
void trd_dev_remove_all(void);
void trd_port_event(struct trd_dev *dev, enum ib_event_type ev);
enum ib_mtu trd_active_mtu(struct trd_dev *dev);

/* mr.c */
struct ib_mr *trd_get_dma_mr(struct ib_pd *pd, int access);
struct ib_mr *trd_reg_user_mr(struct ib_pd *pd, u64 start, u64 length, u64 iova, int access,
			      struct ib_udata *udata);
int trd_dereg_mr(struct ib_mr *mr, struct ib_udata *udata);
struct trd_mr *trd_mr_lookup(struct trd_dev *dev, u32 key);
int trd_mr_copy(struct trd_mr *mr, u64 iova, void *buf, u32 len, bool to_mr);
int trd_sge_copy(struct trd_qp *qp, const struct ib_sge *sge, int num_sge, u32 off, void *buf,
		 u32 len, bool to_mr);

/* cq.c */
int trd_create_cq(struct ib_cq *cq, const struct ib_cq_init_attr *attr, struct ib_udata *udata);
int trd_destroy_cq(struct ib_cq *cq, struct ib_udata *udata);
int trd_poll_cq(struct ib_cq *cq, int n, struct ib_wc *wc);
int trd_req_notify_cq(struct ib_cq *cq, enum ib_cq_notify_flags flags);
void trd_cq_post(struct trd_cq *cq, const struct ib_wc *wc, bool solicited);

/* qp.c */
int trd_av_ipv4(const struct rdma_ah_attr *ah, __be32 *saddr, __be32 *daddr, u8 *tos, u8 *ttl);
int trd_create_qp(struct ib_qp *qp, struct ib_qp_init_attr *init, struct ib_udata *udata);
int trd_modify_qp(struct ib_qp *qp, struct ib_qp_attr *attr, int mask, struct ib_udata *udata);
int trd_query_qp(struct ib_qp *qp, struct ib_qp_attr *attr, int mask,
		 struct ib_qp_init_attr *init);
int trd_destroy_qp(struct ib_qp *qp, struct ib_udata *udata);
int trd_post_send(struct ib_qp *qp, const struct ib_send_wr *wr, const struct ib_send_wr **bad);
int trd_post_recv(struct ib_qp *qp, const struct ib_recv_wr *wr, const struct ib_recv_wr **bad);
void trd_qp_error(struct trd_qp *qp);

/* req.c */
struct trd_swqe *trd_req_wqe(struct trd_qp *qp, u32 psn);
void trd_req_kick(struct trd_qp *qp);
void trd_req_work(struct work_struct *w);

/* comp.c */
void trd_send_wc(struct trd_qp *qp, const struct trd_swqe *wqe, enum ib_wc_status st);
void trd_comp_rcv(struct trd_qp *qp, struct sk_buff *skb, const struct trd_bth *bth);
void trd_comp_read_rcv(struct trd_qp *qp, struct sk_buff *skb, const struct trd_bth *bth);
void trd_comp_flow(struct trd_qp *qp, u32 acked, bool failed);
bool trd_comp_read_arrived(const struct trd_qp *qp, u32 psn);
void trd_rnr_timer(struct timer_list *t);

/* flow.c */
int trd_flow_attach(struct trd_qp *qp, u32 isn, u8 timeout);
void trd_flow_detach(struct trd_qp *qp);
bool trd_flow_pop(struct trd_qp *qp, struct trd_txd *d);
void trd_flow_take_notes(struct trd_qp *qp, u32 *acked, bool *failed);
void trd_flow_push(struct trd_qp *qp);
bool trd_flow_in(struct trd_qp *qp, u32 type, u32 psn, const u32 *sack);
void trd_flow_reack(struct trd_qp *qp);
u32 trd_psn_to_seg(const struct trd_qp *qp, u32 psn);

/* resp.c */
void trd_recv_wc(struct trd_qp *qp, const struct trd_rwqe *rwqe, enum ib_wc_status st,
		 enum ib_wc_opcode op, u32 len, const __be32 *imm);
void trd_resp_rcv(struct trd_qp *qp, struct sk_buff *skb, const struct trd_bth *bth);
void trd_resp_work(struct work_struct *w);
void trd_resp_drop_reads(struct trd_qp *qp);

/* ud.c */
int trd_create_ah(struct ib_ah *ah, struct rdma_ah_init_attr *init, struct ib_udata *udata);
int trd_destroy_ah(struct ib_ah *ah, u32 flags);
int trd_ud_post_send(struct trd_qp *qp, const struct ib_send_wr *wr, const struct ib_send_wr **bad);
void trd_ud_rcv(struct trd_dev *dev, struct sk_buff *skb, const struct trd_bth *bth);
void trd_ud_dev_init(struct trd_dev *dev);
void trd_ud_dev_cleanup(struct trd_dev *dev);

/* net.c */
struct sk_buff *trd_pkt_alloc_to(struct trd_dev *dev, const struct trd_dest *to, u8 opcode,
				 u32 psn, bool ackreq, u32 paylen, void **ext, void **payload);
struct sk_buff *trd_pkt_alloc(struct trd_qp *qp, u8 opcode, u32 psn, bool ackreq, u32 paylen,
			      void **ext, void **payload);
void trd_pkt_seal(struct trd_dev *dev, struct sk_buff *skb);
int trd_pkt_route(struct trd_dev *dev, struct sk_buff *skb);
int trd_pkt_out(struct trd_dev *dev, struct sk_buff *skb);
int trd_pkt_xmit(struct trd_qp *qp, struct sk_buff *skb);
int trd_net_attach(struct trd_dev *dev);
void trd_net_detach(struct trd_dev *dev);
int trd_net_init(void);
void trd_net_exit(void);

/* cnp.c */
void trd_cnp_mark_rcvd(struct trd_qp *qp);
void trd_cnp_rcv(struct trd_qp *qp);

/* icrc.c */
struct iphdr;
u32 trd_icrc(const struct iphdr *iph, const u8 *bth, unsigned int len);

/* conweave.c */
void trd_cw_qp_init(struct trd_qp *qp);
void trd_cw_qp_destroy(struct trd_qp *qp);
int trd_cw_tx(struct trd_qp *qp, struct sk_buff *skb);
bool trd_cw_strip(struct sk_buff *skb, unsigned int *len, struct cw_mark *m);
void trd_cw_ctl_rcv(struct trd_qp *qp, const struct cw_mark *m);
void trd_cw_resp_rcv(struct trd_qp *qp, struct sk_buff *skb, struct trd_bth *bth,
		     const struct cw_mark *m, bool ce);
void trd_cw_resume(struct timer_list *t);

#endif /* _TONIC_RDMA_H */
