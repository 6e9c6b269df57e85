// SPDX-License-Identifier: GPL-2.0
/*
 * tonic sock show [port N]: the TCP sockets of this network namespace
 * that have the "tonic" ULP, with what sock_diag says of them (the
 * TONIC_ULP_INFO nest inside INET_DIAG_ULP_INFO: the part of `ss -ti`
 * that iproute2's ss does not print).  The same dump ss makes; the
 * kernel fills the ULP's info for CAP_NET_ADMIN requesters only.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <linux/inet_diag.h>
#include <linux/sock_diag.h>
#include "tonic.h"

static const char *sk_state_name(uint32_t s)
{
	switch (s) {
	case TONIC_SK_SOFTWARE: return "software";
	case TONIC_SK_OFFLOADED: return "offloaded";
	case TONIC_SK_DRAINING: return "draining";
	case TONIC_SK_FALLBACK: return "fallback";
	case TONIC_SK_PENDING: return "pending";
	default: return "unknown";
	}
}

static void sock_print(const struct inet_diag_msg *m, struct nlattr **ti)
{
	char l[INET6_ADDRSTRLEN], r[INET6_ADDRSTRLEN];
	int af = m->idiag_family;

	inet_ntop(af, m->id.idiag_src, l, sizeof(l));
	inet_ntop(af, m->id.idiag_dst, r, sizeof(r));
	out_begin_object();
	out_str("local", l);
	out_u64("lport", ntohs(m->id.idiag_sport));
	out_str("remote", r);
	out_u64("rport", ntohs(m->id.idiag_dport));
	out_str("state", sk_state_name(tn_u32(ti[TONIC_ULP_INFO_STATE])));
	out_str("program", tn_str(ti[TONIC_ULP_INFO_PROGRAM]));
	out_u64("seg_size", tn_u32(ti[TONIC_ULP_INFO_SEG_SIZE]));
	out_u64("sub_delay_us", tn_u32(ti[TONIC_ULP_INFO_SUB_DELAY_US]));
	if (ti[TONIC_ULP_INFO_DEV]) {
		if (!json)
			out_text("\n    ");
		out_str("dev", tn_str(ti[TONIC_ULP_INFO_DEV]));
		out_u64("flow", tn_u32(ti[TONIC_ULP_INFO_FLOW]));
		out_u64("cwnd", tn_u32(ti[TONIC_ULP_INFO_CWND]));
		out_u64("rate_kbps", tn_u32(ti[TONIC_ULP_INFO_RATE_KBPS]));
		out_u64("timeouts", tn_u64(ti[TONIC_ULP_INFO_TIMEOUTS]));
	}
	if (!json)
		out_text("\n    ");
	out_u64("bytes_queued", tn_u64(ti[TONIC_ULP_INFO_BYTES_QUEUED]));
	out_u64("bytes_acked", tn_u64(ti[TONIC_ULP_INFO_BYTES_ACKED]));
	out_u64("segs_sent", tn_u64(ti[TONIC_ULP_INFO_SEGS_SENT]));
	out_u64("segs_rtx", tn_u64(ti[TONIC_ULP_INFO_SEGS_RTX]));
	out_u64("attaches", tn_u32(ti[TONIC_ULP_INFO_ATTACHES]));
	out_end_object();
	if (!json)
		out_text("\n");
}

/* One inet_diag message: printed if it is ours (and on @port, if given). */
static void sock_msg(struct nlmsghdr *h, uint16_t port, int *n)
{
	struct inet_diag_msg *m = NLMSG_DATA(h);
	struct nlattr *tb[INET_DIAG_MAX + 1], *tu[INET_ULP_INFO_MAX + 1];
	struct nlattr *ti[TONIC_ULP_INFO_MAX + 1] = { 0 };
	int hl = NLMSG_LENGTH(sizeof(*m));

	if (h->nlmsg_len < (unsigned int)hl)
		return;
	if (port && ntohs(m->id.idiag_sport) != port && ntohs(m->id.idiag_dport) != port)
		return;
	if (nla_parse(tb, INET_DIAG_MAX, (struct nlattr *)((char *)h + NLMSG_ALIGN(hl)),
		      h->nlmsg_len - NLMSG_ALIGN(hl), NULL))
		return;
	if (!tb[INET_DIAG_ULP_INFO] ||
	    nla_parse_nested(tu, INET_ULP_INFO_MAX, tb[INET_DIAG_ULP_INFO], NULL) ||
	    !tu[INET_ULP_INFO_NAME] || strcmp(tn_str(tu[INET_ULP_INFO_NAME]), TONIC_ULP_NAME))
		return;
	/* The nest has a type beyond INET_ULP_INFO_MAX: find it by hand. */
	{
		struct nlattr *a;
		int rem;

		nla_for_each_nested(a, tb[INET_DIAG_ULP_INFO], rem)
			if (nla_type(a) == TONIC_ULP_INFO)
				nla_parse_nested(ti, TONIC_ULP_INFO_MAX, a, NULL);
	}
	(*n)++;
	sock_print(m, ti);
}

static int sock_dump(int af, uint16_t port, int *n)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req = {
		.nlh = {
			.nlmsg_len = sizeof(req),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
			.nlmsg_seq = 1,
		},
		.r = {
			.sdiag_family = af,
			.sdiag_protocol = IPPROTO_TCP,
			.idiag_states = ~0U,
			.idiag_ext = 1 << (INET_DIAG_INFO - 1),
		},
	};
	static char buf[65536];
	int fd, err = 0;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -errno;
	if (send(fd, &req, sizeof(req), 0) < 0) {
		err = -errno;
		goto out;
	}
	for (;;) {
		ssize_t len = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (len < 0) {
			err = -errno;
			goto out;
		}
		if (len == 0)
			goto out;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type == NLMSG_DONE)
				goto out;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				err = e->error;
				goto out;
			}
			if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY)
				sock_msg(h, port, n);
		}
	}
out:
	close(fd);
	return err;
}

int sock_show(int argc, char **argv)
{
	uint32_t port = 0;
	int n = 0, err;

	static const struct word keys[] = { { "port", 0 }, { NULL, 0 } };

	if (argc == 2 && match_word("sock show: filter", argv[0], keys) == 0) {
		if (parse_u32("port", argv[1], 65535, &port) || !port)
			usage_error("sock show: bad port \"%s\"", argv[1]);
	} else if (argc) {
		usage_error("sock show: expected nothing or \"port N\"");
	}
	out_begin_array();
	err = sock_dump(AF_INET, port, &n);
	if (!err)
		err = sock_dump(AF_INET6, port, &n);
	out_end_array();
	out_newline();
	if (!err && !n && geteuid())
		fprintf(stderr, "tonic: sock show: none found; the kernel shows a socket's "
			"ULP to CAP_NET_ADMIN only\n");
	return err;
}
