// SPDX-License-Identifier: GPL-2.0
/*
 * Congestion notification, as DCQCN (Zhu et al., SIGCOMM'15) and RoCEv2
 * (annex A17.9) define it.  A queue on the path marks a packet ECN CE
 * instead of dropping it (the requester sends ECN-capable packets when its
 * flow's program reacts to CNPs: qp->ect); the receiving QP, the
 * notification point, answers with a CNP to the sending QP -- at most one
 * per QP per cnp_interval_us, as a NIC's "min time between CNPs" -- and
 * the sender's flow, the reaction point, hands it to the program
 * (TONIC_PKT_CNP), which sets the rate.
 *
 * The notification point works whatever program the receiving QP runs:
 * it is a property of the receiver, like mlx5's roce_np.  A Soft-RoCE
 * peer neither marks its packets ECN-capable nor knows CNPs (it drops
 * them).
 */
#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <uapi/linux/tonic.h>
#include "tonic_rdma.h"

static unsigned int trd_cnp_interval_us = 50;
module_param_named(cnp_interval_us, trd_cnp_interval_us, uint, 0644);
MODULE_PARM_DESC(cnp_interval_us,
		 "Least time between two CNPs for one QP, microseconds (DCQCN: 50)");

/*
 * An RC packet of @qp arrived marked CE: a CNP to the peer QP unless one
 * left less than cnp_interval_us ago.  Softirq; no QP lock (the fields
 * used are set before the QP reaches RTR).  Two CPUs may race for the
 * same QP: the cmpxchg lets one of them send.
 */
void trd_cnp_mark_rcvd(struct trd_qp *qp)
{
	u64 now = ktime_get_ns(), last = READ_ONCE(qp->cnp_last_ns);
	struct sk_buff *skb;
	struct trd_bth *bth;
	void *ext, *payload;

	trd_count(qp->dev, TRD_CNT_NP_ECN_MARKED, 1);
	if (last && now - last < (u64)READ_ONCE(trd_cnp_interval_us) * NSEC_PER_USEC)
		return;
	if (cmpxchg64(&qp->cnp_last_ns, last, now) != last)
		return;
	skb = trd_pkt_alloc(qp, TRD_OP_CNP, 0, false, 0, &ext, &payload);
	if (!skb)
		return;
	bth = (struct trd_bth *)(udp_hdr(skb) + 1);
	bth->qpn |= htonl(TRD_BTH_BECN);
	memset(ext, 0, TRD_CNP_RSVD);
	if (!trd_pkt_xmit(qp, skb))
		trd_qp_count(qp, TRD_CNT_NP_CNP_SENT, TRD_CNT_QP_CNP_SENT);
}

/* A CNP for @qp: to its flow.  Softirq, no QP lock. */
void trd_cnp_rcv(struct trd_qp *qp)
{
	bool handled = READ_ONCE(qp->ect) && trd_flow_in(qp, TONIC_PKT_CNP, 0, NULL);

	trd_count(qp->dev, handled ? TRD_CNT_RP_CNP_HANDLED : TRD_CNT_RP_CNP_IGNORED, 1);
}
