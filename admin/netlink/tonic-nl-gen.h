/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/tonic.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_TONIC_GEN_H
#define _LINUX_TONIC_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/tonic_nl.h>

extern const struct nla_policy tonic_dev_get_nl_policy[TONIC_A_DEV_NAME + 1];

extern const struct nla_policy tonic_flow_get_nl_policy[TONIC_A_FLOW_ALL_NETNS + 1];

extern const struct nla_policy tonic_stats_get_nl_policy[TONIC_A_STATS_DEV_NAME + 1];

extern const struct nla_policy tonic_defaults_get_nl_policy[TONIC_A_DEFAULTS_AUTO_OFFLOAD + 1];

extern const struct nla_policy tonic_defaults_set_nl_policy[TONIC_A_DEFAULTS_AUTO_OFFLOAD + 1];

extern const struct nla_policy tonic_sock_offload_nl_policy[TONIC_A_SOCK_OFFLOAD + 1];

extern const struct nla_policy tonic_flow_set_nl_policy[TONIC_A_FLOW_PARAM_VALUE + 1];

extern const struct nla_policy tonic_tenant_get_nl_policy[TONIC_A_TENANT_NAME + 1];

extern const struct nla_policy tonic_tenant_new_nl_policy[TONIC_A_TENANT_FIXED + 1];

extern const struct nla_policy tonic_tenant_del_nl_policy[TONIC_A_TENANT_NAME + 1];

extern const struct nla_policy tonic_dev_set_nl_policy[TONIC_A_DEV_PARAM_VALUE + 1];

/* Ops table for tonic */
extern const struct genl_ops tonic_nl_ops[11];

int tonic_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int tonic_nl_flow_get_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_flow_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int tonic_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_defaults_get_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_defaults_set_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_sock_offload_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_flow_set_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_tenant_get_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_tenant_get_dumpit(struct sk_buff *skb,
			       struct netlink_callback *cb);
int tonic_nl_tenant_new_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_tenant_del_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	TONIC_NLGRP_EVENTS,
};

#endif /* _LINUX_TONIC_GEN_H */
