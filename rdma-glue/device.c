// SPDX-License-Identifier: GPL-2.0
/*
 * The ib_device: attributes, the one RoCEv2 port over the netdev, user
 * contexts, PDs, counters, and adding/removing devices.
 *
 * Userspace reaches it through Debian's unmodified ipathverbs provider:
 * driver id RDMA_DRIVER_QIB with uverbs ABI 1 makes the provider use its
 * *_v1 paths, where every verb (post_send, post_recv, poll_cq and
 * req_notify_cq included) is a command to the kernel; no mmap'ed queues.
 */
#include <linux/etherdevice.h>
#include <linux/mutex.h>
#include <linux/rtnetlink.h>
#include <net/addrconf.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_mad.h>
#include "tonic_rdma.h"

static LIST_HEAD(trd_devs);
static DEFINE_MUTEX(trd_devs_lock);

/* Headers a packet of one path-MTU payload carries: IPv4, UDP, BTH, RETH, ICRC. */
#define TRD_WIRE_OVERHEAD	(20 + 8 + 12 + 16 + 4)

enum ib_mtu trd_active_mtu(struct trd_dev *dev)
{
	int mtu = READ_ONCE(dev->ndev->mtu) - TRD_WIRE_OVERHEAD;

	if (mtu < 256)
		return IB_MTU_256;
	return min(ib_mtu_int_to_enum(mtu), IB_MTU_4096);
}

static int trd_query_device(struct ib_device *ib, struct ib_device_attr *attr,
			    struct ib_udata *udata)
{
	struct trd_dev *dev = to_tdev(ib);

	if (udata->inlen || udata->outlen)
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	addrconf_addr_eui48((unsigned char *)&attr->sys_image_guid, dev->ndev->dev_addr);
	attr->max_mr_size = ~0ull;
	attr->page_size_cap = PAGE_SIZE;
	attr->vendor_id = 0xffffff;
	attr->max_qp = TRD_MAX_QP;
	attr->max_qp_wr = TRD_MAX_QP_WR;
	attr->device_cap_flags = IB_DEVICE_RC_RNR_NAK_GEN | IB_DEVICE_SYS_IMAGE_GUID;
	attr->kernel_cap_flags = IBK_ALLOW_USER_UNREG;
	attr->max_send_sge = TRD_MAX_SGE;
	attr->max_recv_sge = TRD_MAX_SGE;
	attr->max_cq = TRD_MAX_QP * 2;
	attr->max_cqe = TRD_MAX_CQE;
	attr->max_mr = TRD_MAX_MR;
	attr->max_pd = TRD_MAX_PD;
	attr->max_pkeys = 1;
	attr->max_qp_rd_atom = TRD_MAX_RD_ATOM;
	attr->max_qp_init_rd_atom = TRD_MAX_INIT_RD_ATOM;
	attr->max_res_rd_atom = TRD_MAX_QP * TRD_MAX_RD_ATOM;
	attr->local_ca_ack_delay = 15;
	return 0;
}

static int trd_query_port(struct ib_device *ib, u32 port, struct ib_port_attr *attr)
{
	struct trd_dev *dev = to_tdev(ib);
	bool up = netif_running(dev->ndev) && netif_oper_up(dev->ndev);

	/* The core zeroed @attr. */
	attr->state = up ? IB_PORT_ACTIVE : IB_PORT_DOWN;
	attr->phys_state = up ? IB_PORT_PHYS_STATE_LINK_UP : IB_PORT_PHYS_STATE_DISABLED;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = trd_active_mtu(dev);
	attr->gid_tbl_len = 1024;
	attr->port_cap_flags = IB_PORT_CM_SUP;
	attr->max_msg_sz = TRD_MAX_MSG;
	attr->pkey_tbl_len = 1;
	attr->max_vl_num = 1;
	return ib_get_eth_speed(ib, port, &attr->active_speed, &attr->active_width);
}

static int trd_get_port_immutable(struct ib_device *ib, u32 port,
				  struct ib_port_immutable *imm)
{
	struct ib_port_attr attr;
	int err;

