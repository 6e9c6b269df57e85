/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Tonic device abstraction: what sock-glue (and later rdma-glue) sees of
 * a Tonic, whatever implements it.  A backend fills in struct tonic_dev_ops
 * (like net_device_ops); the core here owns flow-id allocation in [0, N)
 * and the per-flow client pointer the backend hands its output to.
 *
 * Contexts: every op may be called from process or softirq context and
 * must not sleep.  The backend calls the client's deliver() hooks from its
 * own worker, with the device lock held: they must be short (queue work).
 */
#ifndef _TONIC_DEVICE_H
#define _TONIC_DEVICE_H

#include <linux/spinlock.h>
#include <linux/list.h>
#include "tonic.h"

struct tonic_dev;

struct tonic_dev_ops {
	int (*flow_add)(struct tonic_dev *dev, u32 flow, const struct tonic_flow_cfg *cfg);
	int (*flow_remove)(struct tonic_dev *dev, u32 flow);
	/* New segments up to @tail (segment index), last one @last_len bytes. */
	int (*push)(struct tonic_dev *dev, u32 flow, u32 tail, u32 last_len);
	/* A control packet (ACK/SACK/ECE/...) for @flow. */
	int (*incoming)(struct tonic_dev *dev, u32 flow, const struct tonic_pkt *pkt);
	int (*flow_stats)(struct tonic_dev *dev, u32 flow, struct tonic_flow_stats *st);
	void (*dev_stats)(struct tonic_dev *dev, struct tonic_core_stats *st);
	void (*destroy)(struct tonic_dev *dev);
};

/* The consumer of a flow's output (descriptors and notifications). */
struct tonic_flow_client {
	void (*desc)(void *priv, const struct tonic_desc *d);
	void (*note)(void *priv, const struct tonic_note *n);
};

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
	atomic64_t flows_added, flows_full;
};

int tonic_dev_register(struct tonic_dev *dev);
void tonic_dev_unregister(struct tonic_dev *dev);
struct tonic_dev *tonic_dev_default(void);

/* Allocate a flow id and add the flow; -ENOSPC when the table is full. */
int tonic_dev_flow_attach(struct tonic_dev *dev, const struct tonic_flow_cfg *cfg, void *priv,
			  u32 *flow);
/* Remove the flow: after return no deliver() hook runs for it. */
void tonic_dev_flow_detach(struct tonic_dev *dev, u32 flow);
/* Backend side: the client pointer of @flow (device lock held). */
static inline void *tonic_dev_flow_priv(struct tonic_dev *dev, u32 flow)
{
	return flow < dev->max_flows ? dev->priv[flow] : NULL;
}
u32 tonic_dev_flows_in_use(struct tonic_dev *dev);

/* Backends. */
struct tonic_dev *tonic_soft_create(u32 max_flows, u32 cycle_ps);

#endif /* _TONIC_DEVICE_H */
