// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "tonic": attribute policies, operations, the
 * "events" multicast group.  Every attribute a request may carry is
 * validated here (strict parsing: unknown attributes, wrong lengths and
 * out-of-range values are refused with an extack message); commands that
 * change state need CAP_NET_ADMIN in the network namespace of the
 * requesting socket (GENL_UNS_ADMIN_PERM).  Reads are scoped to the
 * requester's namespace; host-wide views need CAP_NET_ADMIN in init_net
 * (tonic_nl_host_view).
 */
#include <linux/module.h>
#include <linux/capability.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include "nl.h"
#include "event.h"
#include "tonic.h"

static bool tonic_nl_up;

const struct nla_policy tonic_dev_policy[TONIC_A_DEV_MAX + 1] = {
	[TONIC_A_DEV_NAME]	= { .type = NLA_NUL_STRING, .len = TONIC_DEV_NAME_MAX },
};

const struct nla_policy tonic_flow_policy[TONIC_A_FLOW_MAX + 1] = {
	[TONIC_A_FLOW_DEV]	= { .type = NLA_NUL_STRING, .len = TONIC_DEV_NAME_MAX },
	[TONIC_A_FLOW_ID]	= NLA_POLICY_MAX(NLA_U32, TONIC_MAX_FLOWS - 1),
	[TONIC_A_FLOW_PROGRAM]	= { .type = NLA_NUL_STRING, .len = 15 },
	[TONIC_A_FLOW_ALL_NETNS] = { .type = NLA_FLAG },
};

const struct nla_policy tonic_stats_policy[TONIC_A_STATS_MAX + 1] = {
	[TONIC_A_STATS_DEV_NAME] = { .type = NLA_NUL_STRING, .len = TONIC_DEV_NAME_MAX },
	[TONIC_A_STATS_DEV]	= { .type = NLA_REJECT },
	[TONIC_A_STATS_SOCK]	= { .type = NLA_REJECT },
	[TONIC_A_STATS_NETNS]	= { .type = NLA_REJECT },
	[TONIC_A_STATS_HOST]	= { .type = NLA_REJECT },
};

static struct netlink_range_validation tonic_seg_range = {
	.max = TONIC_SEG_SIZE_MAX,
};

static struct netlink_range_validation tonic_delay_range = {
	.max = TONIC_SUB_DELAY_MAX_US,
};

const struct nla_policy tonic_defaults_policy[TONIC_A_DEFAULTS_MAX + 1] = {
	[TONIC_A_DEFAULTS_PROGRAM]	= { .type = NLA_NUL_STRING, .len = 15 },
	[TONIC_A_DEFAULTS_SEG_SIZE]	= NLA_POLICY_FULL_RANGE(NLA_U32, &tonic_seg_range),
	[TONIC_A_DEFAULTS_SUB_DELAY_US]	= NLA_POLICY_FULL_RANGE(NLA_U32, &tonic_delay_range),
	[TONIC_A_DEFAULTS_AUTO_OFFLOAD]	= NLA_POLICY_MAX(NLA_U8, 1),
	[TONIC_A_DEFAULTS_NETNS_INUM]	= { .type = NLA_REJECT },
};

const struct nla_policy tonic_sock_policy[TONIC_A_SOCK_MAX + 1] = {
	[TONIC_A_SOCK_LOCAL_IPV4]	= { .type = NLA_BE32 },
	[TONIC_A_SOCK_REMOTE_IPV4]	= { .type = NLA_BE32 },
	[TONIC_A_SOCK_LOCAL_IPV6]	= NLA_POLICY_EXACT_LEN(16),
	[TONIC_A_SOCK_REMOTE_IPV6]	= NLA_POLICY_EXACT_LEN(16),
	[TONIC_A_SOCK_LOCAL_PORT]	= { .type = NLA_BE16 },
	[TONIC_A_SOCK_REMOTE_PORT]	= { .type = NLA_BE16 },
	[TONIC_A_SOCK_OFFLOAD]		= NLA_POLICY_MAX(NLA_U8, 1),
};

static const struct genl_ops tonic_nl_ops[] = {
	{
		.cmd	= TONIC_CMD_DEV_GET,
		.doit	= tonic_nl_dev_get_doit,
		.dumpit	= tonic_nl_dev_get_dumpit,
		.policy	= tonic_dev_policy,
		.maxattr = TONIC_A_DEV_MAX,
	},
	{
		.cmd	= TONIC_CMD_FLOW_GET,
		.doit	= tonic_nl_flow_get_doit,
		.start	= tonic_nl_flow_get_start,
		.dumpit	= tonic_nl_flow_get_dumpit,
		.policy	= tonic_flow_policy,
		.maxattr = TONIC_A_FLOW_MAX,
	},
	{
		.cmd	= TONIC_CMD_STATS_GET,
		.doit	= tonic_nl_stats_get_doit,
		.policy	= tonic_stats_policy,
		.maxattr = TONIC_A_STATS_MAX,
	},
	{
		.cmd	= TONIC_CMD_DEFAULTS_GET,
		.doit	= tonic_nl_defaults_get_doit,
		.policy	= tonic_defaults_policy,
		.maxattr = TONIC_A_DEFAULTS_MAX,
	},
	{
		.cmd	= TONIC_CMD_DEFAULTS_SET,
		.doit	= tonic_nl_defaults_set_doit,
		.policy	= tonic_defaults_policy,
		.maxattr = TONIC_A_DEFAULTS_MAX,
		.flags	= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd	= TONIC_CMD_SOCK_OFFLOAD,
		.doit	= tonic_nl_sock_offload_doit,
		.policy	= tonic_sock_policy,
		.maxattr = TONIC_A_SOCK_MAX,
		.flags	= GENL_UNS_ADMIN_PERM,
	},
};

static const struct genl_multicast_group tonic_nl_mcgrps[] = {
	[TONIC_NLGRP_EVENTS] = { .name = TONIC_MCGRP_EVENTS },
};

struct genl_family tonic_genl_family __ro_after_init = {
	.name		= TONIC_GENL_NAME,
	.version	= TONIC_GENL_VERSION,
	.netnsok	= true,
	.module		= THIS_MODULE,
	.ops		= tonic_nl_ops,
	.n_ops		= ARRAY_SIZE(tonic_nl_ops),
	.mcgrps		= tonic_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(tonic_nl_mcgrps),
};

bool tonic_nl_host_view(const struct sk_buff *skb)
{
	return net_eq(sock_net(skb->sk), &init_net) && netlink_capable(skb, CAP_NET_ADMIN);
}

bool tonic_nl_flow_event_wanted(void)
{
	return READ_ONCE(tonic_nl_up);
}

int tonic_nl_init(void)
{
	int err = genl_register_family(&tonic_genl_family);

	if (!err)
		WRITE_ONCE(tonic_nl_up, true);
	return err;
}

void tonic_nl_exit(void)
{
	WRITE_ONCE(tonic_nl_up, false);
	genl_unregister_family(&tonic_genl_family);
}
