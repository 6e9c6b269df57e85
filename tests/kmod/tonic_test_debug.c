// SPDX-License-Identifier: GPL-2.0
/*
 * Loaded only by the harness's self-test on the debug kernel (make
 * check-debug, tests/qemu/selftest-debug.sh): each bug=... is a deliberate
 * bug that one of the debug kernel's checks must report, and the host-side
 * verdict of run.sh must then fail the run.
 *
 *   bug=sleep    might sleep under a spinlock (DEBUG_ATOMIC_SLEEP: "BUG:
 *                sleeping function called from invalid context"); it does
 *                not actually sleep, so nothing else breaks
 *   bug=lockdep  takes two mutexes in both orders, one after the other
 *                (PROVE_LOCKING: "possible circular locking dependency")
 *   bug=kasan    reads one byte past a kmalloc'ed buffer (KASAN:
 *                "BUG: KASAN: slab-out-of-bounds")
 *
 * Never load it on a production kernel: the bugs are real.
 */
#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>

static char *bug = "";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "sleep | lockdep | kasan");

static DEFINE_SPINLOCK(tonic_test_lock);
static DEFINE_MUTEX(tonic_test_a);
static DEFINE_MUTEX(tonic_test_b);

static int __init tonic_test_debug_init(void)
{
	if (!strcmp(bug, "sleep")) {
		spin_lock(&tonic_test_lock);
		might_sleep();
		spin_unlock(&tonic_test_lock);
	} else if (!strcmp(bug, "lockdep")) {
		mutex_lock(&tonic_test_a);
		mutex_lock(&tonic_test_b);
		mutex_unlock(&tonic_test_b);
		mutex_unlock(&tonic_test_a);
		mutex_lock(&tonic_test_b);
		mutex_lock(&tonic_test_a);
		mutex_unlock(&tonic_test_a);
		mutex_unlock(&tonic_test_b);
	} else if (!strcmp(bug, "kasan")) {
		size_t n = 24;
		char *p;

		OPTIMIZER_HIDE_VAR(n);
		p = kmalloc(n, GFP_KERNEL);
		if (!p)
			return -ENOMEM;
		OPTIMIZER_HIDE_VAR(p);
		pr_info("tonic_test_debug: read past the end: %d\n", READ_ONCE(p[n]));
		kfree(p);
	} else {
		return -EINVAL;
	}
	return 0;
}

static void __exit tonic_test_debug_exit(void)
{
}

module_init(tonic_test_debug_init);
module_exit(tonic_test_debug_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Tonic harness self-test on the debug kernel: deliberate bugs");
