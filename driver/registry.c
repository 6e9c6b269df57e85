// SPDX-License-Identifier: GPL-2.0
/*
 * The host's transport programs: tonic-core's built-ins and those other
 * modules register, found by name, as tcp_cong.c does for congestion
 * control.  Whoever keeps a program for later (an attached flow, a socket
 * that chose one) holds a reference on the module that provides it, so a
 * program module cannot go while it is in use: rmmod says it is busy.
 * Lookups run under RCU and unregistering waits for a grace period, so a
 * reader that only prints a name (ss, debugfs, a netlink dump) needs no
 * reference, only rcu_read_lock() or BH off.
 */
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include "registry.h"

/* Plenty: the built-ins are 10; a slot freed by an unregister is reused. */
#define TONIC_PROGS_MAX		32

static const struct tonic_prog_ops __rcu *tonic_progs[TONIC_PROGS_MAX];
static DEFINE_MUTEX(tonic_progs_lock);

/* Under RCU or tonic_progs_lock. */
static const struct tonic_prog_ops *tonic_program_find(const char *name)
{
	const struct tonic_prog_ops *p;
	u32 i;

	for (i = 0; i < TONIC_PROGS_MAX; i++) {
		p = rcu_dereference_check(tonic_progs[i], lockdep_is_held(&tonic_progs_lock));
		if (p && !strcmp(p->name, name))
			return p;
	}
	return NULL;
}

/* What the engine and the admin interfaces assume of every program. */
static int tonic_program_check(const struct tonic_prog_ops *p)
{
	static const u16 budget[] = {
		[TONIC_CREDIT_CWND] = TONIC_USER_MAX_CWND,
		[TONIC_CREDIT_RATE] = TONIC_USER_MAX_RATE,
		[TONIC_CREDIT_GRANT] = TONIC_USER_MAX_GRANT,
	};
	size_t len = p->name ? strnlen(p->name, TONIC_PROG_NAME_MAX) : 0;
	u32 i;

	if (!len || len >= TONIC_PROG_NAME_MAX)
		return -EINVAL;
	if (p->credit >= ARRAY_SIZE(budget) || p->user_size > budget[p->credit])
		return -EINVAL;
	if (p->prio != TONIC_PRIO_INCOMING && p->prio != TONIC_PRIO_PERIODIC)
		return -EINVAL;
	if (!p->incoming || !p->periodic)
		return -EINVAL;
	if (p->tenant_param > TONIC_PROG_PARAMS)
		return -EINVAL;
	/* get_info() fills one value per name, each name short enough to show. */
	if (!p->get_info != !p->info_names)
		return -EINVAL;
	for (i = 0; p->info_names && p->info_names[i]; i++)
		if (i >= TONIC_PROG_INFO || !*p->info_names[i] ||
		    strnlen(p->info_names[i], TONIC_PROG_NAME_MAX) >= TONIC_PROG_NAME_MAX)
			return -EINVAL;
	return 0;
}

int tonic_register_program(const struct tonic_prog_ops *p)
{
	int err, i, free = -1;

	err = tonic_program_check(p);
	if (err) {
		pr_notice("tonic: program %.16s does not follow program.h's rules\n",
			  p->name ?: "");
		return err;
	}
	mutex_lock(&tonic_progs_lock);
	if (tonic_program_find(p->name)) {
		/* As tcp_cong.c: modprobe takes EEXIST for "already loaded". */
		pr_notice("tonic: program %s already registered\n", p->name);
		err = -EEXIST;
		goto out;
	}
	for (i = 0; i < TONIC_PROGS_MAX && free < 0; i++)
		if (!rcu_access_pointer(tonic_progs[i]))
			free = i;
	if (free < 0) {
		err = -ENOSPC;
		goto out;
	}
	rcu_assign_pointer(tonic_progs[free], p);
	pr_debug("tonic: program %s registered\n", p->name);
out:
	mutex_unlock(&tonic_progs_lock);
	return err;
}
EXPORT_SYMBOL_GPL(tonic_register_program);

/*
 * From the providing module's exit: nobody holds a reference any more
 * (try_module_get fails from then on), and after the grace period nobody
 * reads @p either.
 */
void tonic_unregister_program(const struct tonic_prog_ops *p)
{
	u32 i;

	mutex_lock(&tonic_progs_lock);
	for (i = 0; i < TONIC_PROGS_MAX; i++)
		if (rcu_access_pointer(tonic_progs[i]) == p)
			RCU_INIT_POINTER(tonic_progs[i], NULL);
	mutex_unlock(&tonic_progs_lock);
	synchronize_rcu();
}
EXPORT_SYMBOL_GPL(tonic_unregister_program);

const struct tonic_prog_ops *tonic_program_get(const char *name)
{
	const struct tonic_prog_ops *p;

	rcu_read_lock();
	p = tonic_program_find(name);
	if (p && !try_module_get(p->owner))
		p = NULL;
	rcu_read_unlock();
	return p;
}
EXPORT_SYMBOL_GPL(tonic_program_get);

/* Another reference for a holder of one. */
void tonic_program_hold(const struct tonic_prog_ops *p)
{
	__module_get(p->owner);
}

void tonic_program_put(const struct tonic_prog_ops *p)
{
	if (p)
		module_put(p->owner);
}
EXPORT_SYMBOL_GPL(tonic_program_put);

bool tonic_program_exists(const char *name)
{
	bool found;

	rcu_read_lock();
	found = tonic_program_find(name);
	rcu_read_unlock();
	return found;
}
EXPORT_SYMBOL_GPL(tonic_program_exists);

bool tonic_program_name(u32 idx, char name[TONIC_PROG_NAME_MAX])
{
	const struct tonic_prog_ops *p;
	u32 i;

	rcu_read_lock();
	for (i = 0; i < TONIC_PROGS_MAX; i++) {
		p = rcu_dereference(tonic_progs[i]);
		if (p && !idx--) {
			strscpy(name, p->name, TONIC_PROG_NAME_MAX);
			break;
		}
	}
	rcu_read_unlock();
	return i < TONIC_PROGS_MAX;
}

/* The rest of program.h's API, for programs in other modules. */
EXPORT_SYMBOL_GPL(tonic_bm_test);
EXPORT_SYMBOL_GPL(tonic_bm_ffs);
EXPORT_SYMBOL_GPL(tonic_bm_ffz);
EXPORT_SYMBOL_GPL(tonic_bm_count);

int tonic_programs_init(void)
{
	const struct tonic_prog_ops *const *list;
	u32 i, n;
	int err;

	list = tonic_prog_list(&n);
	for (i = 0; i < n; i++) {
		err = tonic_register_program(list[i]);
		if (err) {
			pr_err("tonic: built-in program %s: %d\n", list[i]->name, err);
			return err;
		}
	}
	return 0;
}
