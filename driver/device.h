/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Tonic device abstraction: what sock-glue (and later rdma-glue) sees of
 * a Tonic, whatever implements it.  A backend fills in struct tonic_dev_ops
 * (like net_device_ops); the core here owns flow-id allocation in [0, N)
 * and the per-flow client pointer the backend hands its output to.
 *
 * Contexts: every op may be called from process or softirq context and
 * must not sleep.  The backend calls the client's deliver() hooks from its
 * own worker, with the backend's lock held: they must be short (queue work).
 */
#ifndef _TONIC_DEVICE_H
#define _TONIC_DEVICE_H

#include <linux/spinlock.h>
#include <linux/list.h>
#include <linux/in6.h>
#include <linux/in.h>
#include <linux/uidgid.h>
#include "tonic.h"
#include "counters.h"

struct tonic_dev;
struct net;

struct tonic_dev_ops {
	int (*flow_add)(struct tonic_dev *dev, u32 flow, const struct tonic_flow_cfg *cfg);
	int (*flow_remove)(struct tonic_dev *dev, u32 flow);
	/*
	 * New segments up to @tail (segment index), last one @last_len bytes.
	 * -EBUSY: again later; -ENODEV or -EPIPE: the device lost the flow
	 * (the caller fails it over); any other error: refused.
	 */
	int (*push)(struct tonic_dev *dev, u32 flow, u32 tail, u32 last_len);
	/* A control packet (ACK/SACK/ECE/...) for @flow. */
	int (*incoming)(struct tonic_dev *dev, u32 flow, const struct tonic_pkt *pkt);
	int (*flow_stats)(struct tonic_dev *dev, u32 flow, struct tonic_flow_stats *st);
	/*
	 * Optional: program parameter @idx of a live flow is now @value (the
	 * program sees it from its next call).  Called with the device's
	 * id_lock held (BH off): must not sleep.
	 */
	int (*flow_set_param)(struct tonic_dev *dev, u32 flow, u32 idx, u32 value);
	/*
	 * Optional: the client takes none of @flow's descriptors while @on
	 * (tonic_flow_xoff()): its queue toward the wire is full; then
	 * @credit more (0: any number) before the flow is held again.
	 * Without it the client queues what comes, and the device counts it
	 * as sent.
	 */
	int (*flow_xoff)(struct tonic_dev *dev, u32 flow, bool on, u16 credit);
	void (*dev_stats)(struct tonic_dev *dev, struct tonic_core_stats *st);
	/*
	 * Optional: the backend's own counters (counters.h), @nctrs of them
	 * (at most TONIC_DEV_BACKEND_MAX), @ctr_names[i] read into @vals[i].
	 */
	void (*ctr_read)(struct tonic_dev *dev, u64 *vals);
	const char *const *ctr_names;
	u32 nctrs;
	void (*destroy)(struct tonic_dev *dev);
	/*
	 * Optional: name of the device's program @idx, NULL past the last one
	 * (a device whose program set differs from the host's registry).
	 * Without it, the programs are those of tonic_prog_list().
	 */
	const char *(*prog_name)(struct tonic_dev *dev, u32 idx);
};

/*
 * What a flow's client says about the flow, for the admin interface
 * (netlink flow dump, events).  Zeroed before the client's info() fills it.
 */
struct tonic_flow_info {
	const struct net *net;		/* the socket's netns (compared only); NULL: none */
	u16 family;			/* AF_INET / AF_INET6; 0: no 4-tuple */
	__be16 sport, dport;		/* local, remote port */
	__be32 saddr4, daddr4;		/* AF_INET: local, remote */
	struct in6_addr saddr6, daddr6;	/* AF_INET6: local, remote */
	char program[16];		/* empty: the program the flow was added with */
	u32 seg_size;			/* C; 0: as added */
	u32 sub_delay_us;		/* T */
	u32 state;			/* TONIC_SK_* */
	u32 netns_inum;			/* set by device.c from @net while it is alive */
	u32 owner;			/* TONIC_FLOW_OWNER_SOCKET (0) or _RDMA_QP */
	char rdma_dev[64];		/* _RDMA_QP: the RDMA device (IB_DEVICE_NAME_MAX) */
	u32 qpn;			/* ... and the queue pair */
	u32 param[TONIC_PROG_PARAMS];	/* set by device.c: the program's parameters */
	u32 tenant;			/* set by device.c: its tenant's id, 0: none */
	/* Set by device.c: the names of the program's info values, "" past the last. */
	char info_name[TONIC_PROG_INFO][16];
	/*
	 * Who owns the flow, for tenants (driver/tenant.h), read at attach:
	 * the uid, and the cgroup (v2), which the client keeps alive while
	 * the flow is attached; NULL: none (root's uid, no cgroup).
	 */
	kuid_t uid;
	struct cgroup *cgroup;
};

