// SPDX-License-Identifier: GPL-2.0
/*
 * TONIC_CMD_DEV_GET: what each Tonic device is and can do.  Its use (flows
 * in use, added, refused for a full table) counts every namespace's flows:
 * only for the host view (tonic_nl_host_view); a namespace's own figures
 * are in STATS_GET.  TONIC_CMD_DEV_SET: its program parameters
 * (driver/params.c), the host's to set.
 */
#include "nl.h"
#include "../../driver/device.h"
#include "../admin.h"

static int tonic_nl_put_params(struct sk_buff *skb, struct tonic_dev *dev)
{
	struct tonic_dev_params p;
	struct nlattr *nest;
	u32 pos = 0, i;

	while (tonic_dev_params_get(dev, &pos, &p)) {
		nest = nla_nest_start(skb, TONIC_A_DEV_PROG_PARAM);
		if (!nest || nla_put_string(skb, TONIC_A_PPARAM_PROGRAM, p.prog))
			return -EMSGSIZE;
		for (i = 0; i < TONIC_PROG_PARAMS; i++)
			if (nla_put_u32(skb, TONIC_A_PPARAM_PARAM, p.param[i]))
				return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int tonic_nl_fill_dev(struct sk_buff *skb, struct tonic_dev *dev, u32 portid, u32 seq,
			     int flags, bool host)
{
	char prog[TONIC_PROG_NAME_MAX];
	void *hdr;
	u32 i;

	hdr = genlmsg_put(skb, portid, seq, &tonic_genl_family, flags, TONIC_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, TONIC_A_DEV_NAME, dev->name) ||
	    nla_put_string(skb, TONIC_A_DEV_BACKEND, dev->backend ? dev->backend : "unknown") ||
	    nla_put_u32(skb, TONIC_A_DEV_MAX_FLOWS, dev->max_flows) ||
	    nla_put_u32(skb, TONIC_A_DEV_WND_BITS, dev->wnd_bits) ||
	    nla_put_u32(skb, TONIC_A_DEV_RING_DEPTH, dev->ring_depth) ||
	    nla_put_u32(skb, TONIC_A_DEV_CYCLE_PS, dev->cycle_ps))
		goto cancel;
	if (host &&
	    (nla_put_u32(skb, TONIC_A_DEV_FLOWS_IN_USE, tonic_dev_flows_in_use(dev)) ||
	     nla_put_u64_64bit(skb, TONIC_A_DEV_FLOWS_ADDED, atomic64_read(&dev->flows_added),
			       TONIC_A_DEV_PAD) ||
	     nla_put_u64_64bit(skb, TONIC_A_DEV_FLOWS_FULL, atomic64_read(&dev->flows_full),
			       TONIC_A_DEV_PAD)))
		goto cancel;
	if (dev == tonic_dev_default() && nla_put_flag(skb, TONIC_A_DEV_DEFAULT))
		goto cancel;
	for (i = 0; tonic_dev_prog_name(dev, i, prog); i++)
		if (nla_put_string(skb, TONIC_A_DEV_PROGRAM, prog))
			goto cancel;
	if (tonic_nl_put_params(skb, dev))
		goto cancel;
	genlmsg_end(skb, hdr);
	return 0;
cancel:
	genlmsg_cancel(skb, hdr);
	return -EMSGSIZE;
}

/* The device the request names, or ERR_PTR(-EINVAL / -ENODEV), said in extack. */
static struct tonic_dev *tonic_nl_dev(struct genl_info *info)
{
	struct tonic_dev *dev;

	if (GENL_REQ_ATTR_CHECK(info, TONIC_A_DEV_NAME))
		return ERR_PTR(-EINVAL);
	dev = tonic_dev_find(nla_data(info->attrs[TONIC_A_DEV_NAME]));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[TONIC_A_DEV_NAME],
				    "no such Tonic device");
		return ERR_PTR(-ENODEV);
	}
	return dev;
}

int tonic_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct tonic_dev *dev = tonic_nl_dev(info);
	struct sk_buff *msg;
	int err;

	if (IS_ERR(dev))
		return PTR_ERR(dev);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = tonic_nl_fill_dev(msg, dev, info->snd_portid, info->snd_seq, 0,
				tonic_nl_host_view(skb));
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

int tonic_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	bool host = tonic_nl_host_view(cb->skb);
	struct tonic_dev *dev;
	u32 idx = cb->args[0];

	for (; (dev = tonic_dev_get_nth(idx)); idx++) {
		if (tonic_nl_fill_dev(skb, dev, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
				      NLM_F_MULTI, host))
			break;
	}
	cb->args[0] = idx;
	return skb->len;
}

int tonic_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct tonic_dev *dev;
	int err;

	if (!tonic_nl_host_view(skb)) {
		NL_SET_ERR_MSG(info->extack, "devices are the host's: CAP_NET_ADMIN from init_net");
		return -EPERM;
	}
	dev = tonic_nl_dev(info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	if (GENL_REQ_ATTR_CHECK(info, TONIC_A_DEV_PARAM_PROGRAM) ||
	    GENL_REQ_ATTR_CHECK(info, TONIC_A_DEV_PARAM_INDEX) ||
	    GENL_REQ_ATTR_CHECK(info, TONIC_A_DEV_PARAM_VALUE))
		return -EINVAL;
	err = tonic_dev_set_param(dev, nla_data(tb[TONIC_A_DEV_PARAM_PROGRAM]),
				  nla_get_u32(tb[TONIC_A_DEV_PARAM_INDEX]),
				  nla_get_u32(tb[TONIC_A_DEV_PARAM_VALUE]));
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[TONIC_A_DEV_PARAM_PROGRAM],
				    "the device does not run this program");
	else if (err == -ENOSPC)
		NL_SET_ERR_MSG(info->extack, "parameters set for too many programs");
	return err;
}
