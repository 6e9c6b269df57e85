// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_rdma: module entry, the "tonic" rdma link type and the list of
 * devices the module owns.
 *
 *	rdma link add tonic0 type tonic netdev eth0
 *
 * See Documentation/rdma.rst.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <rdma/rdma_netlink.h>
#include "tonic_rdma.h"

static int trd_newlink(const char *name, struct net_device *ndev)
{
	return trd_dev_add(name, ndev);
}

static struct rdma_link_ops trd_link_ops = {
	.type = "tonic",
	.newlink = trd_newlink,
};

static int __init trd_init(void)
{
	int err;

	err = trd_net_init();
	if (err)
		return err;
	rdma_link_register(&trd_link_ops);
	pr_info("tonic_rdma: RoCEv2 devices: rdma link add NAME type tonic netdev DEV\n");
	return 0;
}

static void __exit trd_exit(void)
{
	rdma_link_unregister(&trd_link_ops);
	trd_dev_remove_all();
	trd_net_exit();
}

module_init(trd_init);
module_exit(trd_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Tonic for Linux: RoCEv2 RDMA device (rdma-glue)");
MODULE_ALIAS_RDMA_LINK("tonic");
MODULE_VERSION(TONIC_VERSION);
