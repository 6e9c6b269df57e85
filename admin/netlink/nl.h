/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The generic netlink family "tonic" (Documentation/netlink/specs/tonic.yaml):
 * family.c registers it; one file per object (dev, flow, stats, defaults,
 * sock) holds the handlers; event.c the notifications.  The attribute
 * policies, the ops table, the handlers' prototypes and the multicast
 * group IDs are generated from the spec (tonic-nl-gen.[ch],
 * scripts/ynl-gen.sh).
 */
#ifndef _TONIC_NL_H
#define _TONIC_NL_H

#include <net/genetlink.h>
#include <uapi/linux/tonic.h>
#include "tonic-nl-gen.h"
#include "../../driver/device.h"

struct tonic_dev;
struct tonic_flow_info;
struct tonic_flow_stats;

extern struct genl_family tonic_genl_family;

/* flow.c */
int tonic_nl_fill_flow(struct sk_buff *skb, struct tonic_dev *dev, u32 flow, int owner,
		       const struct tonic_flow_info *fi, const struct tonic_flow_stats *st,
		       u32 reason);
/*
 * event.c: the device layer's event hook (tonic_dev_set_event_hook):
 * multicast the flow's TONIC_CMD_FLOW_*_NTF to the group "events" of its
 * netns (init_net for flows without a socket), if anyone listens there.
 */
void tonic_nl_flow_event(struct tonic_dev *dev, u32 flow, enum tonic_dev_event ev, int owner,
			 const struct tonic_flow_info *fi, u32 reason);

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
