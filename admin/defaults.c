// SPDX-License-Identifier: GPL-2.0
/*
 * Defaults per network namespace for sockets the TCP integration offloads:
 * program, C, T, auto-offload.  Set through net.tonic.* sysctls or netlink
 * (TONIC_CMD_DEFAULTS_SET); read by sock-glue with tonic_defaults_get().
 * A new namespace starts from init_net's defaults of the moment, as
 * net.ipv4.tcp_congestion_control does.
 */
#include <linux/module.h>
#include <linux/string.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include "tonic.h"
#include "pernet.h"
#include "../driver/registry.h"

DEFINE_SEQLOCK(tonic_defaults_lock);
static unsigned int tonic_net_id __read_mostly;

struct tonic_net *tonic_net(const struct net *net)
{
	return net_generic(net, tonic_net_id);
}

void tonic_defaults_get(const struct net *net, struct tonic_defaults *d)
{
	const struct tonic_net *tn = tonic_net(net);
	unsigned int seq;

	do {
		seq = read_seqbegin(&tonic_defaults_lock);
		*d = tn->d;
	} while (read_seqretry(&tonic_defaults_lock, seq));
	d->program[sizeof(d->program) - 1] = 0;
}

bool tonic_defaults_auto_offload(const struct net *net)
{
	return READ_ONCE(tonic_net(net)->d.auto_offload);
}

/* All of @tn's defaults, or (@d NULL) only the program, which is @name. */
static int tonic_defaults_store(struct tonic_net *tn, const struct tonic_defaults *d,
				const char *name)
{
	const struct tonic_prog_ops *p, *old;

	if (strnlen(name, TONIC_PROG_NAME_MAX) >= TONIC_PROG_NAME_MAX)
		return -ENOENT;
	p = tonic_program_get(name);
	if (!p)
		return -ENOENT;
	write_seqlock_bh(&tonic_defaults_lock);
	if (d)
		tn->d = *d;
	strscpy(tn->d.program, p->name, sizeof(tn->d.program));
	old = tn->prog;
	tn->prog = p;
	write_sequnlock_bh(&tonic_defaults_lock);
	tonic_program_put(old);
	return 0;
}

int tonic_defaults_set(const struct net *net, const struct tonic_defaults *d)
{
	return tonic_defaults_store(tonic_net(net), d, d->program);
}

int tonic_defaults_program(struct tonic_net *tn, const char *name)
{
	return tonic_defaults_store(tn, NULL, name);
}

static int __net_init tonic_net_init(struct net *net)
{
	struct tonic_net *tn = tonic_net(net);
	int err;

	tn->net = net;
	if (net_eq(net, &init_net)) {
		strscpy(tn->d.program, TONIC_DEFAULT_PROGRAM, sizeof(tn->d.program));
		tn->d.sub_delay_us = TONIC_DEFAULT_SUB_DELAY_US;
	} else {
		tonic_defaults_get(&init_net, &tn->d);
	}
	tn->prog = tonic_program_get(tn->d.program);
	if (!tn->prog) {
		/* init_net's default changed, and its module went, meanwhile. */
		strscpy(tn->d.program, TONIC_DEFAULT_PROGRAM, sizeof(tn->d.program));
		tn->prog = tonic_program_get(TONIC_DEFAULT_PROGRAM);
	}
	err = tonic_sysctl_register(net, tn);
	if (err)
		tonic_program_put(tn->prog);
	return err;
}

static void __net_exit tonic_net_exit(struct net *net)
{
	struct tonic_net *tn = tonic_net(net);

	tonic_sysctl_unregister(tn);
	tonic_program_put(tn->prog);
}

static struct pernet_operations tonic_net_ops = {
	.init = tonic_net_init,
	.exit = tonic_net_exit,
	.id = &tonic_net_id,
	.size = sizeof(struct tonic_net),
};

int tonic_defaults_init(void)
{
	return register_pernet_subsys(&tonic_net_ops);
}

void tonic_defaults_exit(void)
{
	unregister_pernet_subsys(&tonic_net_ops);
}
