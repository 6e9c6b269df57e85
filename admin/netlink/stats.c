// SPDX-License-Identifier: GPL-2.0
/*
 * TONIC_CMD_STATS_GET: the requester's namespace (its flow quota, flows
 * held, attaches refused), and for the host view (tonic_nl_host_view)
 * each device's engine counters (bad input, overflow, conflicts...
 * through ops->dev_stats) and the TCP integration's counters host-wide
 * (offloaded, fallbacks and why).  Other requesters get the integration's
 * counters of their namespace when it keeps them per namespace, and no
 * device counters: those mix every namespace's traffic.
 */
#include <net/net_namespace.h>
#include "nl.h"
#include "../../driver/device.h"
#include "../admin.h"
#include "../../driver/quota.h"
#include "../../driver/counters.h"

#define PUT64(skb, a, v, pad)	nla_put_u64_64bit(skb, a, v, pad)

/* One attribute per counter of the tables (counters.h), named after it. */
#define TONIC_NL_PUT_DSTAT(name, NAME, doc)				\
	PUT64(skb, TONIC_A_DSTATS_##NAME, c.name, TONIC_A_DSTATS_PAD) ||
#define TONIC_NL_PUT_SSTAT(name, NAME, doc)				\
	PUT64(skb, TONIC_A_SSTATS_##NAME, s->name, TONIC_A_SSTATS_PAD) ||
#define TONIC_NL_PUT_NSTAT(name, NAME, doc)				\
	PUT64(skb, TONIC_A_NSTATS_##NAME, q.name, TONIC_A_NSTATS_PAD) ||

static int tonic_nl_fill_dstats(struct sk_buff *skb, struct tonic_dev *dev)
{
	struct tonic_dev_counters c;
	struct nlattr *nest;
	u32 i;

	tonic_dev_counters(dev, &c);
	nest = nla_nest_start(skb, TONIC_A_STATS_DEV);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_string(skb, TONIC_A_DSTATS_DEV, dev->name) ||
	    TONIC_DEVICE_COUNTERS(TONIC_NL_PUT_DSTAT) false)
		goto nospace;
	for (i = 0; i < c.nbackend; i++) {
		struct nlattr *b = nla_nest_start(skb, TONIC_A_DSTATS_BACKEND);

		if (!b || nla_put_string(skb, TONIC_A_BCTR_NAME, c.backend_names[i]) ||
		    PUT64(skb, TONIC_A_BCTR_VALUE, c.backend[i], TONIC_A_BCTR_PAD))
			goto nospace;
		nla_nest_end(skb, b);
	}
	nla_nest_end(skb, nest);
	return 0;
nospace:
	nla_nest_cancel(skb, nest);
	return -EMSGSIZE;
}

static int tonic_nl_fill_sstats(struct sk_buff *skb, const struct tonic_sock_stats *s)
{
	struct nlattr *nest = nla_nest_start(skb, TONIC_A_STATS_SOCK);

	if (!nest)
		return -EMSGSIZE;
	if (TONIC_SOCK_GAUGES(TONIC_NL_PUT_SSTAT)
	    TONIC_SOCK_COUNTERS(TONIC_NL_PUT_SSTAT) false) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int tonic_nl_fill_nstats(struct sk_buff *skb, const struct net *net)
{
	struct tonic_netq_stats q;
	struct nlattr *nest;

	tonic_netq_stats(net, &q);
	nest = nla_nest_start(skb, TONIC_A_STATS_NETNS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(skb, TONIC_A_NSTATS_NETNS_INUM, net->ns.inum) ||
	    nla_put_u32(skb, TONIC_A_NSTATS_MAX_FLOWS, q.max_flows) ||
	    nla_put_u32(skb, TONIC_A_NSTATS_FLOWS, q.flows) ||
	    TONIC_NETNS_COUNTERS(TONIC_NL_PUT_NSTAT) false) {
		nla_nest_cancel(skb, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

int tonic_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *fdev = info->attrs[TONIC_A_STATS_DEV_NAME];
	struct net *net = genl_info_net(info);
	bool host = tonic_nl_host_view(skb);
	struct tonic_sock_stats ss;
	struct tonic_dev *dev;
	struct sk_buff *msg;
	bool have_sock;
	void *hdr;
	u32 i;

	if (fdev && !tonic_dev_find(nla_data(fdev))) {
		NL_SET_ERR_MSG_ATTR(info->extack, fdev, "no such Tonic device");
		return -ENODEV;
	}
	/* Host-wide for the host view, else this namespace's if the integration can. */
	have_sock = !tonic_sock_stats(host ? NULL : net, &ss);
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &tonic_genl_family, 0, TONIC_CMD_STATS_GET);
	if (!hdr)
		goto nospace;
	if (tonic_nl_fill_nstats(msg, net))
		goto nospace;
	if (host && nla_put_flag(msg, TONIC_A_STATS_HOST))
		goto nospace;
	for (i = 0; host && (dev = tonic_dev_get_nth(i)); i++) {
		if (fdev && strcmp(dev->name, nla_data(fdev)))
			continue;
		if (tonic_nl_fill_dstats(msg, dev))
			goto nospace;
	}
	if (have_sock && tonic_nl_fill_sstats(msg, &ss))
		goto nospace;
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
nospace:
	nlmsg_free(msg);
	return -EMSGSIZE;
}
