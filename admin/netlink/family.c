// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "tonic": the family, the "events" multicast group.
 * The attribute policies and operations are generated from the spec
 * (tonic-nl-gen.c): every attribute a request may carry is validated
 * there (strict parsing: unknown attributes, wrong lengths and
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
#include "tonic.h"


/*
 * tonic-nl-gen.c has the same array, static: a genetlink-legacy spec gets
 * no generated family struct to use it.  The IDs (TONIC_NLGRP_*) and the
 * names (TONIC_MCGRP_*) come from the spec.
 */
static const struct genl_multicast_group tonic_genl_mcgrps[] = {
	[TONIC_NLGRP_EVENTS] = { .name = TONIC_MCGRP_EVENTS },
};

/* Policies and ops: tonic-nl-gen.c, from the spec. */
struct genl_family tonic_genl_family __ro_after_init = {
	.name		= TONIC_GENL_NAME,
	.version	= TONIC_GENL_VERSION,
	.netnsok	= true,
	.module		= THIS_MODULE,
	.ops		= tonic_nl_ops,
	.n_ops		= ARRAY_SIZE(tonic_nl_ops),
	.mcgrps		= tonic_genl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(tonic_genl_mcgrps),
};

bool tonic_nl_host_view(const struct sk_buff *skb)
{
	return net_eq(sock_net(skb->sk), &init_net) && netlink_capable(skb, CAP_NET_ADMIN);
}

int tonic_nl_init(void)
{
	int err = genl_register_family(&tonic_genl_family);

	if (!err)
		tonic_dev_set_event_hook(tonic_nl_flow_event);
	return err;
}

void tonic_nl_exit(void)
{
	tonic_dev_set_event_hook(NULL);
	genl_unregister_family(&tonic_genl_family);
}