	imm->core_cap_flags = RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP;
	err = ib_query_port(ib, port, &attr);
	if (err)
		return err;
	imm->pkey_tbl_len = attr.pkey_tbl_len;
	imm->gid_tbl_len = attr.gid_tbl_len;
	imm->max_mad_size = IB_MGMT_MAD_SIZE;
	return 0;
}

static enum rdma_link_layer trd_get_link_layer(struct ib_device *ib, u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

static int trd_query_pkey(struct ib_device *ib, u32 port, u16 index, u16 *pkey)
{
	if (index)
		return -EINVAL;
	*pkey = TRD_PKEY_DEFAULT;
	return 0;
}

static int trd_alloc_ucontext(struct ib_ucontext *uctx, struct ib_udata *udata)
{
	return 0;
}

static void trd_dealloc_ucontext(struct ib_ucontext *uctx)
{
}

static int trd_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	struct trd_dev *dev = to_tdev(pd->device);

	if (atomic_inc_return(&dev->npd) > TRD_MAX_PD) {
		atomic_dec(&dev->npd);
		return -ENOMEM;
	}
	return 0;
}

static int trd_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	atomic_dec(&to_tdev(pd->device)->npd);
	return 0;
}

/* rdma statistic show link NAME/1 */
#define TRD_STAT_DESC(id, n, doc)	[TRD_CNT_##id].name = #n,
static const struct rdma_stat_desc trd_stat_descs[TRD_CNT_MAX] = {
	TRD_COUNTERS(TRD_STAT_DESC)
};
#undef TRD_STAT_DESC

