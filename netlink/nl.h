/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family "tonic" (Documentation/netlink/specs/tonic.yaml):
 * family.c registers it; one file per object (dev, flow, stats, defaults,
 * sock) holds the handlers; event.c the notifications.
 */
#ifndef _TONIC_NL_H
#define _TONIC_NL_H

#include <net/genetlink.h>
#include <uapi/linux/tonic.h>

struct tonic_dev;
struct tonic_flow_info;
struct tonic_flow_stats;

#define TONIC_DEV_NAME_MAX	31

enum tonic_nl_groups {
	TONIC_NLGRP_EVENTS,
};

extern struct genl_family tonic_genl_family;

/* Policies (family.c). */
extern const struct nla_policy tonic_dev_policy[TONIC_A_DEV_MAX + 1];
extern const struct nla_policy tonic_flow_policy[TONIC_A_FLOW_MAX + 1];
extern const struct nla_policy tonic_stats_policy[TONIC_A_STATS_MAX + 1];
extern const struct nla_policy tonic_defaults_policy[TONIC_A_DEFAULTS_MAX + 1];
extern const struct nla_policy tonic_sock_policy[TONIC_A_SOCK_MAX + 1];

/* dev.c */
int tonic_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
/* flow.c */
int tonic_nl_flow_get_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_flow_get_start(struct netlink_callback *cb);
int tonic_nl_flow_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int tonic_nl_fill_flow(struct sk_buff *skb, struct tonic_dev *dev, u32 flow, int owner,
		       const struct tonic_flow_info *fi, const struct tonic_flow_stats *st,
		       u32 reason);
/* stats.c */
int tonic_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
/* defaults.c */
int tonic_nl_defaults_get_doit(struct sk_buff *skb, struct genl_info *info);
int tonic_nl_defaults_set_doit(struct sk_buff *skb, struct genl_info *info);
/* sock.c */
int tonic_nl_sock_offload_doit(struct sk_buff *skb, struct genl_info *info);

/*
 * family.c: may the requester of @skb see host-wide views (every
 * namespace's flows, the devices' counters)?  Only with CAP_NET_ADMIN in
 * the initial user namespace (the socket's opener and the caller both),
 * asking from init_net.
 */
bool tonic_nl_host_view(const struct sk_buff *skb);

/* family.c: module init/exit. */
int tonic_nl_init(void);
void tonic_nl_exit(void);

#endif /* _TONIC_NL_H */
