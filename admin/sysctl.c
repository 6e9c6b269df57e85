// SPDX-License-Identifier: GPL-2.0
/*
 * net.tonic.* sysctls, one set per network namespace (register_net_sysctl):
 * program (a registered program's name), seg_size, sub_delay_us,
 * auto_offload.  Values go through the same lock as netlink's writes.
 *
 * max_flows, the namespace's flow quota (quota.c), is not a default for
 * new sockets but a limit, and is guarded as one: writing it needs
 * CAP_NET_ADMIN over the namespace (its user namespace), and raising it
 * above the namespace's default share needs CAP_NET_ADMIN in the initial
 * user namespace, so that root in an unprivileged user namespace cannot
 * hand itself the whole table.
 */
#include <linux/sysctl.h>
#include <linux/slab.h>
#include <linux/capability.h>
#include <net/net_namespace.h>
#include <uapi/linux/tonic.h>
#include "tonic.h"
#include "pernet.h"
#include "../driver/quota.h"

struct tonic_sysctl_u32 {
	size_t off;		/* in struct tonic_defaults */
	u32 min, max;
};

static const struct tonic_sysctl_u32 tonic_sc_seg = {
	offsetof(struct tonic_defaults, seg_size), 0, TONIC_SEG_SIZE_MAX };
static const struct tonic_sysctl_u32 tonic_sc_delay = {
	offsetof(struct tonic_defaults, sub_delay_us), 0, TONIC_SUB_DELAY_MAX_US };
static const struct tonic_sysctl_u32 tonic_sc_auto = {
	offsetof(struct tonic_defaults, auto_offload), 0, 1 };

static int tonic_sysctl_prog(struct ctl_table *ctl, int write, void *buffer, size_t *lenp,
			     loff_t *ppos)
{
	struct tonic_net *tn = ctl->data;
	char val[TONIC_PROG_NAME_MAX];
	struct ctl_table tbl = { .data = val, .maxlen = sizeof(val) };
	unsigned int seq;
	int ret;

	do {
		seq = read_seqbegin(&tonic_defaults_lock);
		memcpy(val, tn->d.program, sizeof(val));
	} while (read_seqretry(&tonic_defaults_lock, seq));
	val[sizeof(val) - 1] = 0;
	ret = proc_dostring(&tbl, write, buffer, lenp, ppos);
	if (!write || ret)
		return ret;
	return tonic_defaults_program(tn, val);
}

static int tonic_sysctl_num(struct ctl_table *ctl, int write, void *buffer, size_t *lenp,
			    loff_t *ppos)
{
	const struct tonic_sysctl_u32 *f = ctl->extra1;
	struct tonic_net *tn = ctl->data;
	u32 *field = (u32 *)((char *)&tn->d + f->off);
	unsigned int val, min = f->min, max = f->max;
	struct ctl_table tbl = { .data = &val, .maxlen = sizeof(val),
				 .extra1 = &min, .extra2 = &max };
	int ret;

	val = READ_ONCE(*field);
	ret = proc_douintvec_minmax(&tbl, write, buffer, lenp, ppos);
	if (!write || ret)
		return ret;
	write_seqlock_bh(&tonic_defaults_lock);
	*field = val;
	write_sequnlock_bh(&tonic_defaults_lock);
	return 0;
}

static int tonic_sysctl_max_flows(struct ctl_table *ctl, int write, void *buffer, size_t *lenp,
				  loff_t *ppos)
{
	struct tonic_net *tn = ctl->data;
	struct tonic_netq *q = tonic_netq_get(tn->net);
	unsigned int val, min = 0, max = TONIC_MAX_FLOWS;
	struct ctl_table tbl = { .data = &val, .maxlen = sizeof(val),
				 .extra1 = &min, .extra2 = &max };
	int ret;

	if (!q)
		return -ENOENT;
	val = tonic_netq_max(q);
	ret = proc_douintvec_minmax(&tbl, write, buffer, lenp, ppos);
	if (!write || ret)
		goto out;
	ret = -EPERM;
	if (!ns_capable(tn->net->user_ns, CAP_NET_ADMIN))
		goto out;
	if (val > tonic_netq_share(q) && !capable(CAP_NET_ADMIN))
		goto out;
	tonic_netq_set_max(q, val);
	ret = 0;
out:
	tonic_netq_put(q);
	return ret;
}

static const struct ctl_table tonic_sysctl_tmpl[] = {
	{ .procname = "program", .maxlen = TONIC_PROG_NAME_MAX, .mode = 0644,
	  .proc_handler = tonic_sysctl_prog },
	{ .procname = "seg_size", .maxlen = sizeof(u32), .mode = 0644,
	  .proc_handler = tonic_sysctl_num, .extra1 = (void *)&tonic_sc_seg },
	{ .procname = "sub_delay_us", .maxlen = sizeof(u32), .mode = 0644,
	  .proc_handler = tonic_sysctl_num, .extra1 = (void *)&tonic_sc_delay },
	{ .procname = "auto_offload", .maxlen = sizeof(u32), .mode = 0644,
	  .proc_handler = tonic_sysctl_num, .extra1 = (void *)&tonic_sc_auto },
	{ .procname = "max_flows", .maxlen = sizeof(u32), .mode = 0644,
	  .proc_handler = tonic_sysctl_max_flows },
	{ }
};

int tonic_sysctl_register(struct net *net, struct tonic_net *tn)
{
	struct ctl_table *t;
	size_t i;

	t = kmemdup(tonic_sysctl_tmpl, sizeof(tonic_sysctl_tmpl), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(tonic_sysctl_tmpl) - 1; i++)
		t[i].data = tn;
	tn->sysctl = register_net_sysctl(net, "net/tonic", t);
	if (!tn->sysctl) {
		kfree(t);
		return -ENOMEM;
	}
	tn->sysctl_tbl = t;
	return 0;
}

void tonic_sysctl_unregister(struct tonic_net *tn)
{
	unregister_net_sysctl_table(tn->sysctl);
	kfree(tn->sysctl_tbl);
}
