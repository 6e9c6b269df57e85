// SPDX-License-Identifier: GPL-2.0
/*
 * ConWeave (seed 004) between two tonic_rdma peers (Documentation/
 * conweave.rst): a QP's requester is the source ToR of its requests, its
 * responder the destination ToR.  The state machines are tonic-core's
 * (conweave.c); here the paths (UDP source ports, a device setting), the
 * framing (a struct trd_cw after the BTH, added before the ICRC and
 * stripped after it), the destination's hold queue and resume timer, and
 * the control packets.
 *
 * Locks: cw_src_lock (the source, taken under qp->lock by the transmit
 * path), cw_dst_lock (the destination: taken first, then the responder
 * takes qp->lock; held while packets are delivered, so that a packet
 * passing on one CPU cannot overtake released ones on another).
 */
#include <linux/ip.h>
#include <linux/udp.h>
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/random.h>
#include "tonic_rdma.h"

/* How new RC QPs spread their requests over the paths. */
enum { TRD_LB_ECMP, TRD_LB_CONWEAVE, TRD_LB_SPRAY };
static uint trd_cw_mode;
module_param_named(conweave, trd_cw_mode, uint, 0644);
MODULE_PARM_DESC(conweave, "new RC QPs: 0 one path (their own port: ECMP), 1 ConWeave toward a peer that speaks it, 2 every request packet on a random path (spraying); 1 and 2 need conweave_ports");
static ushort trd_cw_ports[CW_PATHS_MAX];
static int trd_cw_nports;
module_param_array_named(conweave_ports, trd_cw_ports, ushort, &trd_cw_nports, 0644);
MODULE_PARM_DESC(conweave_ports, "UDP source ports, one per path (PathID: the index)");
static uint trd_cw_probe_us = 200;
module_param_named(conweave_probe_us, trd_cw_probe_us, uint, 0644);
MODULE_PARM_DESC(conweave_probe_us, "an RTT_REQUEST at most this often per QP");
static uint trd_cw_cutoff_us = 1000;
module_param_named(conweave_cutoff_us, trd_cw_cutoff_us, uint, 0644);
MODULE_PARM_DESC(conweave_cutoff_us, "no RTT_REPLY within it: the path is congested");
static uint trd_cw_busy_us = 20000;
module_param_named(conweave_busy_us, trd_cw_busy_us, uint, 0644);
MODULE_PARM_DESC(conweave_busy_us, "a congested path is avoided this long");
static uint trd_cw_resume_us = 5000;
module_param_named(conweave_resume_us, trd_cw_resume_us, uint, 0644);
MODULE_PARM_DESC(conweave_resume_us, "held packets wait at most this long for their TAIL");

#define TRD_CW_HOLD_MAX	1024	/* packets a QP holds at most */

static u64 trd_cw_now(void)
{
	return div_u64(ktime_get_ns(), NSEC_PER_USEC);
}

static struct trd_bth *trd_cw_bth(struct sk_buff *skb)
{
	return (struct trd_bth *)(udp_hdr(skb) + 1);
}

/* @skb's headers up to the end of the BTH, from its IP header (skb->data). */
static unsigned int trd_cw_hlen(struct sk_buff *skb)
{
	return (u8 *)(trd_cw_bth(skb) + 1) - skb->data;
}

/* A struct trd_cw after the BTH of @skb (built, not sealed), and @m's bits. */
static int trd_cw_insert(struct sk_buff *skb, const struct cw_mark *m, u16 sport)
{
	unsigned int hl = trd_cw_hlen(skb);
	struct trd_bth *bth;
	struct trd_cw *cw;

	if (skb_cow_head(skb, sizeof(*cw)))
		return -ENOMEM;
	skb_push(skb, sizeof(*cw));
	memmove(skb->data, skb->data + sizeof(*cw), hl);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, sizeof(struct iphdr));
	ip_hdr(skb)->tot_len = htons(skb->len);
	udp_hdr(skb)->len = htons(skb->len - sizeof(struct iphdr));
	udp_hdr(skb)->source = htons(sport);
	bth = trd_cw_bth(skb);
	bth->qpn |= htonl(TRD_BTH_CW);
	bth->apsn |= htonl((u32)m->op << TRD_CW_OP_SHIFT | (u32)m->epoch << TRD_CW_EPOCH_SHIFT |
			   (m->rerouted ? TRD_CW_REROUTED : 0) | (m->tail ? TRD_CW_TAIL : 0));
	cw = (struct trd_cw *)(bth + 1);
	cw->path = m->path;
	cw->resv = 0;
	cw->tx_ts = htons(m->tx_ts);
	cw->tail_tx_ts = htons(m->tail_tx_ts);
	cw->resv2 = 0;
	return 0;
}

