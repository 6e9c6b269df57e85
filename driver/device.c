// SPDX-License-Identifier: GPL-2.0
/*
 * Tonic device registry and flow-id allocation.
 *
 * Flow ids are indices in [0, max_flows) of the device's flow table; the
 * first free one is taken (first come, first served).  A full table is not
 * an error for the caller's connection: sock-glue keeps it on software TCP.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/bitmap.h>
#include <linux/mutex.h>
#include "device.h"

static LIST_HEAD(tonic_devs);
static DEFINE_MUTEX(tonic_devs_lock);
static struct tonic_dev *tonic_default_dev;

int tonic_dev_register(struct tonic_dev *dev)
{
	if (!dev->ops || !dev->max_flows)
		return -EINVAL;
	spin_lock_init(&dev->id_lock);
	dev->ids = bitmap_zalloc(dev->max_flows, GFP_KERNEL);
	dev->priv = kvcalloc(dev->max_flows, sizeof(void *), GFP_KERNEL);
	if (!dev->ids || !dev->priv) {
		bitmap_free(dev->ids);
		kvfree(dev->priv);
		return -ENOMEM;
	}
	atomic64_set(&dev->flows_added, 0);
	atomic64_set(&dev->flows_full, 0);
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
	mutex_lock(&tonic_devs_lock);
	list_del(&dev->list);
	if (tonic_default_dev == dev)
		WRITE_ONCE(tonic_default_dev, list_first_entry_or_null(&tonic_devs,
								       struct tonic_dev, list));
	mutex_unlock(&tonic_devs_lock);
	WARN_ON_ONCE(tonic_dev_flows_in_use(dev));
	bitmap_free(dev->ids);
	kvfree(dev->priv);
	if (dev->ops->destroy)
		dev->ops->destroy(dev);
}

struct tonic_dev *tonic_dev_default(void)
{
	return READ_ONCE(tonic_default_dev);
}

int tonic_dev_flow_attach(struct tonic_dev *dev, const struct tonic_flow_cfg *cfg, void *priv,
			  u32 *flow)
{
	unsigned long id;
	int err;

	spin_lock_bh(&dev->id_lock);
	id = find_first_zero_bit(dev->ids, dev->max_flows);
	if (id >= dev->max_flows) {
		spin_unlock_bh(&dev->id_lock);
		atomic64_inc(&dev->flows_full);
		return -ENOSPC;
	}
	__set_bit(id, dev->ids);
	WRITE_ONCE(dev->priv[id], priv);
	spin_unlock_bh(&dev->id_lock);

	err = dev->ops->flow_add(dev, id, cfg);
	if (err) {
		spin_lock_bh(&dev->id_lock);
		WRITE_ONCE(dev->priv[id], NULL);
		__clear_bit(id, dev->ids);
		spin_unlock_bh(&dev->id_lock);
		return err;
	}
	atomic64_inc(&dev->flows_added);
	*flow = id;
	return 0;
}

void tonic_dev_flow_detach(struct tonic_dev *dev, u32 flow)
{
	if (WARN_ON_ONCE(flow >= dev->max_flows))
		return;
	/* The backend delivers under its own lock: after this, nothing for @flow. */
	dev->ops->flow_remove(dev, flow);
	spin_lock_bh(&dev->id_lock);
	WRITE_ONCE(dev->priv[flow], NULL);
	__clear_bit(flow, dev->ids);
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
