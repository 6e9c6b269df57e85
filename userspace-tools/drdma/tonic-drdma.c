// SPDX-License-Identifier: GPL-2.0
/*
 * tonic-drdma: Dynamic RDMA from the command line.
 *
 *   tonic-drdma [-j] write DEV PEER DBA FILE [direct|dynamic]
 *   tonic-drdma [-j] read DEV PEER DBA LEN FILE [direct|dynamic]
 *   tonic-drdma serve DEV FILE SIZE [count N] [refuse P] [refuse-first N]
 *	               [delay MS] [never] [seed S]
 *   tonic-drdma [-j] stats
 *
 * write sends FILE to offset DBA of the memory PEER (a MAC address) lends
 * on its side; read writes LEN bytes from there into FILE.  serve lends
 * FILE (SIZE bytes, shared: what arrives is in the file) and registers
 * each request, after MS ms (slow registration), refusing the first N
 * it is handed and then each with probability P (a failed
 * registration), or never; it exits after N releases.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "drdma.h"

static int json;

static void usage(void)
{
	fprintf(stderr,
		"usage: tonic-drdma [-j] write DEV PEER DBA FILE [direct|dynamic]\n"
		"       tonic-drdma [-j] read DEV PEER DBA LEN FILE [direct|dynamic]\n"
		"       tonic-drdma serve DEV FILE SIZE [count N] [refuse P] [refuse-first N]\n"
		"                         [delay MS] [never] [seed S]\n"
		"       tonic-drdma [-j] stats\n");
	exit(2);
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "tonic-drdma: %s: %s\n", what, strerror(-err));
	return 1;
}

/* The device, opened once the command line is known good (usage errors first). */
static int device(void)
{
	int fd = tdrdma_open();

	if (fd < 0)
		exit(fail("/dev/tonic-drdma", fd));
	return fd;
}

static unsigned long long num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s) {
		fprintf(stderr, "tonic-drdma: not a number: %s\n", s);
		exit(2);
	}
	return v;
}

static double prob(const char *s)
{
	char *end;
	double p = strtod(s, &end);

	if (*end || end == s || !(p >= 0 && p <= 1)) {
		fprintf(stderr, "tonic-drdma: not a probability: %s\n", s);
		exit(2);
	}
	return p;
}

static int policy(int argc, char **argv, int i)
{
	if (i >= argc || !strcmp(argv[i], "dynamic"))
		return TDRDMA_DYNAMIC;
	if (!strcmp(argv[i], "direct"))
		return TDRDMA_DIRECT;
	usage();
	return -1;
}

static void report(const char *op, const struct tdrdma_xfer *x, int err)
{
	if (json)
		printf("{\"op\":\"%s\",\"bytes\":%u,\"ok\":%s,\"mode\":\"%s\",\"requests\":%u,"
		       "\"frames\":%u,\"retransmits\":%u,\"start_ns\":%llu,\"ns\":%llu}\n",
		       op, x->len, err ? "false" : "true", x->indirect ? "indirect" : "direct",
		       x->requests, x->frames, x->retransmits, (unsigned long long)x->start_ns,
		       (unsigned long long)x->ns);
	else
		printf("%s %u bytes: %s, %s, %u requests, %u frames, %u retransmits, data after %.3f ms,"
		       " %.3f ms\n", op, x->len, err ? strerror(-err) : "ok",
		       x->indirect ? "indirect" : "direct", x->requests, x->frames, x->retransmits,
		       x->start_ns / 1e6, x->ns / 1e6);
}

