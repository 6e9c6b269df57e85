// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/tonic.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "tonic-nl-gen.h"

#include <uapi/linux/tonic_nl.h>

/* Integer value ranges */
static const struct netlink_range_validation tonic_a_defaults_seg_size_range = {
	.max	= TONIC_SEG_SIZE_MAX,
};

static const struct netlink_range_validation tonic_a_defaults_sub_delay_us_range = {
	.max	= TONIC_SUB_DELAY_MAX_US,
};

static const struct netlink_range_validation tonic_a_tenant_fixed_range = {
	.max	= 65535ULL,
};

/* TONIC_CMD_DEV_GET - do */
const struct nla_policy tonic_dev_get_nl_policy[TONIC_A_DEV_NAME + 1] = {
	[TONIC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = TONIC_DEV_NAME_MAX, },
};

/* TONIC_CMD_FLOW_GET - do */
const struct nla_policy tonic_flow_get_nl_policy[TONIC_A_FLOW_ALL_NETNS + 1] = {
	[TONIC_A_FLOW_DEV] = { .type = NLA_NUL_STRING, .len = TONIC_DEV_NAME_MAX, },
	[TONIC_A_FLOW_ID] = NLA_POLICY_MAX(NLA_U32, 2047),
	[TONIC_A_FLOW_PROGRAM] = { .type = NLA_NUL_STRING, .len = 15, },
	[TONIC_A_FLOW_ALL_NETNS] = { .type = NLA_FLAG, },
};

/* TONIC_CMD_STATS_GET - do */
const struct nla_policy tonic_stats_get_nl_policy[TONIC_A_STATS_DEV_NAME + 1] = {
	[TONIC_A_STATS_DEV_NAME] = { .type = NLA_NUL_STRING, .len = TONIC_DEV_NAME_MAX, },
};