/* The consumer of a flow's output (descriptors and notifications). */
struct tonic_flow_client {
	void (*desc)(void *priv, const struct tonic_desc *d);
	void (*note)(void *priv, const struct tonic_note *n);
	/*
	 * Optional: describe the flow whose client pointer is @priv (fill @fi,
	 * return 0).  Called while the flow is attached, with the device's
	 * id_lock or the backend's lock held (BH off), from any context: it
	 * must not sleep and must not take a lock that its owner holds around
	 * tonic_dev_flow_attach()/detach() (read fields with READ_ONCE).
	 * Also called once by tonic_dev_flow_attach*() before the flow is
	 * added, in the caller's context, for @fi->net: the namespace the
	 * flow is charged to (net.tonic.max_flows).  A client without info()
	 * has its flows charged to init_net.
	 */
	int (*info)(void *priv, struct tonic_flow_info *fi);
};

struct tonic_netq;

/*
 * A flow's 4-tuple as its client described it at attach (a socket's, an
 * RDMA QP's UDP one), in the form tracepoints print with %pISpc, as
 * tcp:tcp_probe does; 0.0.0.0:0 for a flow without one.
 */
struct tonic_flow_addr {
	union {
		struct sockaddr_in v4;
		struct sockaddr_in6 v6;
	} src, dst;
};

/* What device.c records of each attached flow. */
struct tonic_dev_flow {
	const struct tonic_prog_ops *prog;
	struct tonic_flow_addr addr;
	u32 seg_size;
	u32 param[TONIC_PROG_PARAMS];	/* as added, then as set */
	u8 param_own;			/* bit i: param[i] is the flow's, not the device's */
	u32 flags;			/* TONIC_DEV_FLOW_SELF */
	struct tonic_netq *q;		/* the namespace quota it is charged to, or NULL */
	/* Its client (set before the backend adds it), NULL: dev->client. */
	const struct tonic_flow_client *client;
	/* Its tenant's id (driver/tenant.c), 0: none; what tenant.c saw of it. */
	u32 tenant;
	u32 tenant_cnps;		/* the flow's CNP count at the last look */
	unsigned long tenant_cnp_at;	/* jiffies when that count last moved */
};

/* The flow's client is the driver itself (a self-test), not dev->client. */
#define TONIC_DEV_FLOW_SELF	0x1
/*
 * The client moves a flow it held a moment ago (failover to another
 * device, or re-adding it to its own): charged to its namespace like any
 * flow, but never refused for the namespace's quota.
 */
#define TONIC_DEV_FLOW_MOVE	0x2

/* A device's parameters for its flows of one program (driver/params.c). */
struct tonic_dev_params {
	char prog[16];			/* TONIC_PROG_NAME_MAX; empty: a free entry */
	u32 param[TONIC_PROG_PARAMS];	/* 0: the program's default */
};
#define TONIC_DEV_PARAM_PROGS	16

struct tonic_dev {
	const char *name;
	const struct tonic_dev_ops *ops;
	u32 max_flows;
	u32 cycle_ps;			/* length of one device cycle */
	spinlock_t id_lock;		/* flow-id bitmap and client table */
	unsigned long *ids;
	void **priv;			/* per flow: client pointer, NULL if none */
	const struct tonic_flow_client *client;
	struct list_head list;
#define TONIC_DEV_COUNTER_FIELD(name, NAME, doc)	atomic64_t name;
	TONIC_DEV_COUNTERS(TONIC_DEV_COUNTER_FIELD)	/* counters.h */
#undef TONIC_DEV_COUNTER_FIELD
	/* Admin interface (netlink): optional, 0/NULL when unknown. */
	const char *backend;		/* "soft", "pci" */
	u32 wnd_bits, ring_depth;
	struct tonic_dev_flow *flows;	/* per flow, under id_lock (device.c) */
	struct tonic_dev_params params[TONIC_DEV_PARAM_PROGS];	/* under id_lock */
};

