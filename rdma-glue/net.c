// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 packets in and out of the netdev.
 *
 * Out: an IPv4/UDP packet built here and sent through the route
 * (ip_route_output_key + ip_local_out), like rxe_net.c, so that policy
 * routing, netfilter and qdiscs apply.  UDP checksum 0, DF set, the source
 * port 0xc000 + hash_32(QPN, 14) as rxe picks it.
 *
 * In: Soft-RoCE binds a UDP socket to port 4791 in init_net and may run
 * next to us in the same namespace, so we do not bind the port: an
 * rx_handler on our netdev takes IPv4/UDP/4791 packets addressed to one
 * of the netdev's own addresses and passes everything else on.  One RDMA
 * device per netdev (a second rx_handler cannot register).
 */
#include <linux/etherdevice.h>
#include <linux/hash.h>
#include <linux/inetdevice.h>
#include <linux/ip.h>
#include <linux/rtnetlink.h>
#include <linux/udp.h>
#include <asm/unaligned.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/route.h>
#include "tonic_rdma.h"

#define TRD_L34_LEN	(sizeof(struct iphdr) + sizeof(struct udphdr))

/*
 * A packet to @to: IPv4/UDP/BTH headers filled in, *@ext pointing at the
 * extension headers (trd_op_ext_len(@opcode) bytes) and *@payload at
 * @paylen bytes of payload for the caller to fill; pad and ICRC are
 * trd_pkt_seal()'s, the route trd_pkt_out()'s.  Any context (no route
 * lookup here: callers build packets under locks that keep interrupts
 * off).  NULL without memory.
 */
struct sk_buff *trd_pkt_alloc_to(struct trd_dev *dev, const struct trd_dest *to, u8 opcode,
				 u32 psn, bool ackreq, u32 paylen, void **ext, void **payload)
{
	unsigned int pad = (-paylen) & 3;
	unsigned int ext_len = trd_op_ext_len(opcode);
	unsigned int len = TRD_L34_LEN + sizeof(struct trd_bth) + ext_len + paylen + pad +
			   TRD_ICRC_SIZE;
	struct sk_buff *skb;
	struct trd_bth *bth;
	struct udphdr *udp;
	struct iphdr *iph;

	/* Room for a ConWeave header too: inserted in place, not by a copy. */
	skb = alloc_skb(LL_RESERVED_SPACE(dev->ndev) + sizeof(struct trd_cw) + len, GFP_ATOMIC);
	if (!skb)
		return NULL;
	skb_reserve(skb, LL_RESERVED_SPACE(dev->ndev) + sizeof(struct trd_cw));
	skb_put(skb, len);
	skb_reset_network_header(skb);
	skb_set_transport_header(skb, sizeof(*iph));
	skb->protocol = htons(ETH_P_IP);

	iph = ip_hdr(skb);
	iph->version = IPVERSION;
	iph->ihl = sizeof(*iph) >> 2;
	iph->tos = to->tos;
	iph->tot_len = htons(len);
	iph->frag_off = htons(IP_DF);
	iph->ttl = to->ttl;
	iph->protocol = IPPROTO_UDP;
	iph->saddr = to->saddr;
	iph->daddr = to->daddr;
	iph->check = 0;
	__ip_select_ident(dev_net(dev->ndev), iph, 1);

	udp = udp_hdr(skb);
	udp->source = htons(to->sport);
	udp->dest = htons(TRD_UDP_DPORT);
	udp->len = htons(len - sizeof(*iph));
	udp->check = 0;

	bth = (struct trd_bth *)(udp + 1);
	bth->opcode = opcode;
	bth->flags = pad << TRD_BTH_PAD_SHIFT;
	bth->pkey = htons(TRD_PKEY_DEFAULT);
	bth->qpn = htonl(to->dqpn & TRD_QPN_MASK);
	bth->apsn = htonl((psn & TRD_PSN_MASK) | (ackreq ? TRD_BTH_ACKREQ : 0));

	*ext = bth + 1;
	*payload = (u8 *)(bth + 1) + ext_len;
	memset((u8 *)*payload + paylen, 0, pad);
	return skb;
}

/*
 * A packet of the RC QP @qp to its peer (trd_pkt_alloc_to).  Requests and
 * READ responses go ECN-capable when the QP's flow reacts to CNPs and the
 * traffic class left the ECN field to us; ACKs and CNPs never do.
 */
struct sk_buff *trd_pkt_alloc(struct trd_qp *qp, u8 opcode, u32 psn, bool ackreq, u32 paylen,
			      void **ext, void **payload)
{
	struct trd_dest to = {
		.saddr = qp->saddr, .daddr = qp->daddr, .tos = qp->tos, .ttl = qp->ttl,
		.sport = qp->sport, .dqpn = qp->dest_qpn,
	};

	if (READ_ONCE(qp->ect) && opcode != TRD_OP_ACK && opcode != TRD_OP_CNP &&
	    !(to.tos & INET_ECN_MASK))
		to.tos |= INET_ECN_ECT_0;

	return trd_pkt_alloc_to(qp->dev, &to, opcode, psn, ackreq, paylen, ext, payload);
}

