// SPDX-License-Identifier: GPL-2.0
/*
 * Tonic for Linux: programmable transport offload.
 *
 * Module entry point: the per-netns flow quotas and defaults (net.tonic.*),
 * the Tonic devices (a bound PCIe Tonic first, then the soft device), the TCP
 * integration (sock-glue: ULP + congestion control "tonic", the ACK tap,
 * the admin hooks, debugfs statistics) and last the netlink family.
 * Unload is refused by the module reference counts while any socket still
 * uses the ULP or the congestion control (including a namespace default),
 * so no flow is active at exit.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/genetlink.h>
#include <net/tcp.h>
#include "driver/device.h"
#include "driver/pci/tonic_pci.h"
#include "admin/admin.h"
#include "driver/registry.h"
#include "driver/quota.h"
#include "driver/tenant.h"
#include "admin/netlink/nl.h"
#include "sock-glue/glue.h"

static unsigned int max_flows = TONIC_MAX_FLOWS;
module_param(max_flows, uint, 0444);
MODULE_PARM_DESC(max_flows, "flow table size of the soft device (1..2048)");

static unsigned int cycle_ps = 10000;
module_param(cycle_ps, uint, 0444);
MODULE_PARM_DESC(cycle_ps, "soft device cycle length in picoseconds (10000 = 10 ns)");

static unsigned int engines;
module_param(engines, uint, 0444);
MODULE_PARM_DESC(engines, "engine instances of the soft device, each with its own lock (0 = one per CPU)");

static struct tonic_dev *tonic_soft;

static int __init tonic_init(void)
{
	int err;

	if (!max_flows || max_flows > TONIC_MAX_FLOWS)
		return -EINVAL;
	err = tonic_programs_init();
	if (err)
		return err;
	err = tonic_glue_init();
	if (err)
		return err;
	/* Per-netns flow quotas, defaults and net.tonic.* sysctls. */
	err = tonic_quota_init();
	if (err)
		goto err_glue;
	err = tonic_defaults_init();
	if (err)
		goto err_quota;
	/* A bound PCIe Tonic registers first: it is the default device. */
	err = tonic_pci_init(&tonic_client);
	if (err)
		goto err_defaults;
	err = -ENOMEM;
	tonic_soft = tonic_soft_create(max_flows, cycle_ps, engines);
	if (!tonic_soft)
		goto err_pci;
	tonic_soft->client = &tonic_client;
	err = tonic_dev_register(tonic_soft);
	if (err) {
		tonic_soft->ops->destroy(tonic_soft);
		goto err_pci;
	}
	/* The TCP integration: ACK tap, ULP and congestion control, admin hooks. */
	err = tonic_glue_register();
	if (err)
		goto err_soft;
	/* Last: the admin interface sees every device from its first request. */
	err = tonic_nl_init();
	if (err)
		goto err_reg;
	pr_info("tonic: loaded (soft device, %u flows)\n", max_flows);
	return 0;
err_reg:
	tonic_glue_unregister();
err_soft:
	tonic_dev_unregister(tonic_soft);
err_pci:
	tonic_pci_exit();
err_defaults:
	tonic_defaults_exit();
err_quota:
	tonic_quota_exit();
err_glue:
	tonic_glue_exit();
	return err;
}

static void __exit tonic_exit(void)
{
	tonic_nl_exit();
	tonic_tenant_exit();
	/* No socket uses the module any more (module references): no flow is attached. */
	tonic_glue_unregister();
	tonic_pci_exit();
	tonic_dev_unregister(tonic_soft);
	tonic_defaults_exit();
	tonic_quota_exit();
	tonic_glue_exit();
	pr_info("tonic: unloaded\n");
}

module_init(tonic_init);
module_exit(tonic_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Tonic programmable transport offload");
MODULE_VERSION(TONIC_VERSION);
/*
 * Autoloading: the kernel asks modprobe for "tcp-ulp-tonic" on
 * setsockopt(TCP_ULP, "tonic"), for "tcp_tonic" when the congestion
 * control "tonic" is set (tcp_ca_find_autoload()), and for
 * "net-pf-16-proto-16-family-tonic" when a program resolves the generic
 * netlink family (tonic(8)).  All three need CAP_NET_ADMIN except the last.
 */
MODULE_ALIAS_TCP_ULP(TONIC_ULP_NAME);
MODULE_ALIAS("tcp_" TONIC_CA_NAME);
MODULE_ALIAS_GENL_FAMILY(TONIC_GENL_NAME);
