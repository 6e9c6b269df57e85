// SPDX-License-Identifier: GPL-2.0
/*
 * Tonic for Linux: programmable transport offload.
 *
 * Module entry point: registers the soft Tonic device (driver/soft), the
 * TCP integration (sock-glue: ULP + congestion control "tonic", the ACK
 * tap) and the debugfs statistics.  Unload is refused by the module
 * reference counts while any socket still uses the ULP or the congestion
 * control (including a namespace default), so no flow is active at exit.
 */
#include <linux/module.h>
#include <linux/init.h>
#include "driver/device.h"
#include "sock-glue/glue.h"

static unsigned int max_flows = TONIC_MAX_FLOWS;
module_param(max_flows, uint, 0444);
MODULE_PARM_DESC(max_flows, "flow table size of the soft device (1..2048)");

static unsigned int cycle_ps = 10000;
module_param(cycle_ps, uint, 0444);
MODULE_PARM_DESC(cycle_ps, "soft device cycle length in picoseconds (10000 = 10 ns)");

char *tonic_default_prog = "newreno";
module_param_named(program, tonic_default_prog, charp, 0644);
MODULE_PARM_DESC(program, "default transport program for new sockets");

unsigned int tonic_default_sub_delay_us = 500;
module_param_named(sub_delay_us, tonic_default_sub_delay_us, uint, 0644);
MODULE_PARM_DESC(sub_delay_us, "default T: microseconds a partial segment may wait while data is in flight");

unsigned int tonic_default_seg;
module_param_named(seg_size, tonic_default_seg, uint, 0644);
MODULE_PARM_DESC(seg_size, "default C in bytes (0 = the connection's MSS; larger uses GSO)");

extern struct workqueue_struct *tonic_flow_wq;
static struct tonic_dev *tonic_soft;

static int __init tonic_init(void)
{
	int err;

	if (!max_flows || max_flows > TONIC_MAX_FLOWS)
		return -EINVAL;
	tonic_flow_wq = alloc_workqueue("tonic_flow", WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	if (!tonic_flow_wq)
		return -ENOMEM;
	err = -ENOMEM;
	tonic_soft = tonic_soft_create(max_flows, cycle_ps);
	if (!tonic_soft)
		goto err_wq;
	tonic_soft->client = &tonic_client;
	err = tonic_dev_register(tonic_soft);
	if (err) {
		tonic_soft->ops->destroy(tonic_soft);
		goto err_wq;
	}
	err = tonic_acktap_register();
	if (err)
		goto err_dev;
	err = tonic_ulp_register();
	if (err)
		goto err_tap;
	tonic_stats_init();
	pr_info("tonic: loaded (soft device, %u flows, program %s)\n", max_flows,
		tonic_default_prog);
	return 0;
err_tap:
	tonic_acktap_unregister();
err_dev:
	tonic_dev_unregister(tonic_soft);
err_wq:
	destroy_workqueue(tonic_flow_wq);
	return err;
}

static void __exit tonic_exit(void)
{
	tonic_stats_exit();
	tonic_ulp_unregister();
	tonic_acktap_unregister();
	/* No socket uses the module any more: flush what the last ones queued. */
	flush_workqueue(tonic_flow_wq);
	rcu_barrier();
	tonic_dev_unregister(tonic_soft);
	destroy_workqueue(tonic_flow_wq);
	pr_info("tonic: unloaded\n");
}

module_init(tonic_init);
module_exit(tonic_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Tonic programmable transport offload");
MODULE_ALIAS_TCP_ULP("tonic");
