// SPDX-License-Identifier: GPL-2.0
/*
 * TONIC_CMD_FLOW_GET: the flows on the devices, with the device's own
 * counters (ops->flow_stats, so a PCIe device answers from its memory) and
 * what the flow's client says (4-tuple, program, C, T, state).  A caller
 * sees the flows of sockets in its network namespace; flows the driver
 * runs itself (self-tests) belong to init_net.  The device is asked for
 * the counters of those flows only (tonic_dev_flow_read).  With
 * TONIC_A_FLOW_ALL_NETNS, a caller with CAP_NET_ADMIN in init_net sees
 * every namespace's flows.
 */
#include <linux/socket.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include "nl.h"
#include "../../driver/device.h"
#include "../../driver/tenant.h"

/*
 * The namespace whose flows @skb's requester asks for: its own, or NULL
 * (all) with TONIC_A_FLOW_ALL_NETNS, which needs the host view.
 */
static int tonic_nl_flow_scope(const struct sk_buff *skb, struct nlattr **tb,
			       struct netlink_ext_ack *extack, struct net **net)
{
	*net = sock_net(skb->sk);
	if (!nla_get_flag(tb[TONIC_A_FLOW_ALL_NETNS]))
		return 0;
	if (!tonic_nl_host_view(skb)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[TONIC_A_FLOW_ALL_NETNS],
				    "every namespace's flows: needs CAP_NET_ADMIN in the initial network namespace");
		return -EPERM;
	}
	*net = NULL;
	return 0;
}

/*
 * The attributes of one flow.  @st is NULL for notifications.  @fi->net is
 * not dereferenced here (a dump may fill after the socket went away).
 */