/* The ICRC of a packet trd_pkt_alloc_to() built, and it counts as sent. */
void trd_pkt_seal(struct trd_dev *dev, struct sk_buff *skb)
{
	struct iphdr *iph = ip_hdr(skb);
	u8 *bth = skb_transport_header(skb) + sizeof(struct udphdr);
	unsigned int len = skb_tail_pointer(skb) - bth - TRD_ICRC_SIZE;

	put_unaligned_le32(trd_icrc(iph, bth, len), bth + len);
	trd_count(dev, TRD_CNT_TX_PKTS, 1);
}

/*
 * The route of a packet trd_pkt_alloc_to() built, from its IP header, out
 * of @dev's netdev: 0 or -errno.  Interrupts on (the route cache takes
 * BH-disabling locks); BH may be off.
 */
int trd_pkt_route(struct trd_dev *dev, struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	struct flowi4 fl = {};
	struct rtable *rt;

	fl.flowi4_oif = dev->ndev->ifindex;
	fl.saddr = iph->saddr;
	fl.daddr = iph->daddr;
	fl.flowi4_proto = IPPROTO_UDP;
	fl.flowi4_tos = RT_TOS(iph->tos);
	rt = ip_route_output_key(dev_net(dev->ndev), &fl);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	skb_dst_set(skb, &rt->dst);
	return 0;
}

/* A sealed packet out through its route (found now if not yet).  Consumes @skb. */
int trd_pkt_out(struct trd_dev *dev, struct sk_buff *skb)
{
	int err = skb_dst(skb) ? 0 : trd_pkt_route(dev, skb);

	if (err) {
		kfree_skb(skb);
		return err;
	}
	err = ip_local_out(dev_net(dev->ndev), NULL, skb);
	return net_xmit_eval(err);	/* a macro: its argument twice */
}

/* ICRC, then out through the route (interrupts on).  Consumes @skb. */
int trd_pkt_xmit(struct trd_qp *qp, struct sk_buff *skb)
{
	if (trd_cw_tx(qp, skb)) {
		kfree_skb(skb);
		return -ENOMEM;
	}
	trd_pkt_seal(qp->dev, skb);
	return trd_pkt_out(qp->dev, skb);
}

static bool trd_addr_is_mine(struct net_device *ndev, __be32 daddr)
{
	struct in_device *in_dev = __in_dev_get_rcu(ndev);
	const struct in_ifaddr *ifa;

	if (!in_dev)
		return false;
	in_dev_for_each_ifa_rcu(ifa, in_dev)
		if (ifa->ifa_local == daddr)
			return true;
	return false;
}

/* A RoCEv2 packet of ours, linear, from the IP header on. */
static void trd_rcv(struct trd_dev *dev, struct sk_buff *skb)
{
	const struct iphdr *iph = ip_hdr(skb);
	const struct udphdr *udp = (const struct udphdr *)(iph + 1);
	struct trd_bth *bth = (struct trd_bth *)(udp + 1);
	unsigned int tot = ntohs(iph->tot_len), len, ext;
	struct cw_mark cwm;
	struct trd_qp *qp;
	bool cw = false;

	trd_count(dev, TRD_CNT_RX_PKTS, 1);
	if (tot > skb->len || ip_fast_csum(iph, iph->ihl) ||
	    tot < TRD_L34_LEN + sizeof(*bth) + TRD_ICRC_SIZE ||
	    ntohs(udp->len) != tot - sizeof(*iph))
		goto bad;
	len = tot - TRD_L34_LEN - TRD_ICRC_SIZE;	/* BTH to the end of the pad */
	if (get_unaligned_le32((u8 *)bth + len) != trd_icrc(iph, (u8 *)bth, len)) {
		trd_count(dev, TRD_CNT_ICRC_ERR, 1);
		return;
	}
	if ((bth->flags & 0x0f) != 0)			/* TVer */
		goto bad;
	if (bth->opcode > TRD_OP_ACK && bth->opcode != TRD_OP_CNP && bth->opcode != TRD_OP_CW &&
	    !trd_op_is_ud(bth->opcode))
		goto bad;				/* not (yet) spoken here */
	if (ntohl(bth->qpn) & TRD_BTH_CW) {		/* ConWeave: its header out (conweave.c) */
		if (!trd_cw_strip(skb, &len, &cwm))
			goto bad;
		iph = ip_hdr(skb);
		udp = (const struct udphdr *)(iph + 1);
		bth = (struct trd_bth *)(udp + 1);
		cw = true;
	} else if (bth->opcode == TRD_OP_CW) {
		goto bad;
	}
	ext = trd_op_ext_len(bth->opcode);
	if (len < sizeof(*bth) + ext + ((bth->flags & TRD_BTH_PAD_MASK) >> TRD_BTH_PAD_SHIFT))
		goto bad;
	if (trd_op_is_ud(bth->opcode)) {		/* to a UD or the GSI QP: ud.c */
		skb_trim(skb, TRD_L34_LEN + len);
		trd_ud_rcv(dev, skb, bth);
		return;
	}

	qp = xa_load(&dev->qps, ntohl(bth->qpn) & TRD_QPN_MASK);
	if (!qp || READ_ONCE(qp->dying) || qp->ib.qp_type != IB_QPT_RC ||
	    iph->saddr != READ_ONCE(qp->daddr) || iph->daddr != READ_ONCE(qp->saddr))
		goto bad;

	skb_trim(skb, TRD_L34_LEN + len);		/* drop the ICRC */
	if (bth->opcode == TRD_OP_CNP) {
		trd_cnp_rcv(qp);
		return;
	}
	if (bth->opcode == TRD_OP_CW) {
		if (!READ_ONCE(qp->cw_peer))
			goto bad;	/* not a ConWeave source: nobody asked */
		trd_cw_ctl_rcv(qp, &cwm);
		return;
	}
	if (INET_ECN_is_ce(iph->tos))
		trd_cnp_mark_rcvd(qp);
	if (bth->opcode == TRD_OP_ACK) {
		if (qp->cw && (ntohl(bth->qpn) & TRD_BTH_CW_CAP))
			WRITE_ONCE(qp->cw_peer, true);
		trd_comp_rcv(qp, skb, bth);
	} else if (trd_op_is_read_resp(bth->opcode)) {
		trd_comp_read_rcv(qp, skb, bth);
	} else {
		if (qp->cw_on && (ntohl(bth->qpn) & TRD_BTH_CW_CAP))
			WRITE_ONCE(qp->cw_req, true);
		if (cw && qp->cw_on)
			trd_cw_resp_rcv(qp, skb, bth, &cwm, INET_ECN_is_ce(iph->tos));
		else
			trd_resp_rcv(qp, skb, bth);
	}
	return;
bad:
	trd_count(dev, TRD_CNT_BAD_PKT, 1);
}

