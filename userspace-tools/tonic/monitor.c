// SPDX-License-Identifier: GPL-2.0
/* tonic monitor: flow added / removed / failed notifications, one per line. */
#include <stdio.h>
#include <string.h>
#include "tonic.h"

static int monitor_event(struct nlattr **tb, int cmd, void *arg)
{
	const char *ev;

	(void)arg;
	switch (cmd) {
	case TONIC_CMD_FLOW_ADD_NTF: ev = "added"; break;
	case TONIC_CMD_FLOW_DEL_NTF: ev = "removed"; break;
	case TONIC_CMD_FLOW_FAIL_NTF: ev = "failed"; break;
	default: return 0;
	}
	flow_print(tb, ev);
	out_newline();
	return 0;
}

int cmd_monitor(int argc, char **argv)
{
	if (argc > 0 && !strcmp(argv[0], "help")) {
		printf("Usage: tonic monitor\n");
		return 0;
	}
	if (argc)
		usage_error("monitor: unexpected \"%s\"", argv[0]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	return tn_listen(TONIC_A_FLOW_MAX, monitor_event, NULL);
}
