/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per network namespace state of the admin interface (defaults.c,
 * sysctl.c).
 */
#ifndef _TONIC_PERNET_H
#define _TONIC_PERNET_H

#include <linux/seqlock.h>
#include "admin.h"

struct ctl_table;
struct ctl_table_header;

struct tonic_net {
	struct tonic_defaults d;	/* under tonic_defaults_lock */
	/*
	 * d.program, held as a namespace's tcp_congestion_control holds its
	 * module: rmmod of the default's module is refused.
	 */
	const struct tonic_prog_ops *prog;
	struct ctl_table *sysctl_tbl;
	struct ctl_table_header *sysctl;
	struct net *net;		/* the namespace this is part of */
};

extern seqlock_t tonic_defaults_lock;
struct tonic_net *tonic_net(const struct net *net);
int tonic_defaults_program(struct tonic_net *tn, const char *name);

int tonic_sysctl_register(struct net *net, struct tonic_net *tn);
void tonic_sysctl_unregister(struct tonic_net *tn);

#endif /* _TONIC_PERNET_H */