static int xfer(int type, int argc, char **argv)
{
	int n = type == TDRDMA_READ ? 6 : 5, pol, err, f, fd;
	unsigned long long len = 0, dba;
	struct tdrdma_xfer x;
	uint8_t peer[6];
	struct stat st;
	void *buf;

	if (argc < n || argc > n + 1 || tdrdma_parse_mac(argv[2], peer))
		usage();
	pol = policy(argc, argv, n);
	dba = num(argv[3]);
	if (type == TDRDMA_READ && (len = num(argv[4])) == 0)
		usage();
	if (type == TDRDMA_READ) {
		f = open(argv[5], O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (f < 0 || (len && ftruncate(f, len)))
			return fail(argv[5], -errno);
	} else {
		f = open(argv[4], O_RDONLY);
		if (f < 0 || fstat(f, &st))
			return fail(argv[4], -errno);
		len = st.st_size;
	}
	if (!len || len > TDRDMA_MAX_LEN)
		return fail("length", -EINVAL);
	buf = mmap(NULL, len, type == TDRDMA_READ ? PROT_READ | PROT_WRITE : PROT_READ,
		   MAP_SHARED, f, 0);
	if (buf == MAP_FAILED)
		return fail("mmap", -errno);
	fd = device();
	err = tdrdma_xfer(fd, argv[1], peer, type, pol, buf, dba, len, &x);
	report(type == TDRDMA_READ ? "read" : "write", &x, err);
	if (type == TDRDMA_READ && msync(buf, len, MS_SYNC))
		return fail("msync", -errno);
	return err ? 1 : 0;
}

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ull + t.tv_nsec;
}

static int serve(int argc, char **argv)
{
	unsigned long long size, count = 0, delay = 0, seed = 1, first = 0;
	double refuse = 0;
	struct tdrdma_request r = {};
	unsigned long long regs = 0, reg_ns = 0, t0;
	int never = 0, refused, i, f, fd, err;
	void *mem;

	if (argc < 4)
		usage();
	size = num(argv[3]);
	for (i = 4; i < argc; i++) {
		if (!strcmp(argv[i], "never"))
			never = 1;
		else if (i + 1 >= argc)
			usage();
		else if (!strcmp(argv[i], "count"))
			count = num(argv[++i]);
		else if (!strcmp(argv[i], "refuse"))
			refuse = prob(argv[++i]);
		else if (!strcmp(argv[i], "refuse-first"))
			first = num(argv[++i]);
		else if (!strcmp(argv[i], "delay"))
			delay = num(argv[++i]);
		else if (!strcmp(argv[i], "seed"))
			seed = num(argv[++i]);
		else
			usage();
	}
	srand48(seed);
	fd = device();
	f = open(argv[2], O_RDWR | O_CREAT, 0644);
	if (f < 0 || ftruncate(f, size))
		return fail(argv[2], -errno);
	mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	if (mem == MAP_FAILED)
		return fail("mmap", -errno);
	err = tdrdma_lend(fd, argv[1], mem, size);
	if (err)
		return fail("lend", err);
	printf("lending %llu bytes on %s\n", size, argv[1]);
	fflush(stdout);
	while (!count || r.done < count) {
		err = tdrdma_next(fd, &r);
		if (err)
			return fail("next", err);
		if (!r.len || never)
			continue;
		if (delay)
			usleep(delay * 1000);
		refused = first ? first-- : drand48() < refuse;
		t0 = now_ns();
		err = tdrdma_register(fd, &r, refused);
		if (!err && !refused) {
			regs++;
			reg_ns += now_ns() - t0;
		}
		if (err && err != -ENOENT)
			fprintf(stderr, "tonic-drdma: register %u: %s\n", r.tid, strerror(-err));
	}
	if (msync(mem, size, MS_SYNC))
		return fail("msync", -errno);
	/* A registration's time: the pages pinned and the answer sent (the ioctl). */
	printf("served %u transfers; %llu registrations, %.1f us each\n", r.done, regs,
	       regs ? reg_ns / 1e3 / regs : 0.0);
	return 0;
}

static int stats(void)
{
	struct tdrdma_stats s;
	int i, err = tdrdma_stats(device(), &s);

	if (err)
		return fail("stats", err);
	if (json)
		putchar('{');
	for (i = 0; i < TDRDMA_S_MAX; i++) {
		if (json)
			printf("%s\"%s\":%llu", i ? "," : "", tdrdma_stat_names[i],
			       (unsigned long long)s.v[i]);
		else
			printf("%s %llu\n", tdrdma_stat_names[i], (unsigned long long)s.v[i]);
	}
	if (json)
		printf("}\n");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "-j")) {
		json = 1;
		argc--;
		argv++;
	}
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "write"))
		return xfer(TDRDMA_WRITE, argc - 1, argv + 1);
	if (!strcmp(argv[1], "read"))
		return xfer(TDRDMA_READ, argc - 1, argv + 1);
	if (!strcmp(argv[1], "serve"))
		return serve(argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[1], "stats"))
		return stats();
	usage();
	return 2;
}