int tonic_nl_fill_flow(struct sk_buff *skb, struct tonic_dev *dev, u32 flow, int owner,
		       const struct tonic_flow_info *fi, const struct tonic_flow_stats *st,
		       u32 reason)
{
	char tenant[TONIC_TENANT_NAME_MAX];
	int i;

	if (nla_put_string(skb, TONIC_A_FLOW_DEV, dev->name) ||
	    nla_put_u32(skb, TONIC_A_FLOW_ID, flow) ||
	    nla_put_u32(skb, TONIC_A_FLOW_OWNER, owner) ||
	    (fi->program[0] && nla_put_string(skb, TONIC_A_FLOW_PROGRAM, fi->program)) ||
	    nla_put_u32(skb, TONIC_A_FLOW_SEG_SIZE, fi->seg_size))
		return -EMSGSIZE;
	if (owner == TONIC_FLOW_OWNER_SOCKET &&
	    (nla_put_u32(skb, TONIC_A_FLOW_SUB_DELAY_US, fi->sub_delay_us) ||
	     nla_put_u32(skb, TONIC_A_FLOW_SK_STATE, fi->state) ||
	     (fi->netns_inum && nla_put_u32(skb, TONIC_A_FLOW_NETNS_INUM, fi->netns_inum))))
		return -EMSGSIZE;
	if (owner == TONIC_FLOW_OWNER_RDMA_QP &&
	    (nla_put_string(skb, TONIC_A_FLOW_RDMA_DEV, fi->rdma_dev) ||
	     nla_put_u32(skb, TONIC_A_FLOW_QPN, fi->qpn)))
		return -EMSGSIZE;
	if (fi->family == AF_INET &&
	    (nla_put_u16(skb, TONIC_A_FLOW_FAMILY, AF_INET) ||
	     nla_put_in_addr(skb, TONIC_A_FLOW_LOCAL_IPV4, fi->saddr4) ||
	     nla_put_in_addr(skb, TONIC_A_FLOW_REMOTE_IPV4, fi->daddr4)))
		return -EMSGSIZE;
	if (fi->family == AF_INET6 &&
	    (nla_put_u16(skb, TONIC_A_FLOW_FAMILY, AF_INET6) ||
	     nla_put_in6_addr(skb, TONIC_A_FLOW_LOCAL_IPV6, &fi->saddr6) ||
	     nla_put_in6_addr(skb, TONIC_A_FLOW_REMOTE_IPV6, &fi->daddr6)))
		return -EMSGSIZE;
	if ((fi->family == AF_INET || fi->family == AF_INET6) &&
	    (nla_put_be16(skb, TONIC_A_FLOW_LOCAL_PORT, fi->sport) ||
	     nla_put_be16(skb, TONIC_A_FLOW_REMOTE_PORT, fi->dport)))
		return -EMSGSIZE;
	if (reason && nla_put_u32(skb, TONIC_A_FLOW_FAIL_REASON, reason))
		return -EMSGSIZE;
	if (!st)
		return 0;
	if (nla_put_u32(skb, TONIC_A_FLOW_DEV_STATE, st->state) ||
	    nla_put_u32(skb, TONIC_A_FLOW_CWND, st->cwnd) ||
	    nla_put_u32(skb, TONIC_A_FLOW_RATE_KBPS, st->rate_kbps) ||
	    nla_put_u32(skb, TONIC_A_FLOW_CREDIT, st->credit) ||
	    nla_put_u64_64bit(skb, TONIC_A_FLOW_BYTES_SENT, st->bytes_sent, TONIC_A_FLOW_PAD) ||
	    nla_put_u64_64bit(skb, TONIC_A_FLOW_SEGS_SENT, st->segs_sent, TONIC_A_FLOW_PAD) ||
	    nla_put_u64_64bit(skb, TONIC_A_FLOW_SEGS_RTX, st->segs_rtx, TONIC_A_FLOW_PAD) ||
	    nla_put_u64_64bit(skb, TONIC_A_FLOW_SEGS_ACKED, st->segs_acked, TONIC_A_FLOW_PAD) ||
	    nla_put_u64_64bit(skb, TONIC_A_FLOW_TIMEOUTS, st->timeouts, TONIC_A_FLOW_PAD) ||
	    nla_put_u64_64bit(skb, TONIC_A_FLOW_NACKS, st->nacks, TONIC_A_FLOW_PAD) ||
	    nla_put_u64_64bit(skb, TONIC_A_FLOW_CNPS, st->cnps, TONIC_A_FLOW_PAD) ||
	    nla_put_u64_64bit(skb, TONIC_A_FLOW_LAST_RTT_NS,
			      div_u64((u64)st->last_rtt * dev->cycle_ps, 1000), TONIC_A_FLOW_PAD) ||
	    nla_put_u32(skb, TONIC_A_FLOW_WND_START, st->wnd_start) ||
	    nla_put_u32(skb, TONIC_A_FLOW_HIGHEST_SENT, st->highest_sent) ||
	    nla_put_u32(skb, TONIC_A_FLOW_TAIL, st->tail))
		return -EMSGSIZE;
	for (i = 0; i < TONIC_PROG_PARAMS; i++)
		if (nla_put_u32(skb, TONIC_A_FLOW_PARAM, fi->param[i]))
			return -EMSGSIZE;
	if (tonic_tenant_name(fi->tenant, tenant) &&
	    nla_put_string(skb, TONIC_A_FLOW_TENANT, tenant))
		return -EMSGSIZE;
	for (i = 0; (st->state & TONIC_FLOW_INFO) && i < TONIC_PROG_INFO && fi->info_name[i][0];
	     i++) {
		struct nlattr *nest = nla_nest_start(skb, TONIC_A_FLOW_PROG_INFO);

		if (!nest || nla_put_string(skb, TONIC_A_PINFO_NAME, fi->info_name[i]) ||
		    nla_put_u32(skb, TONIC_A_PINFO_VALUE, st->prog_info[i]))
			return -EMSGSIZE;
		nla_nest_end(skb, nest);
	}
	return 0;
}