/* TONIC_CMD_DEFAULTS_GET - do */
const struct nla_policy tonic_defaults_get_nl_policy[TONIC_A_DEFAULTS_AUTO_OFFLOAD + 1] = {
	[TONIC_A_DEFAULTS_PROGRAM] = { .type = NLA_NUL_STRING, .len = 15, },
	[TONIC_A_DEFAULTS_SEG_SIZE] = NLA_POLICY_FULL_RANGE(NLA_U32, &tonic_a_defaults_seg_size_range),
	[TONIC_A_DEFAULTS_SUB_DELAY_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &tonic_a_defaults_sub_delay_us_range),
	[TONIC_A_DEFAULTS_AUTO_OFFLOAD] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* TONIC_CMD_DEFAULTS_SET - do */
const struct nla_policy tonic_defaults_set_nl_policy[TONIC_A_DEFAULTS_AUTO_OFFLOAD + 1] = {
	[TONIC_A_DEFAULTS_PROGRAM] = { .type = NLA_NUL_STRING, .len = 15, },
	[TONIC_A_DEFAULTS_SEG_SIZE] = NLA_POLICY_FULL_RANGE(NLA_U32, &tonic_a_defaults_seg_size_range),
	[TONIC_A_DEFAULTS_SUB_DELAY_US] = NLA_POLICY_FULL_RANGE(NLA_U32, &tonic_a_defaults_sub_delay_us_range),
	[TONIC_A_DEFAULTS_AUTO_OFFLOAD] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* TONIC_CMD_SOCK_OFFLOAD - do */
const struct nla_policy tonic_sock_offload_nl_policy[TONIC_A_SOCK_OFFLOAD + 1] = {
	[TONIC_A_SOCK_LOCAL_IPV4] = { .type = NLA_U32, },
	[TONIC_A_SOCK_REMOTE_IPV4] = { .type = NLA_U32, },
	[TONIC_A_SOCK_LOCAL_IPV6] = NLA_POLICY_EXACT_LEN(16),
	[TONIC_A_SOCK_REMOTE_IPV6] = NLA_POLICY_EXACT_LEN(16),
	[TONIC_A_SOCK_LOCAL_PORT] = { .type = NLA_U16, },
	[TONIC_A_SOCK_REMOTE_PORT] = { .type = NLA_U16, },
	[TONIC_A_SOCK_OFFLOAD] = NLA_POLICY_MAX(NLA_U8, 1),
};

/* TONIC_CMD_FLOW_SET - do */
const struct nla_policy tonic_flow_set_nl_policy[TONIC_A_FLOW_PARAM_VALUE + 1] = {
	[TONIC_A_FLOW_DEV] = { .type = NLA_NUL_STRING, .len = TONIC_DEV_NAME_MAX, },
	[TONIC_A_FLOW_ID] = NLA_POLICY_MAX(NLA_U32, 2047),
	[TONIC_A_FLOW_PARAM_INDEX] = NLA_POLICY_MAX(NLA_U32, 7),
	[TONIC_A_FLOW_PARAM_VALUE] = { .type = NLA_U32, },
};

/* TONIC_CMD_TENANT_GET - do */
const struct nla_policy tonic_tenant_get_nl_policy[TONIC_A_TENANT_NAME + 1] = {
	[TONIC_A_TENANT_NAME] = { .type = NLA_NUL_STRING, .len = 15, },
};

/* TONIC_CMD_TENANT_NEW - do */
const struct nla_policy tonic_tenant_new_nl_policy[TONIC_A_TENANT_FIXED + 1] = {
	[TONIC_A_TENANT_NAME] = { .type = NLA_NUL_STRING, .len = 15, },
	[TONIC_A_TENANT_UID] = { .type = NLA_U32, },
	[TONIC_A_TENANT_CGROUP] = { .type = NLA_U64, },
	[TONIC_A_TENANT_FIXED] = NLA_POLICY_FULL_RANGE(NLA_U32, &tonic_a_tenant_fixed_range),
};

/* TONIC_CMD_TENANT_DEL - do */
const struct nla_policy tonic_tenant_del_nl_policy[TONIC_A_TENANT_NAME + 1] = {
	[TONIC_A_TENANT_NAME] = { .type = NLA_NUL_STRING, .len = 15, },
};

/* TONIC_CMD_DEV_SET - do */
const struct nla_policy tonic_dev_set_nl_policy[TONIC_A_DEV_PARAM_VALUE + 1] = {
	[TONIC_A_DEV_NAME] = { .type = NLA_NUL_STRING, .len = TONIC_DEV_NAME_MAX, },
	[TONIC_A_DEV_PARAM_PROGRAM] = { .type = NLA_NUL_STRING, .len = 15, },
	[TONIC_A_DEV_PARAM_INDEX] = NLA_POLICY_MAX(NLA_U32, 7),
	[TONIC_A_DEV_PARAM_VALUE] = { .type = NLA_U32, },
};

/* Ops table for tonic */
const struct genl_ops tonic_nl_ops[11] = {
	{
		.cmd		= TONIC_CMD_DEV_GET,
		.doit		= tonic_nl_dev_get_doit,
		.dumpit		= tonic_nl_dev_get_dumpit,
		.policy		= tonic_dev_get_nl_policy,
		.maxattr	= TONIC_A_DEV_NAME,
	},
	{
		.cmd		= TONIC_CMD_FLOW_GET,
		.doit		= tonic_nl_flow_get_doit,
		.dumpit		= tonic_nl_flow_get_dumpit,
		.policy		= tonic_flow_get_nl_policy,
		.maxattr	= TONIC_A_FLOW_ALL_NETNS,
	},
	{
		.cmd		= TONIC_CMD_STATS_GET,
		.doit		= tonic_nl_stats_get_doit,
		.policy		= tonic_stats_get_nl_policy,
		.maxattr	= TONIC_A_STATS_DEV_NAME,
	},
	{
		.cmd		= TONIC_CMD_DEFAULTS_GET,
		.doit		= tonic_nl_defaults_get_doit,
		.policy		= tonic_defaults_get_nl_policy,
		.maxattr	= TONIC_A_DEFAULTS_AUTO_OFFLOAD,
	},
	{
		.cmd		= TONIC_CMD_DEFAULTS_SET,
		.doit		= tonic_nl_defaults_set_doit,
		.policy		= tonic_defaults_set_nl_policy,
		.maxattr	= TONIC_A_DEFAULTS_AUTO_OFFLOAD,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= TONIC_CMD_SOCK_OFFLOAD,
		.doit		= tonic_nl_sock_offload_doit,
		.policy		= tonic_sock_offload_nl_policy,
		.maxattr	= TONIC_A_SOCK_OFFLOAD,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= TONIC_CMD_FLOW_SET,
		.doit		= tonic_nl_flow_set_doit,
		.policy		= tonic_flow_set_nl_policy,
		.maxattr	= TONIC_A_FLOW_PARAM_VALUE,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= TONIC_CMD_TENANT_GET,
		.doit		= tonic_nl_tenant_get_doit,
		.dumpit		= tonic_nl_tenant_get_dumpit,
		.policy		= tonic_tenant_get_nl_policy,
		.maxattr	= TONIC_A_TENANT_NAME,
	},
	{
		.cmd		= TONIC_CMD_TENANT_NEW,
		.doit		= tonic_nl_tenant_new_doit,
		.policy		= tonic_tenant_new_nl_policy,
		.maxattr	= TONIC_A_TENANT_FIXED,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= TONIC_CMD_TENANT_DEL,
		.doit		= tonic_nl_tenant_del_doit,
		.policy		= tonic_tenant_del_nl_policy,
		.maxattr	= TONIC_A_TENANT_NAME,
		.flags		= GENL_ADMIN_PERM,
	},
	{
		.cmd		= TONIC_CMD_DEV_SET,
		.doit		= tonic_nl_dev_set_doit,
		.policy		= tonic_dev_set_nl_policy,
		.maxattr	= TONIC_A_DEV_PARAM_VALUE,
		.flags		= GENL_ADMIN_PERM,
	},
};

static const struct genl_multicast_group tonic_nl_mcgrps[] = {
	[TONIC_NLGRP_EVENTS] = { "events", },
};
