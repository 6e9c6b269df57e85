/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the admin interface (netlink, sysctl) offers to the TCP integration
 * (sock-glue) and what it needs from it.  Everything here is optional for
 * sock-glue: without it, netlink answers the socket commands with
 * -EOPNOTSUPP and reports no socket counters.
 *
 *  - Defaults per network namespace (net.tonic.* sysctls, TONIC_CMD_DEFAULTS_SET):
 *    tonic_defaults_get(sock_net(sk), &d) when a socket is offloaded.
 *  - struct tonic_sock_ops, registered with tonic_sock_ops_register() at
 *    init and unregistered at exit: toggle one socket found by its
 *    4-tuple, and the integration's counters for TONIC_CMD_STATS_GET.
 *  - struct tonic_flow_client.info (driver/device.h): the flow dump's
 *    4-tuple, program, C, T and state, and the namespace a flow is
 *    charged to (net.tonic.max_flows: tonic_dev_flow_attach() answers
 *    -EDQUOT for a namespace that holds its quota).
 */
#ifndef _TONIC_ADMIN_H
#define _TONIC_ADMIN_H

#include <linux/types.h>
#include "../driver/counters.h"
#include "../driver/registry.h"

struct net;
struct sock;
struct netlink_ext_ack;

struct tonic_defaults {
	char program[TONIC_PROG_NAME_MAX];	/* a registered program */
	u32 seg_size;			/* C, bytes; 0 = the connection's MSS */
	u32 sub_delay_us;		/* T */
	u32 auto_offload;		/* 1: offload eligible new connections by itself */
};

/* Compile-time defaults; a new netns starts from init_net's current ones. */
#define TONIC_DEFAULT_PROGRAM		"cubic"
#define TONIC_DEFAULT_SUB_DELAY_US	500

/* A consistent copy of @net's defaults.  Any context (softirq included). */
void tonic_defaults_get(const struct net *net, struct tonic_defaults *d);
/* Just @net's auto_offload, lock-free (the TCP integration asks per packet). */
bool tonic_defaults_auto_offload(const struct net *net);
/*
 * Replace @net's defaults (fields validated by the caller, program checked
 * here): -ENOENT for an unknown program.
 */
int tonic_defaults_set(const struct net *net, const struct tonic_defaults *d);

/*
 * The TCP integration's counters and gauges (counters.h), as the sock-stats
 * nest carries them.
 */
struct tonic_sock_stats {
#define TONIC_SOCK_STAT_FIELD(name, NAME, doc)	u64 name;
	TONIC_SOCK_GAUGES(TONIC_SOCK_STAT_FIELD)
	TONIC_SOCK_COUNTERS(TONIC_SOCK_STAT_FIELD)
#undef TONIC_SOCK_STAT_FIELD
};

struct tonic_sock_ops {
	/*
	 * Offload (@on) or hand back to software TCP (!@on) the established
	 * TCP socket @sk, found by its 4-tuple in the requester's netns.
	 * Process context, may sleep (lock_sock); the caller holds a
	 * reference on @sk.  0 when done or started (draining), a negative
	 * errno otherwise; an NL_SET_ERR_MSG(extack, ...) says why.
	 */
	int (*offload)(struct sock *sk, bool on, struct netlink_ext_ack *extack);
	/*
	 * Counters.  @net NULL: host-wide (asked for a caller with
	 * CAP_NET_ADMIN in init_net only).  Otherwise @net's sockets only;
	 * asked so only with TONIC_SOCK_OPS_STATS_PER_NET in @flags (without
	 * it, callers scoped to one namespace get no socket counters).  May
	 * sleep.
	 */
	void (*stats)(const struct net *net, struct tonic_sock_stats *st);
	u32 flags;			/* TONIC_SOCK_OPS_* */
};

/* .stats(net != NULL) counts @net's sockets only. */
#define TONIC_SOCK_OPS_STATS_PER_NET	0x1

/* One set of ops at a time: -EBUSY if some are registered already. */
int tonic_sock_ops_register(const struct tonic_sock_ops *ops);
/* Waits until no netlink request uses the ops any more. */
void tonic_sock_ops_unregister(const struct tonic_sock_ops *ops);

/*
 * Netlink side: call @ops->offload / ->stats if registered, else
 * -EOPNOTSUPP.  tonic_sock_stats() for one namespace (@net) also answers
 * -EOPNOTSUPP when the integration cannot count per namespace.
 */
int tonic_sock_offload(struct sock *sk, bool on, struct netlink_ext_ack *extack);
int tonic_sock_stats(const struct net *net, struct tonic_sock_stats *st);

/* Module init/exit (tonic_main.c). */
int tonic_defaults_init(void);
void tonic_defaults_exit(void);

#endif /* _TONIC_ADMIN_H */
