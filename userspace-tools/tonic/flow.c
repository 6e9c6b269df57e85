// SPDX-License-Identifier: GPL-2.0
/* tonic flow show [dev NAME] [id N] [prog P] [netns all] */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include "tonic.h"

struct flow_filter {
	const char *dev, *prog;
	uint32_t id;
	bool have_id, all_netns;
	int n;
};

static const char *owner_name(uint32_t o)
{
	switch (o) {
	case TONIC_FLOW_OWNER_SOCKET: return "socket";
	case TONIC_FLOW_OWNER_DEVICE: return "device";
	case TONIC_FLOW_OWNER_RDMA_QP: return "rdma-qp";
	default: return "unknown";
	}
}

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

static void addr_str(struct nlattr *a, int af, char *buf, size_t len)
{
	size_t need = af == AF_INET ? 4 : 16;

	if (!a || (size_t)nla_len(a) != need || !inet_ntop(af, nla_data(a), buf, len))
		snprintf(buf, len, "?");
}

/* The repeated TONIC_A_FLOW_PARAM, in order: JSON an array, text "param A,B,...". */
static void params_print(void)
{
	struct nlmsghdr *nlh = tn_cur_msg();
	char text[4 * 11 + 1] = "";
	struct nlattr *a;
	size_t n = 0;
	int rem;

	if (!nlh)
		return;
	out_key_array("param");
	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem) {
		if (nla_type(a) != TONIC_A_FLOW_PARAM)
			continue;
		if (json)
			out_array_u64(tn_u32(a));
		else if (n < sizeof(text))
			n += snprintf(text + n, sizeof(text) - n, "%s%u", n ? "," : "", tn_u32(a));
	}
	if (json)
		out_end_array();
	else if (n)
		out_str("param", text);
}

/* The repeated TONIC_A_FLOW_PROG_INFO: JSON [{"name": N, "value": V}...], text "N V ...". */
static void prog_info_print(void)
{
	struct nlmsghdr *nlh = tn_cur_msg();
	struct nlattr *a, *b;
	int rem, rem2;

	if (!nlh)
		return;
	if (!json)
		out_text("\n    ");
	out_key_array("prog_info");
	nlmsg_for_each_attr(a, nlh, GENL_HDRLEN, rem) {
		const char *name = "?";
		uint32_t value = 0;

		if (nla_type(a) != TONIC_A_FLOW_PROG_INFO)
			continue;
		nla_for_each_nested(b, a, rem2) {
			if (nla_type(b) == TONIC_A_PINFO_NAME)
				name = tn_str(b);
			else if (nla_type(b) == TONIC_A_PINFO_VALUE)
				value = tn_u32(b);
		}
		if (json) {
			out_begin_object();
			out_str("name", name);
			out_u64("value", value);
			out_end_object();
		} else {
			out_u64(name, value);
		}
	}
	out_end_array();
}

