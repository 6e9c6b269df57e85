// SPDX-License-Identifier: GPL-2.0
/*
 * Tenants (tenant.h): the table, the match when a flow attaches, and the
 * sweep that counts each tenant's congested flows and sets its flows'
 * tenant parameter.  The sweep runs from a delayed work item while there
 * is a tenant; it looks at the flows that have one only.
 *
 * Locking: tonic_tenants_lock (BH) protects the table and the per-tenant
 * figures; the sweep takes a device's id_lock inside it (never the other
 * way round: the match at attach runs before id_lock is taken).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/cgroup.h>
#include <linux/workqueue.h>
#include <linux/jiffies.h>
#include "device.h"
#include "program.h"
#include "tenant.h"

#define TONIC_TENANTS_MAX		64
#define TONIC_TENANT_INTERVAL_MS	10

static unsigned int tenant_hold_ms = 500;
module_param(tenant_hold_ms, uint, 0644);
MODULE_PARM_DESC(tenant_hold_ms,
		 "A flow counts as congested for its tenant for this long after a CNP, in ms (500)");

struct tonic_tenant {
	struct list_head list;
	u32 id;			/* never reused: a deleted tenant's flows match no other */
	struct cgroup *cgrp;	/* referenced; NULL: by uid */
	struct tonic_tenant_info info;
	u32 flows, congested;	/* being counted by the sweep */
};

static LIST_HEAD(tonic_tenants);
static DEFINE_SPINLOCK(tonic_tenants_lock);
static u32 tonic_tenants_n, tonic_tenant_last_id;
static void tonic_tenant_sweep(struct work_struct *work);
static DECLARE_DELAYED_WORK(tonic_tenant_work, tonic_tenant_sweep);

static struct tonic_tenant *tonic_tenant_find(u32 id, const char *name)
{
	struct tonic_tenant *t;

	list_for_each_entry(t, &tonic_tenants, list)
		if (name ? !strcmp(t->info.name, name) : t->id == id)
			return t;
	return NULL;
}

int tonic_tenant_add(const char *name, kuid_t uid, struct cgroup *cgrp, u32 fixed)
{
	struct tonic_tenant *t = kzalloc(sizeof(*t), GFP_KERNEL);
	int err = 0;

	if (!t) {
		if (cgrp)
			cgroup_put(cgrp);
		return -ENOMEM;
	}
	strscpy(t->info.name, name, sizeof(t->info.name));
	t->cgrp = cgrp;
	t->info.by_uid = !cgrp;
	t->info.uid = uid;
	t->info.cgroup_id = cgrp ? cgroup_id(cgrp) : 0;
	t->info.fixed = fixed;
	t->info.value = fixed ?: 1;
	spin_lock_bh(&tonic_tenants_lock);
	if (tonic_tenant_find(0, t->info.name))
		err = -EEXIST;
	else if (tonic_tenants_n >= TONIC_TENANTS_MAX)
		err = -ENOSPC;
	if (!err) {
		t->id = ++tonic_tenant_last_id;
		list_add_tail(&t->list, &tonic_tenants);
		tonic_tenants_n++;
	}
	spin_unlock_bh(&tonic_tenants_lock);
	if (err) {
		if (cgrp)
			cgroup_put(cgrp);
		kfree(t);
		return err;
	}
	schedule_delayed_work(&tonic_tenant_work, 0);
	return 0;
}

int tonic_tenant_del(const char *name)
{
	struct tonic_tenant *t;

	spin_lock_bh(&tonic_tenants_lock);
	t = tonic_tenant_find(0, name);
	if (t) {
		list_del(&t->list);
		tonic_tenants_n--;
	}
	spin_unlock_bh(&tonic_tenants_lock);
	if (!t)
		return -ENOENT;
	if (t->cgrp)
		cgroup_put(t->cgrp);
	kfree(t);
	return 0;
}

int tonic_tenant_get(u32 n, const char *name, struct tonic_tenant_info *ti)
{
	struct tonic_tenant *t;
	int err = -ENOENT;

	spin_lock_bh(&tonic_tenants_lock);
	list_for_each_entry(t, &tonic_tenants, list) {
		if (name ? strcmp(t->info.name, name) : n--)
			continue;
		*ti = t->info;
		err = 0;
		break;
	}
	spin_unlock_bh(&tonic_tenants_lock);
	return err;
}

