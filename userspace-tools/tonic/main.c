// SPDX-License-Identifier: GPL-2.0
/*
 * tonic - show and steer Tonic transport offload (tonic(8)).
 *
 *   tonic [-j] dev show | flow show [dev N] [id N] [prog P] [netns all] | stats
 *         | set [...] | defaults show | sock offload on|off ... | sock show | monitor
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tonic.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: tonic [OPTIONS] OBJECT COMMAND [ARGS]\n"
		"  tonic dev show [[dev] NAME]\n"
		"  tonic flow show [dev NAME] [id N] [prog PROGRAM] [netns all]\n"
		"  tonic stats [dev NAME]\n"
		"  tonic set [prog PROGRAM] [seg BYTES] [delay US] [auto on|off]\n"
		"  tonic defaults show\n"
		"  tonic sock offload on|off LOCAL_IP LOCAL_PORT REMOTE_IP REMOTE_PORT\n"
		"  tonic sock show [port N]\n"
		"  tonic monitor\n"
		"OPTIONS: -j, --json     JSON output\n"
		"         -h, --help     this help\n"
		"         -V, --version  print the version\n"
		"Defaults, socket, flow and statistics commands act on the current network\n"
		"namespace (run under 'ip netns exec NAME' for another one); host-wide views\n"
		"need CAP_NET_ADMIN in the initial one.  See tonic(8).\n");
}

void usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "tonic: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'tonic -h'.\n");
	exit(EXIT_USAGE);
}

int parse_u32(const char *what, const char *s, uint32_t max, uint32_t *v)
{
	unsigned long long x;
	char *end;

	errno = 0;
	if (!*s || *s == '-' || *s == '+')
		goto bad;
	x = strtoull(s, &end, 0);
	if (errno || *end || x > max)
		goto bad;
	*v = x;
	return 0;
bad:
	fprintf(stderr, "tonic: %s: \"%s\" is not a number in 0..%u\n", what, s, max);
	return -1;
}

static bool matches(const char *arg, const char *word)
{
	size_t n = strlen(arg);

	return n && n <= strlen(word) && !strncmp(arg, word, n);
}

int main(int argc, char **argv)
{
	const char *obj;
	int (*fn)(int, char **) = NULL;
	int err;

	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "-j") || !strcmp(argv[1], "-json") ||
		    !strcmp(argv[1], "--json")) {
			json = true;
		} else if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "-help") ||
			   !strcmp(argv[1], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "-Version") ||
			   !strcmp(argv[1], "--version")) {
			printf("tonic utility, %s\n", TONIC_VERSION);
			return 0;
		} else {
			usage_error("unknown option \"%s\"", argv[1]);
		}
		argc--;
		argv++;
	}
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	obj = argv[1];
	if (!strcmp(obj, "help")) {
		usage(stdout);
		return 0;
	} else if (matches(obj, "dev") || matches(obj, "device")) {
		fn = cmd_dev;
	} else if (matches(obj, "flow")) {
		fn = cmd_flow;
	} else if (matches(obj, "stats") || matches(obj, "statistics")) {
		fn = cmd_stats;
	} else if (!strcmp(obj, "set")) {
		fn = cmd_set;
	} else if (matches(obj, "defaults")) {
		fn = cmd_defaults;
	} else if (matches(obj, "sock") || matches(obj, "socket")) {
		fn = cmd_sock;
	} else if (matches(obj, "monitor")) {
		fn = cmd_monitor;
	} else {
		usage_error("unknown object \"%s\"", obj);
	}
	/* Usage errors before touching the kernel: help needs no module. */
	if (argc > 2 && !strcmp(argv[argc - 1], "help"))
		return fn(1, &argv[argc - 1]);

	err = tn_open();
	if (err == -ENOENT) {
		fprintf(stderr, "tonic: the generic netlink family \"%s\" is not registered "
			"(is the tonic module loaded? try: modprobe tonic)\n", TONIC_GENL_NAME);
		return 1;
	}
	if (err) {
		fprintf(stderr, "tonic: cannot open a generic netlink socket: %s\n",
			strerror(-err));
		return 1;
	}
	err = fn(argc - 2, argv + 2);
	tn_close();
	if (err < 0) {
		fprintf(stderr, "tonic: %s: %s", obj, strerror(-err));
		if (*tn_errmsg())
			fprintf(stderr, ": %s", tn_errmsg());
		if (err == -EPERM && !*tn_errmsg())
			fprintf(stderr, " (needs CAP_NET_ADMIN in this network namespace)");
		fprintf(stderr, "\n");
		return 1;
	}
	return err;	/* 0, or an exit code (EXIT_USAGE) */
}