void flow_print(struct nlattr **tb, const char *event)
{
	uint32_t owner = tn_u32(tb[TONIC_A_FLOW_OWNER]);
	uint16_t fam = tn_u16(tb[TONIC_A_FLOW_FAMILY]);

	out_begin_object();
	if (event && json)
		out_str("event", event);
	else if (event)
		out_text("%s ", event);
	out_str("dev", tn_str(tb[TONIC_A_FLOW_DEV]));
	out_u64(json ? "id" : "flow", tn_u32(tb[TONIC_A_FLOW_ID]));
	out_str("owner", owner_name(owner));
	if (tb[TONIC_A_FLOW_RDMA_DEV]) {
		out_str("rdma_dev", tn_str(tb[TONIC_A_FLOW_RDMA_DEV]));
		out_u64("qpn", tn_u32(tb[TONIC_A_FLOW_QPN]));
	}
	if (tb[TONIC_A_FLOW_PROGRAM])
		out_str(K("prog", "program"), tn_str(tb[TONIC_A_FLOW_PROGRAM]));
	out_u64("seg_size", tn_u32(tb[TONIC_A_FLOW_SEG_SIZE]));
	if (tb[TONIC_A_FLOW_TENANT])
		out_str("tenant", tn_str(tb[TONIC_A_FLOW_TENANT]));
	if (tb[TONIC_A_FLOW_SK_STATE]) {
		out_str(K("state", "sk_state"), sk_state_name(tn_u32(tb[TONIC_A_FLOW_SK_STATE])));
		out_u64("sub_delay_us", tn_u32(tb[TONIC_A_FLOW_SUB_DELAY_US]));
	}
	if (tb[TONIC_A_FLOW_FAIL_REASON])
		out_u64("fail_reason", tn_u32(tb[TONIC_A_FLOW_FAIL_REASON]));
	if (fam == AF_INET || fam == AF_INET6) {
		char l[INET6_ADDRSTRLEN], r[INET6_ADDRSTRLEN];

		addr_str(tb[fam == AF_INET ? TONIC_A_FLOW_LOCAL_IPV4 : TONIC_A_FLOW_LOCAL_IPV6],
			 fam, l, sizeof(l));
		addr_str(tb[fam == AF_INET ? TONIC_A_FLOW_REMOTE_IPV4 : TONIC_A_FLOW_REMOTE_IPV6],
			 fam, r, sizeof(r));
		if (!json)
			out_text("\n    ");
		out_str("family", fam == AF_INET ? "inet" : "inet6");
		out_str(K("local", fam == AF_INET ? "local_ipv4" : "local_ipv6"), l);
		out_u64(K("lport", "local_port"), ntohs(tn_u16(tb[TONIC_A_FLOW_LOCAL_PORT])));
		out_str(K("remote", fam == AF_INET ? "remote_ipv4" : "remote_ipv6"), r);
		out_u64(K("rport", "remote_port"), ntohs(tn_u16(tb[TONIC_A_FLOW_REMOTE_PORT])));
	}
	if (tb[TONIC_A_FLOW_NETNS_INUM])
		out_u64(K("netns", "netns_inum"), tn_u32(tb[TONIC_A_FLOW_NETNS_INUM]));
	if (tb[TONIC_A_FLOW_DEV_STATE]) {
		uint32_t ds = tn_u32(tb[TONIC_A_FLOW_DEV_STATE]);

		if (!json)
			out_text("\n    ");
		out_bool("failed", ds & 1);
		out_u64("cwnd", tn_u32(tb[TONIC_A_FLOW_CWND]));
		out_u64("rate_kbps", tn_u32(tb[TONIC_A_FLOW_RATE_KBPS]));
		out_u64("credit", tn_u32(tb[TONIC_A_FLOW_CREDIT]));
		out_u64("last_rtt_ns", tn_u64(tb[TONIC_A_FLOW_LAST_RTT_NS]));
		if (!json)
			out_text("\n    ");
		out_u64("bytes_sent", tn_u64(tb[TONIC_A_FLOW_BYTES_SENT]));
		out_u64("segs_sent", tn_u64(tb[TONIC_A_FLOW_SEGS_SENT]));
		out_u64("segs_rtx", tn_u64(tb[TONIC_A_FLOW_SEGS_RTX]));
		out_u64("segs_acked", tn_u64(tb[TONIC_A_FLOW_SEGS_ACKED]));
		out_u64("timeouts", tn_u64(tb[TONIC_A_FLOW_TIMEOUTS]));
		out_u64("nacks", tn_u64(tb[TONIC_A_FLOW_NACKS]));
		out_u64("cnps", tn_u64(tb[TONIC_A_FLOW_CNPS]));
		if (!json)
			out_text("\n    ");
		out_u64("wnd_start", tn_u32(tb[TONIC_A_FLOW_WND_START]));
		out_u64("highest_sent", tn_u32(tb[TONIC_A_FLOW_HIGHEST_SENT]));
		out_u64("tail", tn_u32(tb[TONIC_A_FLOW_TAIL]));
	}
	if (tb[TONIC_A_FLOW_PARAM])
		params_print();
	if (tb[TONIC_A_FLOW_PROG_INFO])
		prog_info_print();
	out_end_object();
	if (!json)
		out_text("\n");
}

static int flow_build(struct nl_msg *msg, void *arg)
{
	struct flow_filter *f = arg;

	if (f->dev && nla_put_string(msg, TONIC_A_FLOW_DEV, f->dev))
		return -EMSGSIZE;
	if (f->have_id && nla_put_u32(msg, TONIC_A_FLOW_ID, f->id))
		return -EMSGSIZE;
	if (f->prog && nla_put_string(msg, TONIC_A_FLOW_PROGRAM, f->prog))
		return -EMSGSIZE;
	if (f->all_netns && nla_put_flag(msg, TONIC_A_FLOW_ALL_NETNS))
		return -EMSGSIZE;
	return 0;
}

