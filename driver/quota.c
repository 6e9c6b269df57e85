// SPDX-License-Identifier: GPL-2.0
/*
 * Flow quotas per network namespace (net.tonic.max_flows).
 *
 * Every namespace but init_net may hold at most a fair share of the flow
 * table at once: half of the default device's table unless its sysctl
 * says otherwise, so that no namespace (and no unprivileged user in one)
 * can take the whole table and push every other tenant onto software TCP.
 * init_net is not limited unless its administrator sets a number.  The
 * count is per namespace across all devices; flows the driver runs itself
 * (TONIC_DEV_FLOW_SELF) are charged to nobody.
 *
 * A namespace that never wrote the sysctl follows the default device of
 * the moment (a PCIe Tonic bound later changes its share); once written,
 * the number stays.  Lowering the quota below the flows a namespace holds
 * takes none of them away: only new attaches are refused.
 */
#include <linux/slab.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>
#include "device.h"
#include "quota.h"

#define TONIC_NETQ_AUTO		U32_MAX

struct tonic_netq {
	refcount_t ref;			/* the namespace's, plus one per charged flow */
	atomic_t flows;			/* flows charged now */
	u32 max;			/* TONIC_NETQ_AUTO: the default share */
	bool init;			/* init_net's */
#define TONIC_NETQ_FIELD(name, NAME, doc)	atomic64_t name;
	TONIC_NETNS_COUNTERS(TONIC_NETQ_FIELD)
#undef TONIC_NETQ_FIELD
	struct rcu_head rcu;
};

/* A namespace's quota, NULL once its pernet exit ran. */
struct tonic_netq_ref {
	struct tonic_netq __rcu *q;
};

static unsigned int tonic_netq_id __read_mostly;

static struct tonic_netq_ref *tonic_netq_ref(const struct net *net)
{
	return net_generic(net, tonic_netq_id);
}

u32 tonic_netq_share(const struct tonic_netq *q)
{
	struct tonic_dev *dev = tonic_dev_default();
	u32 table = dev ? dev->max_flows : TONIC_MAX_FLOWS;

	if (q->init)
		return TONIC_MAX_FLOWS;
	return max(table / 2, 1u);
}

u32 tonic_netq_max(const struct tonic_netq *q)
{
	u32 max = READ_ONCE(q->max);

	return max == TONIC_NETQ_AUTO ? tonic_netq_share(q) : max;
}

void tonic_netq_set_max(struct tonic_netq *q, u32 max)
{
	WRITE_ONCE(q->max, min_t(u32, max, TONIC_MAX_FLOWS));
}

struct tonic_netq *tonic_netq_get(const struct net *net)
{
	struct tonic_netq *q;

	if (!net)
		return NULL;
	rcu_read_lock();
	q = rcu_dereference(tonic_netq_ref(net)->q);
	if (q && !refcount_inc_not_zero(&q->ref))
		q = NULL;
	rcu_read_unlock();
	return q;
}

void tonic_netq_put(struct tonic_netq *q)
{
	if (q && refcount_dec_and_test(&q->ref))
		kfree_rcu(q, rcu);
}

int tonic_netq_charge(struct tonic_netq *q, bool force)
{
	u32 max = force ? U32_MAX : tonic_netq_max(q);
	int n = atomic_read(&q->flows);

	do {
		if ((u32)n >= max) {
			atomic64_inc(&q->refused_quota);
			return -EDQUOT;
		}
	} while (!atomic_try_cmpxchg(&q->flows, &n, n + 1));
	return 0;
}

void tonic_netq_uncharge_put(struct tonic_netq *q)
{
	if (!q)
		return;
	WARN_ON_ONCE(atomic_dec_return(&q->flows) < 0);
	tonic_netq_put(q);
}

void tonic_netq_count_full(struct tonic_netq *q)
{
	if (q)
		atomic64_inc(&q->refused_full);
}

void tonic_netq_count_added(struct tonic_netq *q)
{
	if (q)
		atomic64_inc(&q->flows_added);
}

void tonic_netq_stats(const struct net *net, struct tonic_netq_stats *st)
{
	struct tonic_netq *q = tonic_netq_get(net);

	memset(st, 0, sizeof(*st));
	if (!q)
		return;
	st->max_flows = tonic_netq_max(q);
	st->flows = max(atomic_read(&q->flows), 0);
#define TONIC_NETQ_READ(name, NAME, doc)	st->name = atomic64_read(&q->name);
	TONIC_NETNS_COUNTERS(TONIC_NETQ_READ)
#undef TONIC_NETQ_READ
	tonic_netq_put(q);
}

static int __net_init tonic_netq_net_init(struct net *net)
{
	struct tonic_netq_ref *r = tonic_netq_ref(net);
	struct tonic_netq *q = kzalloc(sizeof(*q), GFP_KERNEL);

	if (!q)
		return -ENOMEM;
	refcount_set(&q->ref, 1);
	q->max = TONIC_NETQ_AUTO;
	q->init = net_eq(net, &init_net);
	rcu_assign_pointer(r->q, q);
	return 0;
}

/* The namespace lets go; flows still charged keep the quota until detached. */
static void __net_exit tonic_netq_net_exit(struct net *net)
{
	struct tonic_netq_ref *r = tonic_netq_ref(net);

	tonic_netq_put(rcu_replace_pointer(r->q, NULL, true));
}

static struct pernet_operations tonic_netq_net_ops = {
	.init = tonic_netq_net_init,
	.exit = tonic_netq_net_exit,
	.id = &tonic_netq_id,
	.size = sizeof(struct tonic_netq_ref),
};

int tonic_quota_init(void)
{
	return register_pernet_subsys(&tonic_netq_net_ops);
}

void tonic_quota_exit(void)
{
	unregister_pernet_subsys(&tonic_netq_net_ops);
}
