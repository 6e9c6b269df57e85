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

/*
 * Unique-prefix matching, as iproute2's matches() but strict: ARG selects
 * the entry of WORDS (NULL-terminated, aliases share an id) it equals, else
 * the one it is a prefix of; a prefix of names with different ids is an
 * error that lists them.  Returns the id, or -1 when nothing matches.
 */
int match_word(const char *what, const char *arg, const struct word *words)
{
	const struct word *w;
	char list[256] = "";
	int id = -1, n = 0;
	size_t len = strlen(arg);

	if (!len)
		return -1;
	for (w = words; w->name; w++)
		if (!strcmp(arg, w->name))
			return w->id;
	for (w = words; w->name; w++) {
		const struct word *v;

		if (strncmp(arg, w->name, len))
			continue;
		for (v = words; v < w; v++)	/* an alias of an earlier match */
			if (v->id == w->id && !strncmp(arg, v->name, len))
				break;
		if (v < w)
			continue;
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
			 n ? ", " : "", w->name);
		id = w->id;
		n++;
	}
	if (n > 1)
		usage_error("%s \"%s\" is ambiguous: %s", what, arg, list);
	return id;
}

enum { O_DEV, O_FLOW, O_STATS, O_SET, O_DEFAULTS, O_SOCK, O_MONITOR, O_HELP };

static const struct word objects[] = {
	{ "dev", O_DEV }, { "device", O_DEV }, { "flow", O_FLOW },
	{ "stats", O_STATS }, { "statistics", O_STATS }, { "set", O_SET },
	{ "defaults", O_DEFAULTS }, { "sock", O_SOCK }, { "socket", O_SOCK },
	{ "monitor", O_MONITOR }, { "help", O_HELP }, { NULL, 0 }
};

static int (*const object_fn[])(int, char **) = {
	[O_DEV] = cmd_dev, [O_FLOW] = cmd_flow, [O_STATS] = cmd_stats, [O_SET] = cmd_set,
	[O_DEFAULTS] = cmd_defaults, [O_SOCK] = cmd_sock, [O_MONITOR] = cmd_monitor,
};

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
	switch (match_word("object", obj, objects)) {
	case -1:
		usage_error("unknown object \"%s\"", obj);
	case O_HELP:
		usage(stdout);
		return 0;
	default:
		fn = object_fn[match_word("object", obj, objects)];
		break;
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
