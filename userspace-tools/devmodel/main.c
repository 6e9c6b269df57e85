// SPDX-License-Identifier: GPL-2.0
/*
 * tonic-devmodel: serve the Tonic PCIe register interface over a shared
 * memory file that QEMU maps as an ivshmem-plain BAR:
 *
 *   tonic-devmodel --shm /dev/shm/tonic-X [--size 1M] [--max-flows N]
 *                  [--cycle-ps PS] [--faults] [--pidfile F] [-v]
 *   qemu ... -object memory-backend-file,id=tshm,share=on,mem-path=/dev/shm/tonic-X,size=1M
 *            -device ivshmem-plain,memdev=tshm
 *
 * Polling device: it polls the command doorbell, spinning while there is
 * work and backing off to short sleeps when idle (the heartbeat keeps
 * ticking at least every TONIC_PCI_HB_PERIOD_US).  SIGTERM/SIGINT clear
 * READY and exit; the driver then sees the device stop and fails its flows
 * over to software TCP.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>
#include "dm.h"

static volatile sig_atomic_t stop;

static void on_sig(int s)
{
	(void)s;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: tonic-devmodel --shm FILE [--size BYTES] [--max-flows N] "
		"[--cycle-ps PS] [--faults] [--pidfile F] [-v]\n");
	exit(2);
}

static size_t parse_size(const char *s)
{
	char *e;
	unsigned long long v = strtoull(s, &e, 0);

	if (*e == 'K' || *e == 'k')
		v <<= 10;
	else if (*e == 'M' || *e == 'm')
		v <<= 20;
	return (size_t)v;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull, .tv_nsec = ns % 1000000000ull };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "shm", required_argument, 0, 's' },
		{ "size", required_argument, 0, 'S' },
		{ "max-flows", required_argument, 0, 'f' },
		{ "cycle-ps", required_argument, 0, 'c' },
		{ "faults", no_argument, 0, 'F' },
		{ "pidfile", required_argument, 0, 'p' },
		{ "verbose", no_argument, 0, 'v' },
		{ 0, 0, 0, 0 }
	};
	struct dm_cfg cfg = {
		.max_flows = 1024, .wnd_bits = 256, .ring_depth = TONIC_RING_DEFAULT,
		.cycle_ps = 10000, .cmd_entries = 1024, .evt_entries = 8192,
	};
	const char *shm = NULL, *pidfile = NULL;
	size_t size = 0;
	struct stat stbuf;
	struct dm dm;
	uint64_t idle_since, next_ns, now;
	void *win;
	int fd, o;

	while ((o = getopt_long(argc, argv, "v", opts, NULL)) != -1) {
		switch (o) {
		case 's': shm = optarg; break;
		case 'S': size = parse_size(optarg); break;
		case 'f': cfg.max_flows = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'c': cfg.cycle_ps = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'F': cfg.faults = true; break;
		case 'p': pidfile = optarg; break;
		case 'v': cfg.verbose = true; break;
		default: usage();
		}
	}
	if (!shm || !cfg.cycle_ps)
		usage();
	fd = open(shm, O_RDWR | O_CREAT, 0600);
	if (fd < 0 || fstat(fd, &stbuf)) {
		fprintf(stderr, "devmodel: %s: %s\n", shm, strerror(errno));
		return 1;
	}
	if (!size)
		size = stbuf.st_size ? (size_t)stbuf.st_size : TONIC_PCI_WINDOW_MIN;
	if ((size_t)stbuf.st_size < size && ftruncate(fd, (off_t)size)) {
		fprintf(stderr, "devmodel: ftruncate: %s\n", strerror(errno));
		return 1;
	}
	win = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (win == MAP_FAILED) {
		fprintf(stderr, "devmodel: mmap: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	if (dm_init(&dm, win, size, &cfg))
		return 1;
	signal(SIGTERM, on_sig);
	signal(SIGINT, on_sig);
	if (pidfile) {
		FILE *f = fopen(pidfile, "w");

		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
	}
	fprintf(stderr, "devmodel: %s, %zu bytes, %u flows, cycle %u ps, %u programs%s\n", shm,
		size, cfg.max_flows, cfg.cycle_ps, dm.nprogs, cfg.faults ? ", faults on" : "");

	idle_since = dm_now_ns();
	while (!stop) {
		if (dm_poll(&dm, &next_ns)) {
			idle_since = dm_now_ns();
			continue;
		}
		now = dm_now_ns();
		/* Spin briefly after work (yielding), then sleep longer when idle. */
		if (now - idle_since < 200000ull) {
			sched_yield();
			continue;
		}
		{
			uint64_t nap = now - idle_since < 50000000ull ? 50000ull : 500000ull;

			if (next_ns > now && next_ns - now < nap)
				nap = next_ns - now;
			if (next_ns <= now)
				nap = 0;
			if (nap)
				sleep_ns(nap);
		}
	}
	fprintf(stderr, "devmodel: exit: %llu commands, %llu descriptors, %llu notes, "
		"%llu command errors, %llu event stalls, %llu resets\n",
		(unsigned long long)dm.cmds, (unsigned long long)dm.descs,
		(unsigned long long)dm.notes, (unsigned long long)dm.cmd_errors,
		(unsigned long long)dm.evt_stalls, (unsigned long long)dm.resets);
	dm_fini(&dm);
	munmap(win, size);
	if (pidfile)
		unlink(pidfile);
	return 0;
}