static int tonic_nl_flow_msg(struct sk_buff *skb, struct tonic_dev *dev, u32 flow, int owner,
			     const struct tonic_flow_info *fi, const struct tonic_flow_stats *st,
			     u32 portid, u32 seq, int flags)
{
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &tonic_genl_family, flags, TONIC_CMD_FLOW_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (tonic_nl_fill_flow(skb, dev, flow, owner, fi, st, 0)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

int tonic_nl_flow_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct tonic_flow_info fi;
	struct tonic_flow_stats st;
	struct tonic_dev *dev;
	struct sk_buff *msg;
	struct net *net;
	u32 flow;
	int owner, err;

	if (GENL_REQ_ATTR_CHECK(info, TONIC_A_FLOW_DEV) ||
	    GENL_REQ_ATTR_CHECK(info, TONIC_A_FLOW_ID))
		return -EINVAL;
	err = tonic_nl_flow_scope(skb, tb, info->extack, &net);
	if (err)
		return err;
	dev = tonic_dev_find(nla_data(tb[TONIC_A_FLOW_DEV]));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[TONIC_A_FLOW_DEV], "no such Tonic device");
		return -ENODEV;
	}
	flow = nla_get_u32(tb[TONIC_A_FLOW_ID]);
	owner = tonic_dev_flow_read(dev, flow, net, &fi, &st);
	if (owner < 0) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[TONIC_A_FLOW_ID],
				    "no such flow in this network namespace");
		return -ENOENT;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = tonic_nl_flow_msg(msg, dev, flow, owner, &fi, &st, info->snd_portid,
				info->snd_seq, 0);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/*
 * cb->args[0]: device index, cb->args[1]: next flow id, cb->args[2]: the
 * scope was checked.  The scope is checked once, at the first call (the
 * generated per-op ops table has no .start): a refusal ends the dump with
 * EPERM in its NLMSG_DONE, with the extack message.
 */
int tonic_nl_flow_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	struct nlattr *fdev = di->attrs[TONIC_A_FLOW_DEV];
	struct nlattr *fprog = di->attrs[TONIC_A_FLOW_PROGRAM];
	struct nlattr *fid = di->attrs[TONIC_A_FLOW_ID];
	struct net *net = sock_net(cb->skb->sk);
	struct tonic_flow_info fi;
	struct tonic_flow_stats st;
	struct tonic_dev *dev;
	u32 idx = cb->args[0], flow = cb->args[1];
	int owner, err;

	if (!cb->args[2]) {
		err = tonic_nl_flow_scope(cb->skb, di->attrs, cb->extack, &net);
		if (err)
			return err;
		cb->args[2] = 1;
	} else if (nla_get_flag(di->attrs[TONIC_A_FLOW_ALL_NETNS])) {
		net = NULL;	/* allowed at the first call */
	}

	for (; (dev = tonic_dev_get_nth(idx)); idx++, flow = 0) {
		if (fdev && strcmp(dev->name, nla_data(fdev)))
			continue;
		if (fid && flow < nla_get_u32(fid))
			flow = nla_get_u32(fid);
		for (; flow < dev->max_flows; flow++) {
			/* A hint without the lock; tonic_dev_flow_read checks again. */
			flow = find_next_bit(dev->ids, dev->max_flows, flow);
			if (flow >= dev->max_flows || (fid && flow != nla_get_u32(fid)))
				break;
			owner = tonic_dev_flow_read(dev, flow, net, &fi, &st);
			if (owner < 0)
				continue;
			if (fprog && strcmp(fi.program, nla_data(fprog)))
				continue;
			if (tonic_nl_flow_msg(skb, dev, flow, owner, &fi, &st,
					      NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
					      NLM_F_MULTI))
				goto out;
		}
	}
out:
	cb->args[0] = idx;
	cb->args[1] = flow;
	return skb->len;
}

/*
 * One program parameter of one flow of the requester's namespace (never
 * another's: the same ENOENT as for no flow at all).
 */
int tonic_nl_flow_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct tonic_dev *dev;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, TONIC_A_FLOW_DEV) ||
	    GENL_REQ_ATTR_CHECK(info, TONIC_A_FLOW_ID) ||
	    GENL_REQ_ATTR_CHECK(info, TONIC_A_FLOW_PARAM_INDEX) ||
	    GENL_REQ_ATTR_CHECK(info, TONIC_A_FLOW_PARAM_VALUE))
		return -EINVAL;
	dev = tonic_dev_find(nla_data(tb[TONIC_A_FLOW_DEV]));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[TONIC_A_FLOW_DEV], "no such Tonic device");
		return -ENODEV;
	}
	err = tonic_dev_flow_set_param(dev, nla_get_u32(tb[TONIC_A_FLOW_ID]), sock_net(skb->sk),
				       nla_get_u32(tb[TONIC_A_FLOW_PARAM_INDEX]),
				       nla_get_u32(tb[TONIC_A_FLOW_PARAM_VALUE]));
	if (err == -ENOENT)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[TONIC_A_FLOW_ID],
				    "no such flow in this network namespace");
	else if (err == -EOPNOTSUPP)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[TONIC_A_FLOW_DEV],
				    "the device cannot change a live flow's parameters");
	return err;
}
