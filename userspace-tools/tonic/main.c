// SPDX-License-Identifier: GPL-2.0
/*
 * tonic - show and steer Tonic transport offload (tonic(8)).
 *
 *   tonic [-j [-p]] [-s] [-n NETNS] dev show | flow show [dev N] [id N] [prog P] [netns all] | stats
 *         | set [...] | defaults show | sock offload on|off ... | sock show | monitor
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>
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
		"  tonic dev set DEV prog PROGRAM param INDEX VALUE\n"
		"  tonic flow show [dev NAME] [id N] [prog PROGRAM] [netns all]\n"
		"  tonic flow set DEV ID param INDEX VALUE\n"
		"  tonic stats [dev NAME]\n"
		"  tonic set [prog PROGRAM] [seg BYTES] [delay US] [auto on|off]\n"
		"  tonic defaults show\n"
		"  tonic sock offload on|off LOCAL_IP LOCAL_PORT REMOTE_IP REMOTE_PORT\n"
		"  tonic sock show [port N]\n"
		"  tonic monitor\n"
		"  tonic tenant show [[name] NAME]\n"
		"  tonic tenant add NAME { uid UID | cgroup PATH } [fixed N]\n"
		"  tonic tenant del NAME\n"
		"OPTIONS: -j, -json            JSON output\n"
		"         -p, -pretty          indented JSON (with -j)\n"
		"         -s, -stats           more statistics (accepted; see tonic(8))\n"
		"         -n, -netns NAME      act in network namespace NAME (ip netns add NAME)\n"
		"         -h, -help            this help\n"
		"         -V, -Version         print the version\n"
		"Objects, commands and keywords may be abbreviated to a unique prefix\n"
		"(tonic fl sh).  Defaults, socket, flow and statistics commands act on the\n"
		"current network namespace (-n NAME, or 'ip netns exec NAME', for another\n"
		"one); host-wide views need CAP_NET_ADMIN in the initial one.  See tonic(8).\n");
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

/*
 * ip -n NAME: enter the namespace "ip netns add NAME" made, /run/netns/NAME
 * (iproute2's NETNS_RUN_DIR; /var/run/netns/NAME where that is not the
 * same), or the file NAME names if it has a '/'.
 */
static void netns_switch(const char *name)
{
	static const char *const dirs[] = { "/run/netns", "/var/run/netns" };
	char path[4096];
	unsigned int i;
	int fd = -1, err = ENOENT;

	for (i = 0; i < 2 && fd < 0; i++) {
		if (strchr(name, '/'))
			snprintf(path, sizeof(path), "%s", name);
		else
			snprintf(path, sizeof(path), "%s/%s", dirs[i], name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0 && (errno != ENOENT || i == 0))
			err = errno;
	}
	if (fd < 0) {
		fprintf(stderr, "tonic: cannot open network namespace \"%s\": %s\n", name,
			strerror(err));
		exit(1);
	}
	if (setns(fd, CLONE_NEWNET)) {
		fprintf(stderr, "tonic: setting the network namespace \"%s\" failed: %s\n", name,
			strerror(errno));
		exit(1);
	}
	close(fd);
}

enum { OPT_JSON, OPT_PRETTY, OPT_STATS, OPT_NETNS, OPT_HELP, OPT_VERSION };

static const struct word options[] = {
	{ "-j", OPT_JSON }, { "-json", OPT_JSON }, { "--json", OPT_JSON },
	{ "-p", OPT_PRETTY }, { "-pretty", OPT_PRETTY }, { "--pretty", OPT_PRETTY },
	{ "-s", OPT_STATS }, { "-stats", OPT_STATS }, { "-statistics", OPT_STATS },
	{ "--stats", OPT_STATS },
	{ "-n", OPT_NETNS }, { "-netns", OPT_NETNS }, { "--netns", OPT_NETNS },
	{ "-h", OPT_HELP }, { "-help", OPT_HELP }, { "--help", OPT_HELP },
	{ "-V", OPT_VERSION }, { "-Version", OPT_VERSION }, { "--version", OPT_VERSION },
	{ NULL, 0 }
};

enum { O_DEV, O_FLOW, O_STATS, O_SET, O_DEFAULTS, O_SOCK, O_MONITOR, O_TENANT, O_HELP };

static const struct word objects[] = {
	{ "dev", O_DEV }, { "device", O_DEV }, { "flow", O_FLOW },
	{ "stats", O_STATS }, { "statistics", O_STATS }, { "set", O_SET },
	{ "defaults", O_DEFAULTS }, { "sock", O_SOCK }, { "socket", O_SOCK },
	{ "monitor", O_MONITOR }, { "tenant", O_TENANT }, { "help", O_HELP }, { NULL, 0 }
};

static const char *const object_name[] = {
	[O_DEV] = "dev", [O_FLOW] = "flow", [O_STATS] = "stats", [O_SET] = "set",
	[O_DEFAULTS] = "defaults", [O_SOCK] = "sock", [O_MONITOR] = "monitor",
	[O_TENANT] = "tenant",
};

static int (*const object_fn[])(int, char **) = {
	[O_DEV] = cmd_dev, [O_FLOW] = cmd_flow, [O_STATS] = cmd_stats, [O_SET] = cmd_set,
	[O_DEFAULTS] = cmd_defaults, [O_SOCK] = cmd_sock, [O_MONITOR] = cmd_monitor,
	[O_TENANT] = cmd_tenant,
};

int main(int argc, char **argv)
{
	const char *obj, *netns = NULL;
	int (*fn)(int, char **) = NULL;
	int err;

	while (argc > 1 && argv[1][0] == '-') {
		switch (match_word("option", argv[1], options)) {
		case OPT_JSON:
			json = true;
			break;
		case OPT_PRETTY:
			pretty = true;
			break;
		case OPT_STATS:
			show_stats++;
			break;
		case OPT_NETNS:
			if (argc < 3)
				usage_error("\"%s\" needs a network namespace name", argv[1]);
			netns = argv[2];
			argc--;
			argv++;
			break;
		case OPT_HELP:
			usage(stdout);
			return 0;
		case OPT_VERSION:
			printf("tonic utility, %s\n", TONIC_VERSION);
			return 0;
		default:
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
		obj = object_name[match_word("object", obj, objects)];	/* for messages */
		break;
	}
	/* Usage errors before touching the kernel: help needs no module. */
	if (argc > 2 && !strcmp(argv[argc - 1], "help"))
		return fn(1, &argv[argc - 1]);

	/*
	 * Before any socket is opened (they belong to the namespace they were
	 * made in); the generic netlink one is opened by the first request.
	 */
	if (netns)
		netns_switch(netns);
	err = fn(argc - 2, argv + 2);
	out_flush();
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