/*
 * What the admin interface hears of flows: netlink sets the hook, so the
 * device layer calls no one above it by name.  @owner: TONIC_FLOW_OWNER_*;
 * @reason: enum tonic_fail for FAIL.  Any context; must not sleep.
 */
enum tonic_dev_event {
	TONIC_DEV_EV_ADD,
	TONIC_DEV_EV_DEL,
	TONIC_DEV_EV_FAIL,
};
typedef void (*tonic_dev_event_fn)(struct tonic_dev *dev, u32 flow, enum tonic_dev_event ev,
				   int owner, const struct tonic_flow_info *fi, u32 reason);
void tonic_dev_set_event_hook(tonic_dev_event_fn fn);

int tonic_dev_register(struct tonic_dev *dev);
void tonic_dev_unregister(struct tonic_dev *dev);
struct tonic_dev *tonic_dev_default(void);

/*
 * Allocate a flow id and add the flow, its output going to dev->client.
 * -EDQUOT when the flow's network
 * namespace (learnt from the client's info()) holds its quota of flows
 * already (net.tonic.max_flows; the quota counts flows on every device,
 * so another device answers the same), -ENOSPC when the device's table is
 * full: either way the connection stays on software TCP.  Both refusals
 * are counted for the namespace (STATS_GET).
 */
int tonic_dev_flow_attach(struct tonic_dev *dev, const struct tonic_flow_cfg *cfg, void *priv,
			  u32 *flow);
/* Remove the flow: after return no deliver() hook runs for it. */
void tonic_dev_flow_detach(struct tonic_dev *dev, u32 flow);
/* Backend side: the client pointer of @flow (the backend's lock for it held). */
static inline void *tonic_dev_flow_priv(struct tonic_dev *dev, u32 flow)
{
	return flow < dev->max_flows ? dev->priv[flow] : NULL;
}
/*
 * Backend side: the client @flow's output goes to (the backend's lock for
 * it held): the one given at attach, else dev->client.  Valid while the
 * flow is in the backend, as its client pointer is.
 */
static inline const struct tonic_flow_client *tonic_dev_flow_client(struct tonic_dev *dev,
								     u32 flow)
{
	const struct tonic_flow_client *cl = NULL;

	if (flow < dev->max_flows)
		cl = READ_ONCE(dev->flows[flow].client);
	return cl ?: dev->client;
}
u32 tonic_dev_flows_in_use(struct tonic_dev *dev);

/*
 * Attach with a client of its own and TONIC_DEV_FLOW_* flags.  @client
 * (NULL: dev->client) gets the flow's descriptors and notes with @priv,
 * and describes it (info(), also for the namespace quota); a client
 * without info() has its flows shown in, and charged to, init_net.
 * TONIC_DEV_FLOW_SELF for flows the driver runs itself (priv is not for
 * a client; charged to no namespace), TONIC_DEV_FLOW_MOVE for a flow that
 * moves (not refused for its namespace's quota).  tonic_rdma.ko attaches
 * one flow per RC queue pair with a client of its own.
 */
int tonic_dev_flow_attach_flags(struct tonic_dev *dev, const struct tonic_flow_cfg *cfg,
				const struct tonic_flow_client *client, void *priv, u32 flags,
				u32 *flow);

/*
 * For clients in other modules (tonic_rdma.ko): the device's ops, called
 * as sock-glue calls them (any context, never sleep).
 */
int tonic_dev_push(struct tonic_dev *dev, u32 flow, u32 tail, u32 last_len);
int tonic_dev_incoming(struct tonic_dev *dev, u32 flow, const struct tonic_pkt *pkt);
int tonic_dev_flow_stats(struct tonic_dev *dev, u32 flow, struct tonic_flow_stats *st);
int tonic_dev_flow_set_param(struct tonic_dev *dev, u32 flow, const struct net *net, u32 idx,
			     u32 value);