/*
 * trd_cw_strip: the struct trd_cw of a packet whose BTH says CW, into @m,
 * out of @skb (linear, from its IP header; ICRC checked); *@len, the bytes
 * from the BTH on, shrinks with it.  false: too short, or no memory for a
 * private copy of a cloned @skb.
 */
bool trd_cw_strip(struct sk_buff *skb, unsigned int *len, struct cw_mark *m)
{
	struct trd_bth *bth;
	const struct trd_cw *cw;
	unsigned int hl;
	u32 apsn;

	if (*len < sizeof(*bth) + sizeof(*cw))
		return false;
	/* A tap may still hold these bytes: change a copy. */
	if (skb_unclone(skb, GFP_ATOMIC))
		return false;
	bth = trd_cw_bth(skb);
	cw = (const struct trd_cw *)(bth + 1);
	apsn = ntohl(bth->apsn);
	hl = trd_cw_hlen(skb);
	m->op = (apsn & TRD_CW_OP_MASK) >> TRD_CW_OP_SHIFT;
	m->epoch = (apsn & TRD_CW_EPOCH_MASK) >> TRD_CW_EPOCH_SHIFT;
	m->rerouted = apsn & TRD_CW_REROUTED;
	m->tail = apsn & TRD_CW_TAIL;
	m->path = cw->path;
	m->tx_ts = ntohs(cw->tx_ts);
	m->tail_tx_ts = ntohs(cw->tail_tx_ts);
	bth->apsn &= ~htonl(TRD_CW_OP_MASK | TRD_CW_EPOCH_MASK | TRD_CW_REROUTED | TRD_CW_TAIL);
	bth->qpn &= ~htonl(TRD_BTH_CW);
	memmove(skb->data + sizeof(*cw), skb->data, hl);
	skb_pull(skb, sizeof(*cw));
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, sizeof(struct iphdr));
	*len -= sizeof(*cw);
	return true;
}

void trd_cw_qp_init(struct trd_qp *qp)
{
	struct cw_src_cfg cfg = {
		.npaths = trd_cw_nports, .probe_us = trd_cw_probe_us,
		.cutoff_us = trd_cw_cutoff_us, .busy_us = trd_cw_busy_us,
		.seed = get_random_u32() | 1,
	};
	u32 mode = READ_ONCE(trd_cw_mode);

	spin_lock_init(&qp->cw_src_lock);
	spin_lock_init(&qp->cw_dst_lock);
	__skb_queue_head_init(&qp->cw_held);
	timer_setup(&qp->cw_timer, trd_cw_resume, 0);
	qp->cw_on = mode == TRD_LB_CONWEAVE;
	qp->cw = qp->cw_on && trd_cw_nports >= 2;
	qp->spray = mode == TRD_LB_SPRAY && trd_cw_nports >= 2;
	/* A flow starts where ECMP would put it: a path at random. */
	cw_src_init(&qp->cw_src, &cfg, trd_cw_nports ? get_random_u32_below(trd_cw_nports) : 0);
	cw_dst_init(&qp->cw_dst, trd_cw_resume_us, 0);
}

/* After the rx path is done with the QP (synchronize_rcu). */
void trd_cw_qp_destroy(struct trd_qp *qp)
{
	del_timer_sync(&qp->cw_timer);
	__skb_queue_purge(&qp->cw_held);
}

static void trd_cw_ctl_send(struct trd_qp *qp, const struct cw_mark *r)
{
	struct sk_buff *skb;
	void *ext, *pay;

	skb = trd_pkt_alloc(qp, TRD_OP_CW, 0, false, 0, &ext, &pay);
	if (!skb)
		return;
	if (trd_cw_insert(skb, r, qp->sport)) {
		kfree_skb(skb);
		return;
	}
	trd_count(qp->dev, TRD_CNT_CW_CTL_SENT, 1);
	trd_pkt_xmit(qp, skb);
}

/*
 * The transmit path's part (trd_pkt_xmit, before the ICRC): requests say
 * CW_CAP and, toward a peer that answered it, carry the source's marks on
 * their path's port; ACKs answer CW_CAP.  -ENOMEM: not sent.
 */
