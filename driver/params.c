// SPDX-License-Identifier: GPL-2.0
/*
 * A device's program parameters: the values its flows of a program start
 * with where their client gave none (0), as a NIC has one set of DCQCN
 * constants for all its QPs (mlx5's roce_rp sysfs files).  The admin sets
 * them over netlink (TONIC_CMD_DEV_SET); a change reaches the live flows
 * of the program that did not set that parameter themselves, where the
 * backend can change a live flow.  0 gives a parameter back to the
 * program's own default.  Under the device's id_lock, with its flows.
 */
#include <linux/bitops.h>
#include <linux/string.h>
#include "device.h"
#include "registry.h"

static struct tonic_dev_params *tonic_dev_params_find(struct tonic_dev *dev, const char *prog)
{
	u32 i;

	for (i = 0; i < TONIC_DEV_PARAM_PROGS; i++)
		if (!strcmp(dev->params[i].prog, prog))
			return &dev->params[i];
	return NULL;
}

/* @dev's value of parameter @idx for flows of @prog, 0 if none (id_lock held). */
static u32 tonic_dev_param(struct tonic_dev *dev, const char *prog, u32 idx)
{
	const struct tonic_dev_params *p = tonic_dev_params_find(dev, prog);

	return p ? p->param[idx] : 0;
}

u8 tonic_dev_params_fill(struct tonic_dev *dev, struct tonic_flow_cfg *cfg)
{
	const struct tonic_dev_params *p = tonic_dev_params_find(dev, cfg->prog->name);
	u8 own = 0;
	u32 i;

	for (i = 0; i < TONIC_PROG_PARAMS; i++) {
		if (cfg->param[i])
			own |= BIT(i);
		else if (p)
			cfg->param[i] = p->param[i];
	}
	return own;
}

int tonic_dev_flow_param(struct tonic_dev *dev, u32 flow, u32 idx, u32 value)
{
	struct tonic_dev_flow *df = &dev->flows[flow];
	int err;

	err = __tonic_dev_flow_set_param(dev, flow, idx, value ?:
					 tonic_dev_param(dev, df->prog->name, idx));
	if (!err && value)
		df->param_own |= BIT(idx);
	else if (!err)
		df->param_own &= ~BIT(idx);
	return err;
}

static bool tonic_dev_runs(struct tonic_dev *dev, const char *prog)
{
	char name[TONIC_PROG_NAME_MAX];
	u32 i;

	for (i = 0; tonic_dev_prog_name(dev, i, name); i++)
		if (!strcmp(name, prog))
			return true;
	return false;
}

int tonic_dev_set_param(struct tonic_dev *dev, const char *prog, u32 idx, u32 value)
{
	static const struct tonic_dev_params none;
	struct tonic_dev_params *p;
	int err = 0;
	u32 id;

	if (idx >= TONIC_PROG_PARAMS)
		return -EINVAL;
	if (!tonic_dev_runs(dev, prog))
		return -ENOENT;
	spin_lock_bh(&dev->id_lock);
	p = tonic_dev_params_find(dev, prog);
	if (!p && value) {
		p = tonic_dev_params_find(dev, "");
		if (!p) {
			err = -ENOSPC;
			goto out;
		}
		strscpy(p->prog, prog, sizeof(p->prog));
	}
	if (!p)
		goto out;
	p->param[idx] = value;
	if (!memcmp(p->param, none.param, sizeof(p->param)))
		*p = none;
	/* Bounded by the table; id_lock keeps flows from coming or going. */
	if (!dev->ops->flow_set_param)
		goto out;
	for_each_set_bit(id, dev->ids, dev->max_flows) {
		struct tonic_dev_flow *df = &dev->flows[id];

		if (dev->priv[id] && df->prog && !strcmp(df->prog->name, prog) &&
		    !(df->param_own & BIT(idx)))
			__tonic_dev_flow_set_param(dev, id, idx, value);
	}
out:
	spin_unlock_bh(&dev->id_lock);
	return err;
}

bool tonic_dev_params_get(struct tonic_dev *dev, u32 *pos, struct tonic_dev_params *out)
{
	bool found = false;

	spin_lock_bh(&dev->id_lock);
	for (; *pos < TONIC_DEV_PARAM_PROGS && !found; (*pos)++) {
		found = dev->params[*pos].prog[0];
		if (found)
			*out = dev->params[*pos];
	}
	spin_unlock_bh(&dev->id_lock);
	return found;
}
