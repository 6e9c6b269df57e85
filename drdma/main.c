// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_drdma.ko: Dynamic RDMA (seed 003) over its own Ethertype, and
 * /dev/tonic-drdma, through which a process runs transfers or lends its
 * memory (Documentation/drdma.rst).
 */
#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/netdevice.h>
#include <linux/etherdevice.h>
#include <linux/nsproxy.h>
#include <linux/fs.h>
#include <net/net_namespace.h>
#include "drdma.h"

unsigned int drx_req_timeout_ms = 20;
module_param_named(req_timeout_ms, drx_req_timeout_ms, uint, 0644);
MODULE_PARM_DESC(req_timeout_ms, "request and release retry timer (ms)");
unsigned int drx_rto_ms = 20;
module_param_named(rto_ms, drx_rto_ms, uint, 0644);
MODULE_PARM_DESC(rto_ms, "data retransmission timer (ms)");
unsigned int drx_req_tries = 10;
module_param_named(tries, drx_req_tries, uint, 0644);
MODULE_PARM_DESC(tries, "timeouts in a row without progress before a transfer fails");
unsigned int drx_idle_ms = 3000;
module_param_named(idle_ms, drx_idle_ms, uint, 0644);
MODULE_PARM_DESC(idle_ms, "a responder's transfer silent this long is freed (ms)");
unsigned int drx_linger_ms = 1000;
module_param_named(linger_ms, drx_linger_ms, uint, 0644);
MODULE_PARM_DESC(linger_ms, "a released transfer is remembered this long, to drop replays (ms)");
unsigned int drx_indirect_kb = 1024;
module_param_named(indirect_kb, drx_indirect_kb, uint, 0644);
MODULE_PARM_DESC(indirect_kb, "the indirect buffer, shared by all transfers (KiB of frames)");
unsigned int drx_max_responders = 1024;
module_param_named(max_responders, drx_max_responders, uint, 0644);
MODULE_PARM_DESC(max_responders, "transfers a host responds to at once (the rest: dropped)");

atomic64_t drx_stats[TDRDMA_S_MAX];

static int drx_rcv(struct sk_buff *skb, struct net_device *dev, struct packet_type *pt,
		   struct net_device *orig_dev)
{
	const struct tdrdma_hdr *h;
	struct sk_buff_head q;
	bool kept = false;
	u8 peer[ETH_ALEN];
	struct drx *x;
	u8 c;

	if (eth_hdr(skb)->h_proto != htons(TDRDMA_ETH_P)) {
		kfree_skb(skb);
		return NET_RX_DROP;
	}
	skb = skb_share_check(skb, GFP_ATOMIC);
	if (!skb)
		return NET_RX_DROP;
	if (skb->pkt_type == PACKET_OTHERHOST)
		goto drop;
	drx_count(TDRDMA_S_FRAMES_RX, 1);
	h = drx_parse(skb);
	ether_addr_copy(peer, eth_hdr(skb)->h_source);
	if (!h || !is_valid_ether_addr(peer)) {
		drx_count(TDRDMA_S_RX_MALFORMED, 1);
		goto drop;
	}
	c = h->ctrl;
	__skb_queue_head_init(&q);
	spin_lock_bh(&drx_lock);
	/* The initiator's: answers, ACKs of its write data, read data. */
	if ((c & (TDRDMA_F_REQ_ACK | TDRDMA_F_REL_ACK)) ||
	    ((c & TDRDMA_F_DATA) && !(c & TDRDMA_F_READ) == !h->len)) {
		x = drx_find(dev, peer, ntohs(h->tid), true);
		if (x && x->read == !!(c & TDRDMA_F_READ))
			kept = drx_init_rcv(x, h, skb, &q);
		else
			drx_count(TDRDMA_S_RX_UNKNOWN, 1);
	} else {
		kept = drx_resp_rcv(dev, peer, h, skb, &q);
	}
	spin_unlock_bh(&drx_lock);
	drx_flush(&q);
	if (!kept)
		consume_skb(skb);
	return NET_RX_SUCCESS;
drop:
	kfree_skb(skb);
	return NET_RX_DROP;
}

/*
 * The seed's type, 0x01FF, is below 0x0600: to IEEE 802.3 (and Linux's
 * eth_type_trans) a length, so its frames arrive as 802.2 (LLC) frames,
 * whatever other LLC handler (llc.ko) also gets a reference of.
 */
