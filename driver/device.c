// SPDX-License-Identifier: GPL-2.0
/*
 * Tonic device registry and flow-id allocation.
 *
 * Flow ids are indices in [0, max_flows) of the device's flow table; the
 * first free one is taken (first come, first served), within the quota of
 * the flow's network namespace (quota.c): a namespace over its quota gets
 * -EDQUOT, a full table -ENOSPC.  Neither is an error for the caller's
 * connection: sock-glue keeps it on software TCP.  Every attached flow
 * but the driver's own is charged to one namespace from attach until
 * detach (the only way a flow leaves a device: a flow the device failed
 * stays charged until its client detaches it).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/bitmap.h>
#include <linux/mutex.h>
#include <net/net_namespace.h>
#include <uapi/linux/tonic.h>
#include "device.h"
#include "program.h"
#include "registry.h"
#include "quota.h"
#include "tenant.h"
#include <trace/events/tonic.h>

/* The admin interface's ear (admin/netlink/event.c), NULL while it is not up. */
static tonic_dev_event_fn tonic_dev_event_hook;

static LIST_HEAD(tonic_devs);
static DEFINE_MUTEX(tonic_devs_lock);
static struct tonic_dev *tonic_default_dev;

int tonic_dev_register(struct tonic_dev *dev)
{
	if (!dev->ops || !dev->max_flows || dev->ops->nctrs > TONIC_DEV_BACKEND_MAX)
		return -EINVAL;
	spin_lock_init(&dev->id_lock);
	dev->ids = bitmap_zalloc(dev->max_flows, GFP_KERNEL);
	dev->priv = kvcalloc(dev->max_flows, sizeof(void *), GFP_KERNEL);
	dev->flows = kvcalloc(dev->max_flows, sizeof(*dev->flows), GFP_KERNEL);
	if (!dev->ids || !dev->priv || !dev->flows) {
		bitmap_free(dev->ids);
		kvfree(dev->priv);
		kvfree(dev->flows);
		return -ENOMEM;
	}
#define TONIC_DEV_COUNTER_ZERO(name, NAME, doc)	atomic64_set(&dev->name, 0);
	TONIC_DEV_COUNTERS(TONIC_DEV_COUNTER_ZERO)
#undef TONIC_DEV_COUNTER_ZERO
	mutex_lock(&tonic_devs_lock);
	list_add_tail(&dev->list, &tonic_devs);
	if (!tonic_default_dev)
		WRITE_ONCE(tonic_default_dev, dev);
	mutex_unlock(&tonic_devs_lock);
	pr_info("tonic: device %s registered, %u flows\n", dev->name, dev->max_flows);
	return 0;
}

/* The caller guarantees no flow is attached any more. */
void tonic_dev_unregister(struct tonic_dev *dev)
{
	u32 flow;

	mutex_lock(&tonic_devs_lock);
	list_del(&dev->list);
	if (tonic_default_dev == dev)
		WRITE_ONCE(tonic_default_dev, list_first_entry_or_null(&tonic_devs,
								       struct tonic_dev, list));
	mutex_unlock(&tonic_devs_lock);
	WARN_ON_ONCE(tonic_dev_flows_in_use(dev));
	/* Should there be any, their namespaces get their share back. */
	for_each_set_bit(flow, dev->ids, dev->max_flows)
		tonic_netq_uncharge_put(dev->flows[flow].q);
	bitmap_free(dev->ids);
	kvfree(dev->priv);
	kvfree(dev->flows);
	if (dev->ops->destroy)
		dev->ops->destroy(dev);
}

struct tonic_dev *tonic_dev_default(void)
{
	return READ_ONCE(tonic_default_dev);
}
EXPORT_SYMBOL_GPL(tonic_dev_default);

int tonic_dev_flow_attach(struct tonic_dev *dev, const struct tonic_flow_cfg *cfg, void *priv,
			  u32 *flow)
{
	return tonic_dev_flow_attach_flags(dev, cfg, NULL, priv, 0, flow);
}
EXPORT_SYMBOL_GPL(tonic_dev_flow_attach);

int tonic_dev_push(struct tonic_dev *dev, u32 flow, u32 tail, u32 last_len)
{
	return dev->ops->push(dev, flow, tail, last_len);
}
EXPORT_SYMBOL_GPL(tonic_dev_push);

int tonic_dev_incoming(struct tonic_dev *dev, u32 flow, const struct tonic_pkt *pkt)
{
	return dev->ops->incoming(dev, flow, pkt);
}
EXPORT_SYMBOL_GPL(tonic_dev_incoming);

