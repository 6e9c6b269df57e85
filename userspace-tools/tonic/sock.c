// SPDX-License-Identifier: GPL-2.0
/*
 * tonic sock offload on|off LOCAL_IP LOCAL_PORT REMOTE_IP REMOTE_PORT
 * tonic sock show [port N] (sockdiag.c)
 */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include "tonic.h"

struct sock_req {
	int af;
	unsigned char l[16], r[16];
	uint16_t lport, rport;	/* network order */
	uint8_t on;
};

static int sock_build(struct nl_msg *msg, void *arg)
{
	struct sock_req *q = arg;
	int la = q->af == AF_INET ? TONIC_A_SOCK_LOCAL_IPV4 : TONIC_A_SOCK_LOCAL_IPV6;
	int ra = q->af == AF_INET ? TONIC_A_SOCK_REMOTE_IPV4 : TONIC_A_SOCK_REMOTE_IPV6;
	int len = q->af == AF_INET ? 4 : 16;

	if (nla_put(msg, la, len, q->l) || nla_put(msg, ra, len, q->r) ||
	    nla_put_u16(msg, TONIC_A_SOCK_LOCAL_PORT, q->lport) ||
	    nla_put_u16(msg, TONIC_A_SOCK_REMOTE_PORT, q->rport) ||
	    nla_put_u8(msg, TONIC_A_SOCK_OFFLOAD, q->on))
		return -EMSGSIZE;
	return 0;
}

static int parse_addr(const char *s, int *af, unsigned char *out)
{
	if (inet_pton(AF_INET, s, out) == 1) {
		*af = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, out) == 1) {
		*af = AF_INET6;
		return 0;
	}
	return -1;
}

int cmd_sock(int argc, char **argv)
{
	struct sock_req q = { 0 };
	uint32_t port;
	int af2;

	static const struct word cmds[] = {
		{ "show", 0 }, { "list", 0 }, { "help", 1 }, { "offload", 2 }, { NULL, 0 }
	};
	int c = argc > 0 ? match_word("sock: command", argv[0], cmds) : -1;

	if (c == 1) {
		printf("Usage: tonic sock offload on|off LOCAL_IP LOCAL_PORT REMOTE_IP REMOTE_PORT\n"
		       "       tonic sock show [port N]\n");
		return 0;
	}
	if (c == 0)
		return sock_show(argc - 1, argv + 1);
	if (c != 2)
		usage_error("sock: expected \"show\" or \"offload\" (tonic sock offload on|off SRC SPORT DST DPORT)");
	if (argc != 6)
		usage_error("sock offload: expected on|off LOCAL_IP LOCAL_PORT REMOTE_IP REMOTE_PORT");
	if (!strcmp(argv[1], "on"))
		q.on = 1;
	else if (strcmp(argv[1], "off"))
		usage_error("sock offload: \"on\" or \"off\", not \"%s\"", argv[1]);
	if (parse_addr(argv[2], &q.af, q.l))
		usage_error("sock offload: \"%s\" is not an IP address", argv[2]);
	if (parse_addr(argv[4], &af2, q.r))
		usage_error("sock offload: \"%s\" is not an IP address", argv[4]);
	if (af2 != q.af)
		usage_error("sock offload: both addresses must be IPv4 or both IPv6");
	if (parse_u32("local port", argv[3], 65535, &port) || !port)
		usage_error("sock offload: bad local port \"%s\"", argv[3]);
	q.lport = htons(port);
	if (parse_u32("remote port", argv[5], 65535, &port) || !port)
		usage_error("sock offload: bad remote port \"%s\"", argv[5]);
	q.rport = htons(port);
	return tn_request("sock offload", TONIC_CMD_SOCK_OFFLOAD, false, TONIC_A_SOCK_MAX,
			  sock_build, NULL, &q);
}
