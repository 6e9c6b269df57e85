// SPDX-License-Identifier: GPL-2.0
/*
 * tonic set [prog P] [seg N] [delay US] [auto on|off]: the defaults of the
 * current network namespace (also net.tonic.*); without arguments, or as
 * "tonic defaults show", print them.
 */
#include <stdio.h>
#include <string.h>
#include "tonic.h"

struct defaults_req {
	const char *prog;
	uint32_t seg, delay;
	int autoo;		/* -1: unchanged */
	bool have_seg, have_delay;
};

static int defaults_reply(struct nlattr **tb, int cmd, void *arg)
{
	(void)cmd;
	(void)arg;
	out_begin_object();
	out_str(K("prog", "program"), tn_str(tb[TONIC_A_DEFAULTS_PROGRAM]));
	out_u64("seg_size", tn_u32(tb[TONIC_A_DEFAULTS_SEG_SIZE]));
	out_u64("sub_delay_us", tn_u32(tb[TONIC_A_DEFAULTS_SUB_DELAY_US]));
	out_onoff("auto_offload", tn_u8(tb[TONIC_A_DEFAULTS_AUTO_OFFLOAD]));
	out_u64(K("netns", "netns_inum"), tn_u32(tb[TONIC_A_DEFAULTS_NETNS_INUM]));
	out_end_object();
	if (!json)
		out_text("\n");
	return 0;
}

static int defaults_show(void)
{
	int err = tn_request("defaults", TONIC_CMD_DEFAULTS_GET, false, TONIC_A_DEFAULTS_MAX,
			     NULL, defaults_reply, NULL);

	out_newline();
	return err;
}

static int set_build(struct nl_msg *msg, void *arg)
{
	struct defaults_req *r = arg;

	if (r->prog && nla_put_string(msg, TONIC_A_DEFAULTS_PROGRAM, r->prog))
		return -EMSGSIZE;
	if (r->have_seg && nla_put_u32(msg, TONIC_A_DEFAULTS_SEG_SIZE, r->seg))
		return -EMSGSIZE;
	if (r->have_delay && nla_put_u32(msg, TONIC_A_DEFAULTS_SUB_DELAY_US, r->delay))
		return -EMSGSIZE;
	if (r->autoo >= 0 && nla_put_u8(msg, TONIC_A_DEFAULTS_AUTO_OFFLOAD, r->autoo))
		return -EMSGSIZE;
	return 0;
}

int cmd_defaults(int argc, char **argv)
{
	static const struct word cmds[] = { { "show", 0 }, { "list", 0 }, { NULL, 0 } };

	if (argc > 0 && match_word("defaults: command", argv[0], cmds) == 0) {
		argc--;
		argv++;
	}
	if (argc)
		usage_error("defaults: unexpected \"%s\" (tonic defaults show)", argv[0]);
	return defaults_show();
}

int cmd_set(int argc, char **argv)
{
	struct defaults_req r = { .autoo = -1 };
	enum { S_PROG, S_SEG, S_DELAY, S_AUTO };
	static const struct word keys[] = {
		{ "prog", S_PROG }, { "program", S_PROG }, { "seg", S_SEG }, { "seg_size", S_SEG },
		{ "delay", S_DELAY }, { "sub_delay_us", S_DELAY }, { "auto", S_AUTO },
		{ "auto_offload", S_AUTO }, { NULL, 0 }
	};
	int key;

	if (argc > 0 && !strcmp(argv[0], "help")) {
		printf("Usage: tonic set [prog PROGRAM] [seg BYTES] [delay US] [auto on|off]\n");
		return 0;
	}
	if (!argc)
		return defaults_show();
	while (argc > 0) {
		key = match_word("set: setting", argv[0], keys);
		if (key < 0)
			usage_error("set: unknown setting \"%s\" (prog, seg, delay, auto)", argv[0]);
		if (argc < 2)
			usage_error("set: \"%s\" needs a value", argv[0]);
		if (key == S_PROG) {
			r.prog = argv[1];
		} else if (key == S_SEG) {
			if (parse_u32("seg", argv[1], UINT32_MAX, &r.seg))
				return EXIT_USAGE;
			r.have_seg = true;
		} else if (key == S_DELAY) {
			if (parse_u32("delay", argv[1], UINT32_MAX, &r.delay))
				return EXIT_USAGE;
			r.have_delay = true;
		} else {
			if (!strcmp(argv[1], "on"))
				r.autoo = 1;
			else if (!strcmp(argv[1], "off"))
				r.autoo = 0;
			else
				usage_error("set: auto takes \"on\" or \"off\", not \"%s\"", argv[1]);
		}
		argc -= 2;
		argv += 2;
	}
	return tn_request("set", TONIC_CMD_DEFAULTS_SET, false, TONIC_A_DEFAULTS_MAX, set_build,
			  NULL, &r);
}
