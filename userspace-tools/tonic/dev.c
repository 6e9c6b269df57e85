// SPDX-License-Identifier: GPL-2.0
/*
 * tonic dev show [[dev] NAME]
 * tonic dev set DEV prog PROGRAM param INDEX VALUE
 */
#include <stdio.h>
#include <string.h>
#include "tonic.h"

/*
 * One TONIC_A_DEV_PROG_PARAM nest: JSON {"program": P, "param": [...]},
 * text "params P A,B,...".
 */
static void prog_param_print(struct nlattr *nest)
{
	struct nlattr *a;
	int rem, n = 0;

	out_begin_object();
	nla_for_each_nested(a, nest, rem)
		if (nla_type(a) == TONIC_A_PPARAM_PROGRAM) {
			if (!json)
				out_text("\n    params %s ", tn_str(a));
			else
				out_str("program", tn_str(a));
		}
	out_key_array("param");
	nla_for_each_nested(a, nest, rem)
		if (nla_type(a) == TONIC_A_PPARAM_PARAM) {
			if (json)
				out_array_u64(tn_u32(a));
			else
				out_text("%s%u", n++ ? "," : "", tn_u32(a));
		}
	out_end_array();
	out_end_object();
}

static int dev_build(struct nl_msg *msg, void *arg)
{
	const char *name = arg;

	return name && nla_put_string(msg, TONIC_A_DEV_NAME, name) ? -EMSGSIZE : 0;
}

static int dev_reply(struct nlattr **tb, int cmd, void *arg)
{
	struct nlattr *a;
	int rem;

	(void)cmd;
	(void)arg;
	out_begin_object();
	if (!json)
		out_text("%s: ", tn_str(tb[TONIC_A_DEV_NAME]));
	else
		out_str("name", tn_str(tb[TONIC_A_DEV_NAME]));
	out_str("backend", tn_str(tb[TONIC_A_DEV_BACKEND]));
	out_u64("max_flows", tn_u32(tb[TONIC_A_DEV_MAX_FLOWS]));
	/* The device's use counts every namespace: the kernel says it to host admins only. */
	if (tb[TONIC_A_DEV_FLOWS_IN_USE])
		out_u64("flows_in_use", tn_u32(tb[TONIC_A_DEV_FLOWS_IN_USE]));
	out_u64("wnd_bits", tn_u32(tb[TONIC_A_DEV_WND_BITS]));
	out_u64("ring_depth", tn_u32(tb[TONIC_A_DEV_RING_DEPTH]));
	out_u64("cycle_ps", tn_u32(tb[TONIC_A_DEV_CYCLE_PS]));
	out_bool("default", tb[TONIC_A_DEV_DEFAULT] != NULL);
	if (tb[TONIC_A_DEV_FLOWS_ADDED] || tb[TONIC_A_DEV_FLOWS_FULL]) {
		if (!json)
			out_text("\n    ");
		out_u64("flows_added", tn_u64(tb[TONIC_A_DEV_FLOWS_ADDED]));
		out_u64("flows_full", tn_u64(tb[TONIC_A_DEV_FLOWS_FULL]));
	}
	if (!json)
		out_text("\n    programs ");
	out_key_array(K("programs", "program"));
	/* Every TONIC_A_DEV_PROGRAM (tb[] keeps only the last one). */
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(tn_cur_msg()), 0),
			  genlmsg_attrlen(nlmsg_data(tn_cur_msg()), 0), rem)
		if (nla_type(a) == TONIC_A_DEV_PROGRAM)
			out_array_str(tn_str(a));
	out_end_array();
	if (tb[TONIC_A_DEV_PROG_PARAM]) {
		out_key_array("prog_param");
		nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(tn_cur_msg()), 0),
				  genlmsg_attrlen(nlmsg_data(tn_cur_msg()), 0), rem)
			if (nla_type(a) == TONIC_A_DEV_PROG_PARAM)
				prog_param_print(a);
		out_end_array();
	}
	out_end_object();
	if (!json)
		out_text("\n");
	return 0;
}

struct dev_set_req {
	const char *dev, *prog;
	uint32_t idx, value;
};

static int dev_set_build(struct nl_msg *msg, void *arg)
{
	const struct dev_set_req *r = arg;

	if (nla_put_string(msg, TONIC_A_DEV_NAME, r->dev) ||
	    nla_put_string(msg, TONIC_A_DEV_PARAM_PROGRAM, r->prog) ||
	    nla_put_u32(msg, TONIC_A_DEV_PARAM_INDEX, r->idx) ||
	    nla_put_u32(msg, TONIC_A_DEV_PARAM_VALUE, r->value))
		return -EMSGSIZE;
	return 0;
}

/* tonic dev set DEV prog PROGRAM param INDEX VALUE */
static int dev_set(int argc, char **argv)
{
	static const struct word prog[] = { { "prog", 0 }, { "program", 0 }, { NULL, 0 } };
	static const struct word param[] = { { "param", 0 }, { NULL, 0 } };
	struct dev_set_req r;

	if (argc != 6 || match_word("dev set: key", argv[1], prog) < 0 ||
	    match_word("dev set: key", argv[3], param) < 0)
		usage_error("dev set: DEV prog PROGRAM param INDEX VALUE");
	r.dev = argv[0];
	r.prog = argv[2];
	if (parse_u32("param index", argv[4], TONIC_PROG_PARAMS - 1, &r.idx) ||
	    parse_u32("param value", argv[5], UINT32_MAX, &r.value))
		return EXIT_USAGE;
	return tn_request("dev set", TONIC_CMD_DEV_SET, false, TONIC_A_DEV_MAX, dev_set_build,
			  NULL, &r);
}

int cmd_dev(int argc, char **argv)
{
	const char *name = NULL;
	int err;

	static const struct word cmds[] = {
		{ "show", 0 }, { "list", 0 }, { "help", 1 }, { "set", 2 }, { NULL, 0 }
	};

	if (argc > 0) {
		switch (match_word("dev: command", argv[0], cmds)) {
		case 0:
			argc--;
			argv++;
			break;
		case 1:
			printf("Usage: tonic dev show [[dev] NAME]\n"
			       "       tonic dev set DEV prog PROGRAM param INDEX VALUE\n");
			return 0;
		case 2:
			return dev_set(argc - 1, argv + 1);
		default:
			usage_error("dev: unknown command \"%s\" (try: tonic dev show)", argv[0]);
		}
	}
	if (argc > 0 && !strcmp(argv[0], "dev")) {
		argc--;
		argv++;
		if (!argc)
			usage_error("dev: \"dev\" needs a device name");
	}
	if (argc > 0) {
		name = argv[0];
		argc--;
		argv++;
	}
	if (argc > 0)
		usage_error("dev show: unexpected \"%s\"", argv[0]);
	out_begin_array();	/* always a list, as ip -j link show dev X */
	err = tn_request("dev show", TONIC_CMD_DEV_GET, !name, TONIC_A_DEV_MAX, dev_build,
			 dev_reply, (void *)name);
	out_end_array();
	out_newline();
	return err;
}
