// SPDX-License-Identifier: GPL-2.0
/*
 * Notifications to the "events" group: a flow was added, removed or failed
 * on a device.  Sent into the flow's network namespace (init_net for the
 * driver's own flows), only when someone there listens; from any context.
 */
#include <net/net_namespace.h>
#include "nl.h"
#include "../../driver/device.h"

void tonic_nl_flow_event(struct tonic_dev *dev, u32 flow, enum tonic_dev_event ev, int owner,
			 const struct tonic_flow_info *fi, u32 reason)
{
	static const u8 cmds[] = {
		[TONIC_DEV_EV_ADD] = TONIC_CMD_FLOW_ADD_NTF,
		[TONIC_DEV_EV_DEL] = TONIC_CMD_FLOW_DEL_NTF,
		[TONIC_DEV_EV_FAIL] = TONIC_CMD_FLOW_FAIL_NTF,
	};
	u8 cmd = cmds[ev];
	struct net *net = (struct net *)((owner == TONIC_FLOW_OWNER_SOCKET && fi->net) ?
					 fi->net : &init_net);
	struct sk_buff *skb;
	void *hdr;

	if (!genl_has_listeners(&tonic_genl_family, net, TONIC_NLGRP_EVENTS))
		return;
	skb = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_ATOMIC);
	if (!skb)
		return;
	hdr = genlmsg_put(skb, 0, 0, &tonic_genl_family, 0, cmd);
	if (!hdr || tonic_nl_fill_flow(skb, dev, flow, owner, fi, NULL, reason)) {
		nlmsg_free(skb);
		return;
	}
	genlmsg_end(skb, hdr);
	genlmsg_multicast_netns(&tonic_genl_family, net, skb, 0, TONIC_NLGRP_EVENTS, GFP_ATOMIC);
}