int tonic_dev_flow_stats(struct tonic_dev *dev, u32 flow, struct tonic_flow_stats *st)
{
	if (!dev->ops->flow_stats)
		return -EOPNOTSUPP;
	return dev->ops->flow_stats(dev, flow, st);
}
EXPORT_SYMBOL_GPL(tonic_dev_flow_stats);

void tonic_dev_counters(struct tonic_dev *dev, struct tonic_dev_counters *c)
{
	struct tonic_core_stats cs = {};

	if (dev->ops->dev_stats)
		dev->ops->dev_stats(dev, &cs);
#define TONIC_DEV_COUNTER_READ(name, NAME, doc)	c->name = atomic64_read(&dev->name);
	TONIC_DEV_COUNTERS(TONIC_DEV_COUNTER_READ)
#undef TONIC_DEV_COUNTER_READ
#define TONIC_CORE_COUNTER_COPY(name, NAME, doc)	c->name = cs.name;
	TONIC_CORE_COUNTERS(TONIC_CORE_COUNTER_COPY)
#undef TONIC_CORE_COUNTER_COPY
	c->nbackend = 0;
	c->backend_names = dev->ops->ctr_names;
	if (dev->ops->ctr_read) {
		dev->ops->ctr_read(dev, c->backend);
		c->nbackend = dev->ops->nctrs;
	}
}

/* The client's (or device.c's own) description of an attached flow. */
static int tonic_dev_flow_describe(struct tonic_dev *dev, u32 flow, struct tonic_flow_info *fi)
{
	const struct tonic_dev_flow *df = &dev->flows[flow];
	const struct tonic_flow_client *cl = df->client ?: dev->client;
	void *priv = dev->priv[flow];
	int owner = TONIC_FLOW_OWNER_UNKNOWN;
	u32 i;

	memset(fi, 0, sizeof(*fi));
	if (df->flags & TONIC_DEV_FLOW_SELF)
		owner = TONIC_FLOW_OWNER_DEVICE;
	else if (priv && cl && cl->info && !cl->info(priv, fi))
		owner = fi->owner == TONIC_FLOW_OWNER_RDMA_QP ? TONIC_FLOW_OWNER_RDMA_QP :
								TONIC_FLOW_OWNER_SOCKET;
	if (owner != TONIC_FLOW_OWNER_SOCKET && owner != TONIC_FLOW_OWNER_RDMA_QP)
		memset(fi, 0, sizeof(*fi));
	/* Only a socket's flow is charged to, and shown in, its namespace. */
	if (owner != TONIC_FLOW_OWNER_SOCKET)
		fi->net = NULL;
	/* The socket holds its namespace while the flow is attached: read it now. */
	fi->netns_inum = fi->net ? fi->net->ns.inum : 0;
	fi->program[sizeof(fi->program) - 1] = 0;
	if (!fi->program[0] && df->prog)
		strscpy(fi->program, df->prog->name, sizeof(fi->program));
	if (!fi->seg_size)
		fi->seg_size = df->seg_size;
	memcpy(fi->param, df->param, sizeof(fi->param));
	fi->tenant = df->tenant;
	/* Copied: a program module may go once the flow is gone. */
	for (i = 0; df->prog && df->prog->info_names && df->prog->info_names[i] &&
		    i < TONIC_PROG_INFO; i++)
		strscpy(fi->info_name[i], df->prog->info_names[i], sizeof(fi->info_name[i]));
	return owner;
}

/* The namespace a described flow belongs to: its socket's, else init_net. */
static const struct net *tonic_dev_flow_net(int owner, const struct tonic_flow_info *fi)
{
	if (owner == TONIC_FLOW_OWNER_SOCKET && fi->net)
		return fi->net;
	return &init_net;
}

int tonic_dev_flow_read(struct tonic_dev *dev, u32 flow, const struct net *net,
			struct tonic_flow_info *fi, struct tonic_flow_stats *st)
{
	int owner = -ENOENT;

