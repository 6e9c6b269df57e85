// SPDX-License-Identifier: GPL-2.0
/*
 * TONIC_CMD_SOCK_OFFLOAD: offload one established TCP socket of the
 * requester's network namespace, found by its 4-tuple, or hand it back
 * to software TCP.  The lookup is here; the toggle is the TCP
 * integration's (tonic_sock_ops.offload): -EOPNOTSUPP without it.
 */
#include <linux/in.h>
#include <linux/in6.h>
#include <net/sock.h>
#include <net/tcp.h>
#include <net/inet_hashtables.h>
#include <net/inet6_hashtables.h>
#include "nl.h"
#include "../admin.h"

static struct sock *tonic_nl_sock_lookup(struct net *net, struct nlattr **tb,
					 struct netlink_ext_ack *extack)
{
	struct inet_hashinfo *hinfo = net->ipv4.tcp_death_row.hashinfo;
	__be16 lport = nla_get_be16(tb[TONIC_A_SOCK_LOCAL_PORT]);
	__be16 rport = nla_get_be16(tb[TONIC_A_SOCK_REMOTE_PORT]);
	bool v4 = tb[TONIC_A_SOCK_LOCAL_IPV4] || tb[TONIC_A_SOCK_REMOTE_IPV4];
	bool v6 = tb[TONIC_A_SOCK_LOCAL_IPV6] || tb[TONIC_A_SOCK_REMOTE_IPV6];
	struct sock *sk = NULL;

	if (v4 == v6) {
		NL_SET_ERR_MSG(extack, "give the local and remote address, both IPv4 or both IPv6");
		return ERR_PTR(-EINVAL);
	}
	if (!lport || !rport) {
		NL_SET_ERR_MSG_ATTR(extack, lport ? tb[TONIC_A_SOCK_REMOTE_PORT] :
				    tb[TONIC_A_SOCK_LOCAL_PORT], "port 0");
		return ERR_PTR(-EINVAL);
	}
	if (v4) {
		if (NL_REQ_ATTR_CHECK(extack, NULL, tb, TONIC_A_SOCK_LOCAL_IPV4) ||
		    NL_REQ_ATTR_CHECK(extack, NULL, tb, TONIC_A_SOCK_REMOTE_IPV4))
			return ERR_PTR(-EINVAL);
		/* The packet's view: the peer is the source. */
		sk = inet_lookup_established(net, hinfo,
					     nla_get_in_addr(tb[TONIC_A_SOCK_REMOTE_IPV4]), rport,
					     nla_get_in_addr(tb[TONIC_A_SOCK_LOCAL_IPV4]), lport, 0);
	} else {
#if IS_ENABLED(CONFIG_IPV6)
		struct in6_addr la, ra;

		if (NL_REQ_ATTR_CHECK(extack, NULL, tb, TONIC_A_SOCK_LOCAL_IPV6) ||
		    NL_REQ_ATTR_CHECK(extack, NULL, tb, TONIC_A_SOCK_REMOTE_IPV6))
			return ERR_PTR(-EINVAL);
		la = nla_get_in6_addr(tb[TONIC_A_SOCK_LOCAL_IPV6]);
		ra = nla_get_in6_addr(tb[TONIC_A_SOCK_REMOTE_IPV6]);
		sk = __inet6_lookup_established(net, hinfo, &ra, rport, &la, ntohs(lport), 0, 0);
#else
		NL_SET_ERR_MSG(extack, "IPv6 is not available");
		return ERR_PTR(-EAFNOSUPPORT);
#endif
	}
	if (!sk) {
		NL_SET_ERR_MSG(extack, "no such TCP connection in this network namespace");
		return ERR_PTR(-ENOENT);
	}
	if (!sk_fullsock(sk) || sk->sk_state != TCP_ESTABLISHED) {
		sock_gen_put(sk);
		NL_SET_ERR_MSG(extack, "the TCP connection is not established");
		return ERR_PTR(-ENOTCONN);
	}
	return sk;
}

int tonic_nl_sock_offload_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct sock *sk;
	int err;

	if (GENL_REQ_ATTR_CHECK(info, TONIC_A_SOCK_OFFLOAD) ||
	    GENL_REQ_ATTR_CHECK(info, TONIC_A_SOCK_LOCAL_PORT) ||
	    GENL_REQ_ATTR_CHECK(info, TONIC_A_SOCK_REMOTE_PORT))
		return -EINVAL;
	sk = tonic_nl_sock_lookup(genl_info_net(info), tb, info->extack);
	if (IS_ERR(sk))
		return PTR_ERR(sk);
	err = tonic_sock_offload(sk, nla_get_u8(tb[TONIC_A_SOCK_OFFLOAD]), info->extack);
	sock_gen_put(sk);
	if (err == -EOPNOTSUPP && info->extack && !info->extack->_msg)
		NL_SET_ERR_MSG(info->extack, "the TCP offload (sock-glue) is not available");
	return err;
}