/*
 * The same for an attached @flow, with id_lock held and @idx checked, the
 * backend's flow_set_param present: on the device, then in what flow-get
 * shows.
 */
int __tonic_dev_flow_set_param(struct tonic_dev *dev, u32 flow, u32 idx, u32 value);

/*
 * The device's program parameters (driver/params.c).  Set parameter @idx
 * of program @prog (one the device runs, else -ENOENT) to @value: new
 * flows of @prog that give it as 0 start with it, and so do, from their
 * next call, the live ones that did not set it (where the backend can
 * change a live flow); 0: the program's default again.  Process context.
 */
int tonic_dev_set_param(struct tonic_dev *dev, const char *prog, u32 idx, u32 value);
/* The next program with parameters set, from entry *@pos on; false: no more. */
bool tonic_dev_params_get(struct tonic_dev *dev, u32 *pos, struct tonic_dev_params *out);
/*
 * With id_lock held.  At attach: @cfg's zero parameters from the device's;
 * returns the mask of those the flow gave itself.  For a live, attached
 * @flow: its parameter @idx is @value, its own; 0: the device's again.
 */
u8 tonic_dev_params_fill(struct tonic_dev *dev, struct tonic_flow_cfg *cfg);
int tonic_dev_flow_param(struct tonic_dev *dev, u32 flow, u32 idx, u32 value);

/*
 * A device's counters: its own and its engine's (TONIC_DEVICE_COUNTERS),
 * and its backend's, @nbackend of them named by @backend_names.
 */
struct tonic_dev_counters {
#define TONIC_DEV_COUNTERS_FIELD(name, NAME, doc)	u64 name;
	TONIC_DEVICE_COUNTERS(TONIC_DEV_COUNTERS_FIELD)
#undef TONIC_DEV_COUNTERS_FIELD
	u32 nbackend;
	const char *const *backend_names;
	u64 backend[TONIC_DEV_BACKEND_MAX];
};
/* Snapshot them (the engine's through ops->dev_stats).  Does not sleep. */
void tonic_dev_counters(struct tonic_dev *dev, struct tonic_dev_counters *c);
/*
 * Backend side: the device declared @flow failed (TONIC_NOTE_FAILED, @reason
 * its value); call with the lock under which the backend delivers notes
 * held, before or after handing the note to the client.
 */
void tonic_dev_flow_failed(struct tonic_dev *dev, u32 flow, u32 reason);

/*
 * Admin side.  Devices stay registered until module exit (after the netlink
 * family is gone), so the pointers returned below stay valid for a request.
 */
struct tonic_dev *tonic_dev_get_nth(u32 n);
/* @fn on every registered device, in process context (may sleep). */
void tonic_dev_for_each(void (*fn)(struct tonic_dev *dev, void *arg), void *arg);
struct tonic_dev *tonic_dev_find(const char *name);
/*
 * One consistent look at an attached flow: what device.c recorded, the
 * client's info() and the device's counters (ops->flow_stats), taken
 * together under id_lock.  With @net, only a flow of that namespace
 * (sockets: their own; flows without a socket: init_net) is read, and the
 * device is not asked about any other.  Returns TONIC_FLOW_OWNER_* or
 * -ENOENT.
 */
int tonic_dev_flow_read(struct tonic_dev *dev, u32 flow, const struct net *net,
			struct tonic_flow_info *fi, struct tonic_flow_stats *st);
/*
 * @fn for each flow of @dev that @client attached, with its statistics,
 * under the device's id_lock (BH off: @fn must not sleep).  For listings
 * (debugfs); the caller learns nothing of other clients' flows.
 */
typedef void (*tonic_dev_flow_fn)(void *arg, struct tonic_dev *dev, u32 flow, void *priv,
				  const struct tonic_flow_stats *st);
void tonic_dev_for_each_flow(struct tonic_dev *dev, const struct tonic_flow_client *client,
			     tonic_dev_flow_fn fn, void *arg);
/* Program @idx of @dev (ops->prog_name or the registry) into @name; false past the end. */
bool tonic_dev_prog_name(struct tonic_dev *dev, u32 idx, char name[16]);

/* Backends. */
struct tonic_dev *tonic_soft_create(u32 max_flows, u32 cycle_ps, u32 engines);

#endif /* _TONIC_DEVICE_H */