	if (flow >= dev->max_flows)
		return -ENOENT;
	spin_lock_bh(&dev->id_lock);
	if (test_bit(flow, dev->ids) && dev->priv[flow]) {
		owner = tonic_dev_flow_describe(dev, flow, fi);
		/* Another namespace's flow: not a word to the device about it. */
		if (net && !net_eq(tonic_dev_flow_net(owner, fi), net)) {
			memset(fi, 0, sizeof(*fi));
			owner = -ENOENT;
		} else {
			memset(st, 0, sizeof(*st));
			if (dev->ops->flow_stats && dev->ops->flow_stats(dev, flow, st))
				memset(st, 0, sizeof(*st));
		}
	}
	spin_unlock_bh(&dev->id_lock);
	return owner;
}

/*
 * What the client's info() says of a flow about to be attached (zeros if
 * nothing): its 4-tuple into @a, its tenant into @tenant (0: none), and the
 * namespace it is charged to, returned -- init_net, where flows without a
 * socket are shown, if none.
 */
static const struct net *tonic_dev_client_info(const struct tonic_flow_client *cl, void *priv,
					       struct tonic_flow_addr *a, u32 *tenant)
{
	struct tonic_flow_info fi;

	memset(&fi, 0, sizeof(fi));
	memset(a, 0, sizeof(*a));
	a->src.v4.sin_family = AF_INET;
	a->dst.v4.sin_family = AF_INET;
	*tenant = 0;
	if (!priv || !cl || !cl->info || cl->info(priv, &fi))
		return &init_net;
	*tenant = tonic_tenant_match(&fi);
	if (fi.family == AF_INET6) {
		a->src.v6 = (struct sockaddr_in6){ .sin6_family = AF_INET6, .sin6_port = fi.sport,
						   .sin6_addr = fi.saddr6 };
		a->dst.v6 = (struct sockaddr_in6){ .sin6_family = AF_INET6, .sin6_port = fi.dport,
						   .sin6_addr = fi.daddr6 };
	} else if (fi.family == AF_INET) {
		a->src.v4.sin_port = fi.sport;
		a->src.v4.sin_addr.s_addr = fi.saddr4;
		a->dst.v4.sin_port = fi.dport;
		a->dst.v4.sin_addr.s_addr = fi.daddr4;
	}
	return fi.net ?: &init_net;
}

/* For the tracepoints: @flow's 4-tuple (trace/events/tonic.h). */
void tonic_dev_trace_addr(const struct tonic_dev *dev, u32 flow, void *src, void *dst)
{
	static const struct sockaddr_in none = { .sin_family = AF_INET };
	const struct tonic_flow_addr *a;

	BUILD_BUG_ON(sizeof(a->src) != sizeof(struct sockaddr_in6));
	/* A control packet for a flow id out of range is traced too. */
	if (flow >= dev->max_flows || !dev->flows) {
		memset(src, 0, sizeof(a->src));
		memset(dst, 0, sizeof(a->dst));
		memcpy(src, &none, sizeof(none));
		memcpy(dst, &none, sizeof(none));
		return;
	}
	a = &dev->flows[flow].addr;
	memcpy(src, &a->src, sizeof(a->src));
	memcpy(dst, &a->dst, sizeof(a->dst));
}

/*
 * Program parameter @idx of @flow is now @value, as the admin (netlink,
 * seen from @net: only that namespace's flows; NULL: any) or the flow's
 * client asks: on the device first, then in what flow-get shows.  The
 * value is then the flow's own: the device's parameters (params.c) no
 * longer change it; 0 gives it back to them.
 * -ENOENT: no such flow (for @net), -EINVAL: bad @idx, -EOPNOTSUPP: the
 * backend cannot change a live flow.  Any context but hard IRQ.
 */
int __tonic_dev_flow_set_param(struct tonic_dev *dev, u32 flow, u32 idx, u32 value)
{
	int err = dev->ops->flow_set_param(dev, flow, idx, value);

	if (!err)
		dev->flows[flow].param[idx] = value;
	return err;
}

int tonic_dev_flow_set_param(struct tonic_dev *dev, u32 flow, const struct net *net, u32 idx,
			     u32 value)
{
	struct tonic_flow_info fi;
	int err = -ENOENT, owner;

	if (idx >= TONIC_PROG_PARAMS)
		return -EINVAL;
	if (flow >= dev->max_flows)
		return -ENOENT;
	if (!dev->ops->flow_set_param)
		return -EOPNOTSUPP;
	spin_lock_bh(&dev->id_lock);
	if (test_bit(flow, dev->ids) && dev->priv[flow]) {
		owner = tonic_dev_flow_describe(dev, flow, &fi);
		if (!net || net_eq(tonic_dev_flow_net(owner, &fi), net))
			err = tonic_dev_flow_param(dev, flow, idx, value);
	}
	spin_unlock_bh(&dev->id_lock);
	return err;
}
EXPORT_SYMBOL_GPL(tonic_dev_flow_set_param);