int trd_cw_tx(struct trd_qp *qp, struct sk_buff *skb)
{
	struct trd_bth *bth = trd_cw_bth(skb);
	struct cw_mark m;
	bool resend;
	u32 psn;

	if (!trd_op_is_request(bth->opcode)) {
		if (bth->opcode == TRD_OP_ACK && READ_ONCE(qp->cw_req))
			bth->qpn |= htonl(TRD_BTH_CW_CAP);
		return 0;
	}
	if (qp->spray) {
		udp_hdr(skb)->source = htons(trd_cw_ports[get_random_u32_below(trd_cw_nports)]);
		return 0;
	}
	if (!qp->cw)
		return 0;
	bth->qpn |= htonl(TRD_BTH_CW_CAP);
	if (!READ_ONCE(qp->cw_peer))
		return 0;
	psn = ntohl(bth->apsn) & TRD_PSN_MASK;
	spin_lock_bh(&qp->cw_src_lock);
	/* Below the highest PSN framed yet: go-back-N sends it again. */
	resend = qp->cw_psn_seen && trd_psn_cmp(psn, qp->cw_psn_next) < 0;
	if (!resend) {
		qp->cw_psn_next = trd_psn_add(psn, 1);
		qp->cw_psn_seen = true;
	}
	cw_src_tx(&qp->cw_src, trd_cw_now(), resend, &m);
	spin_unlock_bh(&qp->cw_src_lock);
	if (m.tail)
		trd_count(qp->dev, TRD_CNT_CW_REROUTES, 1);
	return trd_cw_insert(skb, &m, trd_cw_ports[m.path]);
}

/* A control packet for this QP's source. */
void trd_cw_ctl_rcv(struct trd_qp *qp, const struct cw_mark *m)
{
	trd_count(qp->dev, TRD_CNT_CW_CTL_RCVD, 1);
	spin_lock_bh(&qp->cw_src_lock);
	cw_src_rx(&qp->cw_src, trd_cw_now(), m);
	spin_unlock_bh(&qp->cw_src_lock);
}

static void trd_cw_release(struct trd_qp *qp)
{
	struct sk_buff *skb;

	while ((skb = __skb_dequeue(&qp->cw_held))) {
		trd_resp_rcv(qp, skb, trd_cw_bth(skb));
		consume_skb(skb);
	}
}

/*
 * The TAIL given up on by @now (U64_MAX: at once): what is held goes, and
 * the CLEAR back.  false: the hold lasts yet.  Under cw_dst_lock.
 */
static bool trd_cw_give_up(struct trd_qp *qp, u64 now)
{
	struct cw_mark r;

	if (!cw_dst_poll(&qp->cw_dst, now, &r))
		return false;
	trd_count(qp->dev, TRD_CNT_CW_RESUMED, 1);
	trd_cw_release(qp);
	trd_cw_ctl_send(qp, &r);
	return true;
}

/*
 * A ConWeave-framed request (stripped) for the responder: delivered,
 * held, or delivered with what was held; answered as the destination
 * says; an ECN-CE one makes a NOTIFY (at most one per probe interval).
 */
void trd_cw_resp_rcv(struct trd_qp *qp, struct sk_buff *skb, struct trd_bth *bth,
		     const struct cw_mark *m, bool ce)
{
	u64 now = trd_cw_now();
	enum cw_verdict v;
	struct cw_mark r;

	spin_lock_bh(&qp->cw_dst_lock);
	v = cw_dst_rx(&qp->cw_dst, now, m, &r);
	if (v == CW_HOLD && skb_queue_len(&qp->cw_held) >= TRD_CW_HOLD_MAX) {
		/* A bounded queue: give the TAIL up, as the resume timer would. */
		del_timer(&qp->cw_timer);
		trd_cw_give_up(qp, U64_MAX);
		v = cw_dst_rx(&qp->cw_dst, now, m, &r);
	}
	if (v == CW_HOLD) {
		__skb_queue_tail(&qp->cw_held, skb_get(skb));
		trd_count(qp->dev, TRD_CNT_CW_HELD, 1);
		if (!timer_pending(&qp->cw_timer))
			mod_timer(&qp->cw_timer, jiffies + usecs_to_jiffies(trd_cw_resume_us) + 1);
	} else {
		trd_resp_rcv(qp, skb, bth);
		if (v == CW_PASS_RELEASE) {
			del_timer(&qp->cw_timer);
			trd_cw_release(qp);
		}
	}
	if (r.op != CW_OP_NORMAL)
		trd_cw_ctl_send(qp, &r);
	if (ce && now - qp->cw_notified >= trd_cw_probe_us) {
		r = *m;
		r.op = CW_OP_NOTIFY;
		qp->cw_notified = now;
		trd_cw_ctl_send(qp, &r);
	}
	spin_unlock_bh(&qp->cw_dst_lock);
}

/* The resume timer: the TAIL is lost, what is held goes. */
void trd_cw_resume(struct timer_list *t)
{
	struct trd_qp *qp = from_timer(qp, t, cw_timer);

	spin_lock_bh(&qp->cw_dst_lock);
	if (!trd_cw_give_up(qp, trd_cw_now()) && qp->cw_dst.holding)
		mod_timer(&qp->cw_timer, jiffies + 1);
	spin_unlock_bh(&qp->cw_dst_lock);
}
