// SPDX-License-Identifier: GPL-2.0
/*
 * Loaded only by the harness's self-test: a guest log with a WARNING must
 * fail `make check` even when every test reports ok.
 */
#include <linux/module.h>
#include <linux/bug.h>

static int __init tonic_test_warn_init(void)
{
	WARN_ON(1);
	return 0;
}

static void __exit tonic_test_warn_exit(void)
{
}

module_init(tonic_test_warn_init);
module_exit(tonic_test_warn_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Tonic harness self-test: deliberate WARN_ON");