bool tonic_tenant_name(u32 id, char name[TONIC_TENANT_NAME_MAX])
{
	struct tonic_tenant *t;

	spin_lock_bh(&tonic_tenants_lock);
	t = id ? tonic_tenant_find(id, NULL) : NULL;
	if (t)
		strscpy(name, t->info.name, TONIC_TENANT_NAME_MAX);
	spin_unlock_bh(&tonic_tenants_lock);
	return t;
}

u32 tonic_tenant_match(const struct tonic_flow_info *fi)
{
	struct tonic_tenant *t;
	u32 id = 0;

	spin_lock_bh(&tonic_tenants_lock);
	list_for_each_entry(t, &tonic_tenants, list) {
		if (t->cgrp ? fi->cgroup && cgroup_is_descendant(fi->cgroup, t->cgrp) :
			      uid_eq(fi->uid, t->info.uid)) {
			id = t->id;
			break;
		}
	}
	spin_unlock_bh(&tonic_tenants_lock);
	return id;
}

/*
 * One pass over @dev's flows that have a tenant: count them and those with
 * a recent CNP (@set false), or set their tenant parameter (@set true).
 */
static void tonic_tenant_pass(struct tonic_dev *dev, void *arg)
{
	unsigned long hold = msecs_to_jiffies(READ_ONCE(tenant_hold_ms));
	bool set = *(bool *)arg;
	struct tonic_flow_stats st;
	struct tonic_dev_flow *fl;
	struct tonic_tenant *t;
	u32 flow, idx;

	spin_lock_bh(&tonic_tenants_lock);
	spin_lock(&dev->id_lock);
	for_each_set_bit(flow, dev->ids, dev->max_flows) {
		fl = &dev->flows[flow];
		if (!fl->tenant || !dev->priv[flow])
			continue;
		t = tonic_tenant_find(fl->tenant, NULL);
		if (!t)
			continue;
		if (!set) {
			if (dev->ops->flow_stats && !dev->ops->flow_stats(dev, flow, &st) &&
			    st.cnps != fl->tenant_cnps) {
				fl->tenant_cnps = st.cnps;
				fl->tenant_cnp_at = jiffies;
			}
			t->flows++;
			if (time_before(jiffies, fl->tenant_cnp_at + hold))
				t->congested++;
			continue;
		}
		idx = fl->prog ? fl->prog->tenant_param : 0;
		if (!idx-- || !dev->ops->flow_set_param || fl->param[idx] == t->info.value)
			continue;
		__tonic_dev_flow_set_param(dev, flow, idx, t->info.value);
	}
	spin_unlock(&dev->id_lock);
	spin_unlock_bh(&tonic_tenants_lock);
}

static void tonic_tenant_sweep(struct work_struct *work)
{
	struct tonic_tenant *t;
	bool set = false, more;

	tonic_dev_for_each(tonic_tenant_pass, &set);
	spin_lock_bh(&tonic_tenants_lock);
	list_for_each_entry(t, &tonic_tenants, list) {
		t->info.flows = t->flows;
		t->info.congested = t->congested;
		t->info.value = t->info.fixed ?: max(t->congested, 1u);
		t->flows = 0;
		t->congested = 0;
	}
	more = !list_empty(&tonic_tenants);
	spin_unlock_bh(&tonic_tenants_lock);
	set = true;
	tonic_dev_for_each(tonic_tenant_pass, &set);
	if (more)
		schedule_delayed_work(&tonic_tenant_work,
				      msecs_to_jiffies(TONIC_TENANT_INTERVAL_MS));
}

void tonic_tenant_exit(void)
{
	struct tonic_tenant *t, *n;

	cancel_delayed_work_sync(&tonic_tenant_work);
	list_for_each_entry_safe(t, n, &tonic_tenants, list) {
		list_del(&t->list);
		if (t->cgrp)
			cgroup_put(t->cgrp);
		kfree(t);
	}
	tonic_tenants_n = 0;
}