static struct rdma_hw_stats *trd_alloc_hw_port_stats(struct ib_device *ib, u32 port)
{
	return rdma_alloc_hw_stats_struct(trd_stat_descs, TRD_CNT_MAX,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static struct rdma_hw_stats *trd_counter_alloc_stats(struct rdma_counter *counter)
{
	return rdma_alloc_hw_stats_struct(trd_stat_descs, TRD_CNT_MAX,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

static int trd_get_hw_stats(struct ib_device *ib, struct rdma_hw_stats *stats, u32 port,
			    int index)
{
	struct trd_dev *dev = to_tdev(ib);
	int i;

	for (i = 0; i < TRD_CNT_MAX; i++)
		stats->value[i] = atomic64_read(&dev->cnt[i]);
	return TRD_CNT_MAX;
}

/* Last op the core calls on a device: after unregistration or a failed registration. */
static void trd_dealloc_driver(struct ib_device *ib)
{
	struct trd_dev *dev = to_tdev(ib);

	trd_net_detach(dev);
	mutex_lock(&trd_devs_lock);
	list_del_init(&dev->node);
	mutex_unlock(&trd_devs_lock);
	WARN_ON(!xa_empty(&dev->qps));
	WARN_ON(!xa_empty(&dev->mrs));
	trd_ud_dev_cleanup(dev);
	xa_destroy(&dev->qps);
	xa_destroy(&dev->mrs);
	WARN_ON(!xa_empty(&dev->counters));
	xa_destroy(&dev->counters);
}

const struct ib_device_ops trd_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_QIB,
	.uverbs_abi_ver = 1,

	.alloc_hw_port_stats = trd_alloc_hw_port_stats,
	.counter_alloc_stats = trd_counter_alloc_stats,
	.counter_bind_qp = trd_counter_bind_qp,
	.counter_dealloc = trd_counter_dealloc,
	.counter_unbind_qp = trd_counter_unbind_qp,
	.counter_update_stats = trd_counter_update_stats,
	.alloc_pd = trd_alloc_pd,
	.alloc_ucontext = trd_alloc_ucontext,
	.create_ah = trd_create_ah,
	.create_cq = trd_create_cq,
	.create_qp = trd_create_qp,
	.create_user_ah = trd_create_ah,
	.dealloc_driver = trd_dealloc_driver,
	.dealloc_pd = trd_dealloc_pd,
	.dealloc_ucontext = trd_dealloc_ucontext,
	.dereg_mr = trd_dereg_mr,
	.destroy_ah = trd_destroy_ah,
	.destroy_cq = trd_destroy_cq,
	.destroy_qp = trd_destroy_qp,
	.get_dma_mr = trd_get_dma_mr,
	.get_hw_stats = trd_get_hw_stats,
	.get_link_layer = trd_get_link_layer,
	.get_port_immutable = trd_get_port_immutable,
	.modify_qp = trd_modify_qp,
	.poll_cq = trd_poll_cq,
	.post_recv = trd_post_recv,
	.post_send = trd_post_send,
	.query_device = trd_query_device,
	.query_pkey = trd_query_pkey,
	.query_port = trd_query_port,
	.query_qp = trd_query_qp,
	.reg_user_mr = trd_reg_user_mr,
	.req_notify_cq = trd_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_ah, trd_ah, ib),
	INIT_RDMA_OBJ_SIZE(ib_cq, trd_cq, ib),
	INIT_RDMA_OBJ_SIZE(ib_pd, trd_pd, ib),
	INIT_RDMA_OBJ_SIZE(ib_qp, trd_qp, ib),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, trd_ucontext, ib),
};

void trd_port_event(struct trd_dev *dev, enum ib_event_type type)
{
	struct ib_event ev = {
		.device = &dev->ib,
		.element.port_num = 1,
		.event = type,
	};

	ib_dispatch_event(&ev);
}

int trd_dev_add(const char *name, struct net_device *ndev)
{
	struct ib_device *other;
	struct trd_dev *dev;
	int err;

	if (ndev->type != ARPHRD_ETHER)
		return -EINVAL;
	other = ib_device_get_by_netdev(ndev, RDMA_DRIVER_UNKNOWN);
	if (other) {
		ib_device_put(other);
		return -EEXIST;
	}

	dev = ib_alloc_device(trd_dev, ib);
	if (!dev)
		return -ENOMEM;
	INIT_LIST_HEAD(&dev->node);
	xa_init_flags(&dev->qps, XA_FLAGS_ALLOC);
	xa_init_flags(&dev->mrs, XA_FLAGS_ALLOC1);
	xa_init_flags(&dev->counters, XA_FLAGS_ALLOC1);
	trd_ud_dev_init(dev);
	dev->ndev = ndev;

	strscpy(dev->ib.node_desc, "tonic", sizeof(dev->ib.node_desc));
	dev->ib.node_type = RDMA_NODE_IB_CA;
	dev->ib.phys_port_cnt = 1;
	dev->ib.num_comp_vectors = 1;
	dev->ib.local_dma_lkey = 0;
	addrconf_addr_eui48((unsigned char *)&dev->ib.node_guid, ndev->dev_addr);
	dev->ib.uverbs_cmd_mask |= BIT_ULL(IB_USER_VERBS_CMD_POST_SEND) |
				   BIT_ULL(IB_USER_VERBS_CMD_POST_RECV) |
				   BIT_ULL(IB_USER_VERBS_CMD_POLL_CQ) |
				   BIT_ULL(IB_USER_VERBS_CMD_REQ_NOTIFY_CQ);
	ib_set_device_ops(&dev->ib, &trd_dev_ops);

	err = ib_device_set_netdev(&dev->ib, ndev, 1);
	if (err)
		goto err_dealloc;
	err = trd_net_attach(dev);
	if (err)
		goto err_dealloc;
	mutex_lock(&trd_devs_lock);
	list_add_tail(&dev->node, &trd_devs);
	mutex_unlock(&trd_devs_lock);

	/* On success the device may be unregistered (and freed) at once. */
	err = ib_register_device(&dev->ib, name, NULL);
	if (err)
		goto err_dealloc;
	return 0;

err_dealloc:
	ib_dealloc_device(&dev->ib);	/* calls trd_dealloc_driver */
	return err;
}

/* Module exit: unregister every device still there (rdma link add'ed). */
void trd_dev_remove_all(void)
{
	struct trd_dev *dev;

	for (;;) {
		mutex_lock(&trd_devs_lock);
		dev = list_first_entry_or_null(&trd_devs, struct trd_dev, node);
		if (dev) {
			list_del_init(&dev->node);
			get_device(&dev->ib.dev);
		}
		mutex_unlock(&trd_devs_lock);
		if (!dev)
			break;
		ib_unregister_device(&dev->ib);
		put_device(&dev->ib.dev);
	}
}