static rx_handler_result_t trd_rx_handler(struct sk_buff **pskb)
{
	struct sk_buff *skb = *pskb;
	struct trd_dev *dev = rcu_dereference(skb->dev->rx_handler_data);
	const struct iphdr *iph;
	const struct udphdr *udp;

	if (skb->pkt_type != PACKET_HOST || skb->protocol != htons(ETH_P_IP))
		return RX_HANDLER_PASS;
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return RX_HANDLER_CONSUMED;
	*pskb = skb;
	if (!pskb_may_pull(skb, TRD_L34_LEN))
		return RX_HANDLER_PASS;
	iph = (const struct iphdr *)skb->data;
	udp = (const struct udphdr *)(iph + 1);
	if (iph->version != 4 || iph->ihl != 5 || iph->protocol != IPPROTO_UDP ||
	    ip_is_fragment(iph) || udp->dest != htons(TRD_UDP_DPORT) ||
	    !trd_addr_is_mine(skb->dev, iph->daddr))
		return RX_HANDLER_PASS;

	if (skb_linearize(skb)) {
		kfree_skb(skb);
		return RX_HANDLER_CONSUMED;
	}
	skb_reset_network_header(skb);
	trd_rcv(dev, skb);
	consume_skb(skb);
	return RX_HANDLER_CONSUMED;
}

int trd_net_attach(struct trd_dev *dev)
{
	int err;

	rtnl_lock();
	err = netdev_rx_handler_register(dev->ndev, trd_rx_handler, dev);
	if (!err)
		dev->rx_registered = true;
	rtnl_unlock();
	return err;
}

static void __trd_net_detach(struct trd_dev *dev)
{
	ASSERT_RTNL();
	if (dev->rx_registered) {
		netdev_rx_handler_unregister(dev->ndev);
		dev->rx_registered = false;
	}
}

void trd_net_detach(struct trd_dev *dev)
{
	rtnl_lock();
	__trd_net_detach(dev);
	rtnl_unlock();
}

static int trd_netdev_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct net_device *ndev = netdev_notifier_info_to_dev(ptr);
	struct trd_dev *dev;

	if (rcu_access_pointer(ndev->rx_handler) != trd_rx_handler)
		return NOTIFY_DONE;
	dev = rtnl_dereference(ndev->rx_handler_data);

	switch (event) {
	case NETDEV_UNREGISTER:
		__trd_net_detach(dev);
		ib_unregister_device_queued(&dev->ib);
		break;
	case NETDEV_UP:
		trd_port_event(dev, IB_EVENT_PORT_ACTIVE);
		break;
	case NETDEV_DOWN:
		trd_port_event(dev, IB_EVENT_PORT_ERR);
		break;
	case NETDEV_CHANGE:
		trd_port_event(dev, netif_oper_up(ndev) ? IB_EVENT_PORT_ACTIVE :
				    IB_EVENT_PORT_ERR);
		break;
	}
	return NOTIFY_OK;
}

static struct notifier_block trd_netdev_nb = {
	.notifier_call = trd_netdev_event,
};

int trd_net_init(void)
{
	return register_netdevice_notifier(&trd_netdev_nb);
}

void trd_net_exit(void)
{
	unregister_netdevice_notifier(&trd_netdev_nb);
}
