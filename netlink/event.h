/* SPDX-License-Identifier: GPL-2.0 */
/* Flow added/removed/failed notifications (group "events"), for driver/device.c. */
#ifndef _TONIC_NL_EVENT_H
#define _TONIC_NL_EVENT_H

#include <linux/types.h>

struct tonic_dev;
struct tonic_flow_info;

/* False while the family is not registered: skip building the info. */
bool tonic_nl_flow_event_wanted(void);
/*
 * Multicast @cmd (TONIC_CMD_FLOW_*_NTF) for @flow to the flow's netns
 * (init_net for flows without a socket), if anyone listens there.  Any
 * context; GFP_ATOMIC.
 */
void tonic_nl_flow_event(struct tonic_dev *dev, u32 flow, u8 cmd, int owner,
			 const struct tonic_flow_info *fi, u32 reason);

#endif /* _TONIC_NL_EVENT_H */
