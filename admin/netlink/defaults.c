// SPDX-License-Identifier: GPL-2.0
/*
 * TONIC_CMD_DEFAULTS_GET / _SET: the per-namespace defaults (program, C, T,
 * auto-offload) of the requester's network namespace, the same values as
 * the net.tonic.* sysctls.  Setting needs CAP_NET_ADMIN in that namespace.
 */
#include <net/net_namespace.h>
#include "nl.h"
#include "../admin.h"

int tonic_nl_defaults_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net *net = genl_info_net(info);
	struct tonic_defaults d;
	struct sk_buff *msg;
	void *hdr;

	tonic_defaults_get(net, &d);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &tonic_genl_family, 0, TONIC_CMD_DEFAULTS_GET);
	if (!hdr ||
	    nla_put_string(msg, TONIC_A_DEFAULTS_PROGRAM, d.program) ||
	    nla_put_u32(msg, TONIC_A_DEFAULTS_SEG_SIZE, d.seg_size) ||
	    nla_put_u32(msg, TONIC_A_DEFAULTS_SUB_DELAY_US, d.sub_delay_us) ||
	    nla_put_u8(msg, TONIC_A_DEFAULTS_AUTO_OFFLOAD, d.auto_offload) ||
	    nla_put_u32(msg, TONIC_A_DEFAULTS_NETNS_INUM, net->ns.inum)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

int tonic_nl_defaults_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct net *net = genl_info_net(info);
	struct tonic_defaults d;
	int err;

	if (!tb[TONIC_A_DEFAULTS_PROGRAM] && !tb[TONIC_A_DEFAULTS_SEG_SIZE] &&
	    !tb[TONIC_A_DEFAULTS_SUB_DELAY_US] && !tb[TONIC_A_DEFAULTS_AUTO_OFFLOAD]) {
		NL_SET_ERR_MSG(info->extack, "nothing to set");
		return -EINVAL;
	}
	tonic_defaults_get(net, &d);
	if (tb[TONIC_A_DEFAULTS_PROGRAM])
		nla_strscpy(d.program, tb[TONIC_A_DEFAULTS_PROGRAM], sizeof(d.program));
	if (tb[TONIC_A_DEFAULTS_SEG_SIZE])
		d.seg_size = nla_get_u32(tb[TONIC_A_DEFAULTS_SEG_SIZE]);
	if (tb[TONIC_A_DEFAULTS_SUB_DELAY_US])
		d.sub_delay_us = nla_get_u32(tb[TONIC_A_DEFAULTS_SUB_DELAY_US]);
	if (tb[TONIC_A_DEFAULTS_AUTO_OFFLOAD])
		d.auto_offload = nla_get_u8(tb[TONIC_A_DEFAULTS_AUTO_OFFLOAD]);
	err = tonic_defaults_set(net, &d);
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[TONIC_A_DEFAULTS_PROGRAM],
				    "no such transport program");
	return err;
}