static struct packet_type drx_packet_type __read_mostly = {
	.type = cpu_to_be16(ETH_P_802_2),
	.func = drx_rcv,
};

static int drx_netdev_event(struct notifier_block *nb, unsigned long event, void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);

	if (event == NETDEV_UNREGISTER) {
		drx_lender_dev_gone(dev);
		drx_fail_dev(dev);
	}
	return NOTIFY_DONE;
}

static struct notifier_block drx_netdev_nb = {
	.notifier_call = drx_netdev_event,
};

/* Sending raw frames on a netdev of the caller's namespace: CAP_NET_RAW there. */
static struct net *drx_net(void)
{
	struct net *net = current->nsproxy->net_ns;

	return ns_capable(net->user_ns, CAP_NET_RAW) ? net : NULL;
}

static long drx_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	void __user *u = (void __user *)arg;
	struct drx_lender *l = READ_ONCE(f->private_data);
	union {
		struct tdrdma_xfer x;
		struct tdrdma_lend lend;
		struct tdrdma_request r;
		struct tdrdma_register reg;
	} a;
	struct net *net;
	int err, i;

	switch (cmd) {
	case TDRDMA_IOC_XFER:
		net = drx_net();
		if (!net)
			return -EPERM;
		if (copy_from_user(&a.x, u, sizeof(a.x)))
			return -EFAULT;
		err = drx_initiate(net, &a.x);
		if (copy_to_user(u, &a.x, sizeof(a.x)))
			return -EFAULT;
		return err;
	case TDRDMA_IOC_LEND:
		net = drx_net();
		if (!net)
			return -EPERM;
		if (l)
			return -EBUSY;
		if (copy_from_user(&a.lend, u, sizeof(a.lend)))
			return -EFAULT;
		err = drx_lend(net, &l, &a.lend);
		if (err)
			return err;
		if (cmpxchg(&f->private_data, NULL, l)) {
			drx_unlend(l);
			return -EBUSY;
		}
		return 0;
	case TDRDMA_IOC_NEXT:
		if (!l)
			return -EINVAL;
		if (copy_from_user(&a.r, u, sizeof(a.r)))
			return -EFAULT;
		err = drx_next(l, &a.r);
		if (!err && copy_to_user(u, &a.r, sizeof(a.r)))
			return -EFAULT;
		return err;
	case TDRDMA_IOC_REGISTER:
		if (!l)
			return -EINVAL;
		if (copy_from_user(&a.reg, u, sizeof(a.reg)))
			return -EFAULT;
		return drx_register(l, &a.reg);
	case TDRDMA_IOC_STATS: {
		struct tdrdma_stats s;

		for (i = 0; i < TDRDMA_S_MAX; i++)
			s.v[i] = atomic64_read(&drx_stats[i]);
		return copy_to_user(u, &s, sizeof(s)) ? -EFAULT : 0;
	}
	}
	return -ENOTTY;
}

/* misc_open leaves the miscdevice in private_data: ours is the lender. */
static int drx_open(struct inode *inode, struct file *f)
{
	f->private_data = NULL;
	return 0;
}

static int drx_release_file(struct inode *inode, struct file *f)
{
	if (f->private_data)
		drx_unlend(f->private_data);
	return 0;
}

static const struct file_operations drx_fops = {
	.owner = THIS_MODULE,
	.open = drx_open,
	.unlocked_ioctl = drx_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.release = drx_release_file,
	.llseek = noop_llseek,
};

static struct miscdevice drx_misc = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "tonic-drdma",
	.fops = &drx_fops,
	.mode = 0666,
};

static int __init drx_init(void)
{
	int err;

	err = register_netdevice_notifier(&drx_netdev_nb);
	if (err)
		return err;
	err = misc_register(&drx_misc);
	if (err) {
		unregister_netdevice_notifier(&drx_netdev_nb);
		return err;
	}
	dev_add_pack(&drx_packet_type);
	return 0;
}

static void __exit drx_exit(void)
{
	dev_remove_pack(&drx_packet_type);
	misc_deregister(&drx_misc);
	unregister_netdevice_notifier(&drx_netdev_nb);
	drx_exit_all();
}

module_init(drx_init);
module_exit(drx_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Dynamic RDMA (direct/indirect transfers) over Ethernet, from Tonic");
MODULE_VERSION(TONIC_VERSION);
