// SPDX-License-Identifier: GPL-2.0
/*
 * tonic stats [dev NAME]: this namespace's flow quota and refusals; for a
 * host admin (CAP_NET_ADMIN in init_net) also every device's counters and
 * the TCP integration's host-wide counters.
 */
#include <stdio.h>
#include <string.h>
#include "tonic.h"
#include "../../driver/counters.h"

/* Each counter's key, as debugfs names it: from the tables (counters.h). */
#define DSTAT_NAME(name, NAME, doc)	[TONIC_A_DSTATS_##NAME] = #name,
#define NSTAT_NAME(name, NAME, doc)	[TONIC_A_NSTATS_##NAME] = #name,
#define SSTAT_NAME(name, NAME, doc)	[TONIC_A_SSTATS_##NAME] = #name,

static const char *const dstats_names[TONIC_A_DSTATS_MAX + 1] = {
	TONIC_DEVICE_COUNTERS(DSTAT_NAME)
};

static const char *const nstats_names[TONIC_A_NSTATS_MAX + 1] = {
	TONIC_NETNS_COUNTERS(NSTAT_NAME)
};

static const char *const sstats_names[TONIC_A_SSTATS_MAX + 1] = {
	TONIC_SOCK_GAUGES(SSTAT_NAME)
	TONIC_SOCK_COUNTERS(SSTAT_NAME)
};

/* The u64 counters of one nest, named by @names. */
static void print_counters(struct nlattr *nest, const char *const *names, int max)
{
	struct nlattr *a;
	int rem, n = 0;

	nla_for_each_nested(a, nest, rem) {
		int t = nla_type(a);

		if (t > max || !names[t])
			continue;
		if (!json && n && !(n % 6))
			out_text("\n    ");
		out_u64(names[t], tn_u64(a));
		n++;
	}
}

/* A device's backend counters (nests of name and value): object "backend". */
static void print_backend(struct nlattr *dev)
{
	struct nlattr *a;
	int rem, n = 0;

	nla_for_each_nested(a, dev, rem) {
		struct nlattr *tb[TONIC_A_BCTR_MAX + 1];

		if (nla_type(a) != TONIC_A_DSTATS_BACKEND ||
		    nla_parse_nested(tb, TONIC_A_BCTR_MAX, a, NULL) ||
		    !tb[TONIC_A_BCTR_NAME] || !tb[TONIC_A_BCTR_VALUE])
			continue;
		if (!n) {
			out_text("\n    backend: ");
			out_key_object("backend");
		} else if (!json && !(n % 6)) {
			out_text("\n        ");
		}
		out_u64(tn_str(tb[TONIC_A_BCTR_NAME]), tn_u64(tb[TONIC_A_BCTR_VALUE]));
		n++;
	}
	if (n)
		out_end_object();
}

static int stats_build(struct nl_msg *msg, void *arg)
{
	const char *dev = arg;

	return dev && nla_put_string(msg, TONIC_A_STATS_DEV_NAME, dev) ? -EMSGSIZE : 0;
}

static int stats_reply(struct nlattr **tb, int cmd, void *arg)
{
	struct genlmsghdr *gh = nlmsg_data(tn_cur_msg());
	struct nlattr *a, *d;
	int rem, rem2;

	(void)cmd;
	(void)arg;
	out_begin_object();
	if (tb[TONIC_A_STATS_NETNS]) {
		struct nlattr *nt[TONIC_A_NSTATS_MAX + 1];

		if (nla_parse_nested(nt, TONIC_A_NSTATS_MAX, tb[TONIC_A_STATS_NETNS], NULL))
			memset(nt, 0, sizeof(nt));
		if (!json)
			out_text("netns %u:\n    ", tn_u32(nt[TONIC_A_NSTATS_NETNS_INUM]));
		out_key_object("netns");
		if (json)
			out_u64(K("netns", "netns_inum"), tn_u32(nt[TONIC_A_NSTATS_NETNS_INUM]));
		out_u64("max_flows", tn_u32(nt[TONIC_A_NSTATS_MAX_FLOWS]));
		out_u64("flows", tn_u32(nt[TONIC_A_NSTATS_FLOWS]));
		print_counters(tb[TONIC_A_STATS_NETNS], nstats_names, TONIC_A_NSTATS_MAX);
		out_end_object();
		if (!json)
			out_text("\n");
	}
	if (json)
		out_bool("host", tb[TONIC_A_STATS_HOST] != NULL);
	else if (!tb[TONIC_A_STATS_HOST])
		out_text("(devices and host-wide counters: CAP_NET_ADMIN in the initial network namespace)\n");
	out_key_array("devices");
	nla_for_each_attr(a, genlmsg_attrdata(gh, 0), genlmsg_attrlen(gh, 0), rem) {
		if (nla_type(a) != TONIC_A_STATS_DEV)
			continue;
		out_begin_object();
		nla_for_each_nested(d, a, rem2)
			if (nla_type(d) == TONIC_A_DSTATS_DEV) {
				if (json)
					out_str("dev", tn_str(d));
				else
					out_text("dev %s:\n    ", tn_str(d));
			}
		print_counters(a, dstats_names, TONIC_A_DSTATS_MAX);
		print_backend(a);
		out_end_object();
		if (!json)
			out_text("\n");
	}
	out_end_array();
	if (tb[TONIC_A_STATS_SOCK]) {
		if (!json)
			out_text("sockets:\n    ");
		out_key_object("sockets");
		print_counters(tb[TONIC_A_STATS_SOCK], sstats_names, TONIC_A_SSTATS_MAX);
		out_end_object();
		if (!json)
			out_text("\n");
	} else if (!json && tb[TONIC_A_STATS_HOST]) {
		out_text("sockets: TCP offload not loaded\n");
	}
	out_end_object();
	return 0;
}

int cmd_stats(int argc, char **argv)
{
	const char *dev = NULL;
	int err;

	static const struct word cmds[] = {
		{ "show", 0 }, { "list", 0 }, { "help", 1 }, { "dev", 2 }, { NULL, 0 }
	};

	if (argc > 0) {
		switch (match_word("stats: command", argv[0], cmds)) {
		case 0:
			argc--;
			argv++;
			break;
		case 1:
			printf("Usage: tonic stats [show] [dev NAME]\n");
			return 0;
		}
	}
	if (argc == 2 && match_word("stats: filter", argv[0], cmds) == 2)
		dev = argv[1];
	else if (argc)
		usage_error("stats: unexpected \"%s\" (tonic stats [dev NAME])", argv[0]);
	err = tn_request("stats", TONIC_CMD_STATS_GET, false, TONIC_A_STATS_MAX, stats_build,
			 stats_reply, (void *)dev);
	out_newline();
	return err;
}