static int flow_reply(struct nlattr **tb, int cmd, void *arg)
{
	struct flow_filter *f = arg;

	(void)cmd;
	f->n++;
	flow_print(tb, NULL);
	return 0;
}

struct flow_set_req {
	const char *dev;
	uint32_t id, idx, value;
};

static int flow_set_build(struct nl_msg *msg, void *arg)
{
	struct flow_set_req *r = arg;

	if (nla_put_string(msg, TONIC_A_FLOW_DEV, r->dev) ||
	    nla_put_u32(msg, TONIC_A_FLOW_ID, r->id) ||
	    nla_put_u32(msg, TONIC_A_FLOW_PARAM_INDEX, r->idx) ||
	    nla_put_u32(msg, TONIC_A_FLOW_PARAM_VALUE, r->value))
		return -EMSGSIZE;
	return 0;
}

/* tonic flow set DEV ID param INDEX VALUE */
static int flow_set(int argc, char **argv)
{
	static const struct word keys[] = { { "param", 0 }, { NULL, 0 } };
	struct flow_set_req r;

	if (argc != 5 || match_word("flow set: key", argv[2], keys) < 0)
		usage_error("flow set: DEV ID param INDEX VALUE");
	r.dev = argv[0];
	if (parse_u32("flow id", argv[1], UINT32_MAX, &r.id) ||
	    parse_u32("param index", argv[3], TONIC_PROG_PARAMS - 1, &r.idx) ||
	    parse_u32("param value", argv[4], UINT32_MAX, &r.value))
		return EXIT_USAGE;
	return tn_request("flow set", TONIC_CMD_FLOW_SET, false, TONIC_A_FLOW_MAX, flow_set_build,
			  NULL, &r);
}

int cmd_flow(int argc, char **argv)
{
	struct flow_filter f = { 0 };
	int err;

	static const struct word cmds[] = {
		{ "show", 0 }, { "list", 0 }, { "help", 1 }, { "set", 2 }, { NULL, 0 }
	};
	enum { F_DEV, F_PROG, F_ID, F_NETNS };
	static const struct word filters[] = {
		{ "dev", F_DEV }, { "prog", F_PROG }, { "program", F_PROG }, { "id", F_ID },
		{ "netns", F_NETNS }, { NULL, 0 }
	};

	if (argc > 0) {
		switch (match_word("flow: command", argv[0], cmds)) {
		case 0:
			argc--;
			argv++;
			break;
		case 1:
			printf("Usage: tonic flow show [dev NAME] [id N] [prog PROGRAM] [netns all]\n"
			       "       tonic flow set DEV ID param INDEX VALUE\n");
			return 0;
		case 2:
			return flow_set(argc - 1, argv + 1);
		default:
			usage_error("flow: unknown command \"%s\" (try: tonic flow show)", argv[0]);
		}
	}
	while (argc > 0) {
		int key = match_word("flow show: filter", argv[0], filters);

		if (key < 0)
			usage_error("flow show: unknown filter \"%s\" (dev, id, prog, netns)", argv[0]);
		if (argc < 2)
			usage_error("flow show: \"%s\" needs a value", argv[0]);
		switch (key) {
		case F_DEV:
			f.dev = argv[1];
			break;
		case F_PROG:
			f.prog = argv[1];
			break;
		case F_ID:
			if (parse_u32("flow id", argv[1], UINT32_MAX, &f.id))
				return EXIT_USAGE;
			f.have_id = true;
			break;
		case F_NETNS:
			if (strcmp(argv[1], "all"))
				usage_error("flow show: \"netns\" takes \"all\" (every namespace; "
					    "run under ip netns exec, or tonic -n, for another one)");
			f.all_netns = true;
			break;
		}
		argc -= 2;
		argv += 2;
	}
	/* A single flow by dev + id is a "get" (ENOENT if absent); else a filtered dump. */
	out_begin_array();
	err = tn_request("flow show", TONIC_CMD_FLOW_GET, !(f.dev && f.have_id && !f.prog),
			 TONIC_A_FLOW_MAX, flow_build, flow_reply, &f);
	/* A dump refused at its start carries no message (6.1 has no extack there). */
	if (err == -EPERM && f.all_netns)
		tn_default_errmsg("every namespace's flows: needs CAP_NET_ADMIN in the initial "
				  "network namespace");
	out_end_array();
	out_newline();
	return err;
}
