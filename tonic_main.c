// SPDX-License-Identifier: GPL-2.0
/*
 * Tonic for Linux: programmable transport offload.
 *
 * Module entry point; the device layer (driver/) and the TCP integration
 * (sock-glue/) register from here as they land.
 */
#include <linux/module.h>
#include <linux/init.h>

static int __init tonic_init(void)
{
	pr_info("tonic: loaded\n");
	return 0;
}

static void __exit tonic_exit(void)
{
	pr_info("tonic: unloaded\n");
}

module_init(tonic_init);
module_exit(tonic_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Tonic programmable transport offload");