int tonic_dev_flow_attach_flags(struct tonic_dev *dev, const struct tonic_flow_cfg *flow_cfg,
				const struct tonic_flow_client *client, void *priv, u32 flags,
				u32 *flow)
{
	struct tonic_flow_cfg c = *flow_cfg, *cfg = &c;
	struct tonic_netq *q = NULL;
	const struct net *net;
	struct tonic_flow_info fi;
	struct tonic_flow_addr addr;
	tonic_dev_event_fn hook;
	unsigned long id;
	u32 tenant;
	int err, owner;

	net = tonic_dev_client_info(flags & TONIC_DEV_FLOW_SELF ? NULL : client ?: dev->client,
				    priv, &addr, &tenant);
	if (!(flags & TONIC_DEV_FLOW_SELF)) {
		/* NULL only for a namespace on its way out: nothing to charge. */
		q = tonic_netq_get(net);
		if (q && tonic_netq_charge(q, flags & TONIC_DEV_FLOW_MOVE)) {
			tonic_netq_put(q);
			return -EDQUOT;
		}
	}
	spin_lock_bh(&dev->id_lock);
	id = find_first_zero_bit(dev->ids, dev->max_flows);
	if (id >= dev->max_flows) {
		spin_unlock_bh(&dev->id_lock);
		atomic64_inc(&dev->flows_full);
		tonic_netq_count_full(q);
		tonic_netq_uncharge_put(q);
		return -ENOSPC;
	}
	__set_bit(id, dev->ids);
	WRITE_ONCE(dev->priv[id], priv);
	/* The flow's own reference: its program outlives the caller's. */
	tonic_program_hold(cfg->prog);
	dev->flows[id].prog = cfg->prog;
	dev->flows[id].addr = addr;
	dev->flows[id].seg_size = cfg->seg_size;
	dev->flows[id].param_own = tonic_dev_params_fill(dev, cfg);
	memcpy(dev->flows[id].param, cfg->param, sizeof(cfg->param));
	dev->flows[id].flags = flags & TONIC_DEV_FLOW_SELF;
	dev->flows[id].q = q;
	dev->flows[id].tenant = tenant;
	dev->flows[id].tenant_cnps = 0;
	/* Not congested until its first CNP. */
	dev->flows[id].tenant_cnp_at = jiffies - 3600 * HZ;
	WRITE_ONCE(dev->flows[id].client, client);
	spin_unlock_bh(&dev->id_lock);

	err = dev->ops->flow_add(dev, id, cfg);
	if (err) {
		spin_lock_bh(&dev->id_lock);
		WRITE_ONCE(dev->priv[id], NULL);
		__clear_bit(id, dev->ids);
		dev->flows[id].prog = NULL;
		dev->flows[id].q = NULL;
		WRITE_ONCE(dev->flows[id].client, NULL);
		spin_unlock_bh(&dev->id_lock);
		tonic_program_put(cfg->prog);
		tonic_netq_uncharge_put(q);
		return err;
	}
	atomic64_inc(&dev->flows_added);
	tonic_netq_count_added(q);
	*flow = id;
	trace_tonic_flow_add(dev, id, cfg);
	hook = READ_ONCE(tonic_dev_event_hook);
	if (hook) {
		spin_lock_bh(&dev->id_lock);
		owner = tonic_dev_flow_describe(dev, id, &fi);
		spin_unlock_bh(&dev->id_lock);
		hook(dev, id, TONIC_DEV_EV_ADD, owner, &fi, 0);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(tonic_dev_flow_attach_flags);

void tonic_dev_flow_detach(struct tonic_dev *dev, u32 flow)
{
	const struct tonic_prog_ops *prog;
	struct tonic_flow_info fi;
	struct tonic_netq *q;
	tonic_dev_event_fn hook;
	int owner = 0;

	if (WARN_ON_ONCE(flow >= dev->max_flows))
		return;
	trace_tonic_flow_remove(dev, flow);
	/* Described before the client may let go of its pointer. */
	hook = READ_ONCE(tonic_dev_event_hook);
	if (hook) {
		spin_lock_bh(&dev->id_lock);
		owner = tonic_dev_flow_describe(dev, flow, &fi);
		spin_unlock_bh(&dev->id_lock);
	}
	/* The backend delivers under its own lock: after this, nothing for @flow. */
	dev->ops->flow_remove(dev, flow);
	spin_lock_bh(&dev->id_lock);
	q = test_bit(flow, dev->ids) ? dev->flows[flow].q : NULL;
	prog = test_bit(flow, dev->ids) ? dev->flows[flow].prog : NULL;
	WRITE_ONCE(dev->priv[flow], NULL);
	__clear_bit(flow, dev->ids);
	dev->flows[flow].prog = NULL;
	dev->flows[flow].flags = 0;
	dev->flows[flow].q = NULL;
	dev->flows[flow].tenant = 0;
	WRITE_ONCE(dev->flows[flow].client, NULL);
	spin_unlock_bh(&dev->id_lock);
	tonic_netq_uncharge_put(q);
	tonic_program_put(prog);
	if (hook)
		hook(dev, flow, TONIC_DEV_EV_DEL, owner, &fi, 0);
}
EXPORT_SYMBOL_GPL(tonic_dev_flow_detach);

/*
 * Under the backend's delivery lock: the flow is attached and its client
 * pointer cannot go away (detach removes the flow from the backend first).
 * id_lock is not taken: the admin side takes backend locks under it.
 */
void tonic_dev_flow_failed(struct tonic_dev *dev, u32 flow, u32 reason)
{
	struct tonic_flow_info fi;
	tonic_dev_event_fn hook;
	int owner;

	if (flow >= dev->max_flows)
		return;
	trace_tonic_flow_fail(dev, flow, reason);
	hook = READ_ONCE(tonic_dev_event_hook);
	if (!hook || !READ_ONCE(dev->priv[flow]))
		return;
	owner = tonic_dev_flow_describe(dev, flow, &fi);
	hook(dev, flow, TONIC_DEV_EV_FAIL, owner, &fi, reason);
}

void tonic_dev_set_event_hook(tonic_dev_event_fn fn)
{
	WRITE_ONCE(tonic_dev_event_hook, fn);
}

struct tonic_dev *tonic_dev_get_nth(u32 n)
{
	struct tonic_dev *dev, *found = NULL;

	mutex_lock(&tonic_devs_lock);
	list_for_each_entry(dev, &tonic_devs, list) {
		if (!n--) {
			found = dev;
			break;
		}
	}
	mutex_unlock(&tonic_devs_lock);
	return found;
}

void tonic_dev_for_each(void (*fn)(struct tonic_dev *dev, void *arg), void *arg)
{
	struct tonic_dev *dev;

	mutex_lock(&tonic_devs_lock);
	list_for_each_entry(dev, &tonic_devs, list)
		fn(dev, arg);
	mutex_unlock(&tonic_devs_lock);
}

struct tonic_dev *tonic_dev_find(const char *name)
{
	struct tonic_dev *dev, *found = NULL;

	mutex_lock(&tonic_devs_lock);
	list_for_each_entry(dev, &tonic_devs, list) {
		if (dev->name && !strcmp(dev->name, name)) {
			found = dev;
			break;
		}
	}
	mutex_unlock(&tonic_devs_lock);
	return found;
}

bool tonic_dev_prog_name(struct tonic_dev *dev, u32 idx, char name[16])
{
	const char *p;

	if (!dev->ops->prog_name)
		return tonic_program_name(idx, name);
	p = dev->ops->prog_name(dev, idx);
	if (p)
		strscpy(name, p, 16);
	return p;
}

void tonic_dev_for_each_flow(struct tonic_dev *dev, const struct tonic_flow_client *client,
			     tonic_dev_flow_fn fn, void *arg)
{
	struct tonic_flow_stats st;
	u32 id;

	spin_lock_bh(&dev->id_lock);
	for (id = 0; id < dev->max_flows; id++) {
		void *priv = dev->priv[id];

		if (priv && test_bit(id, dev->ids) &&
		    (dev->flows[id].client ?: dev->client) == client &&
		    !(dev->flows[id].flags & TONIC_DEV_FLOW_SELF) &&
		    !dev->ops->flow_stats(dev, id, &st))
			fn(arg, dev, id, priv, &st);
	}
	spin_unlock_bh(&dev->id_lock);
}

u32 tonic_dev_flows_in_use(struct tonic_dev *dev)
{
	u32 n;

	spin_lock_bh(&dev->id_lock);
	n = bitmap_weight(dev->ids, dev->max_flows);
	spin_unlock_bh(&dev->id_lock);
	return n;
}
