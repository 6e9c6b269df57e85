/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flow quotas per network namespace (net.tonic.max_flows): how many flows
 * the sockets of one namespace may hold on the Tonic devices at once,
 * whichever devices they are on.  device.c charges a flow to its
 * namespace when it attaches and uncharges it when it is detached;
 * the admin interface reads and sets it (net.tonic.max_flows) and
 * reports it (STATS_GET).
 *
 * The quota of a namespace is reference counted apart from the namespace
 * itself: a flow charged to it may be detached after the namespace's
 * pernet exit ran (a kernel socket closed late), and its counters stay
 * valid until then.
 */
#ifndef _TONIC_QUOTA_H
#define _TONIC_QUOTA_H

#include <linux/types.h>
#include "counters.h"

struct net;
struct tonic_netq;

/* One namespace's figures (TONIC_A_NSTATS_*): its counters (counters.h). */
struct tonic_netq_stats {
	u32 max_flows;		/* the quota in force now */
	u32 flows;		/* flows charged to the namespace now */
#define TONIC_NETQ_STAT_FIELD(name, NAME, doc)	u64 name;
	TONIC_NETNS_COUNTERS(TONIC_NETQ_STAT_FIELD)
#undef TONIC_NETQ_STAT_FIELD
};

/* A reference on @net's quota (NULL: none, the namespace is going away). */
struct tonic_netq *tonic_netq_get(const struct net *net);
/* Drop a reference (NULL is fine).  Any context. */
void tonic_netq_put(struct tonic_netq *q);
/*
 * Charge one flow: 0, or -EDQUOT (counted) when the namespace holds its
 * quota already.  @force charges without the check (a flow that moves
 * from one device to another).  Any context.
 */
int tonic_netq_charge(struct tonic_netq *q, bool force);
/* Give back one charged flow and the reference that came with it. */
void tonic_netq_uncharge_put(struct tonic_netq *q);
/* Count an attach refused because a device's table was full. */
void tonic_netq_count_full(struct tonic_netq *q);
/* Count a flow attached. */
void tonic_netq_count_added(struct tonic_netq *q);

/* The quota in force for @q, and the default share its namespace starts from. */
u32 tonic_netq_max(const struct tonic_netq *q);
u32 tonic_netq_share(const struct tonic_netq *q);
void tonic_netq_set_max(struct tonic_netq *q, u32 max);

/* @net's figures; zero when it has no quota (any more). */
void tonic_netq_stats(const struct net *net, struct tonic_netq_stats *st);

/*
 * Every namespace's quota (its own pernet state), at module load and
 * unload: before the devices register, after they are gone.
 */
int tonic_quota_init(void);
void tonic_quota_exit(void);

#endif /* _TONIC_QUOTA_H */
