// SPDX-License-Identifier: GPL-2.0
/* libtonic-drdma: the ioctls of /dev/tonic-drdma. */
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include "drdma.h"

const char *const tdrdma_stat_names[TDRDMA_S_MAX] = {
	[TDRDMA_S_FRAMES_TX] = "frames_tx",
	[TDRDMA_S_FRAMES_RX] = "frames_rx",
	[TDRDMA_S_REQUESTS_TX] = "requests_tx",
	[TDRDMA_S_REQ_ACK_VALID_TX] = "req_ack_valid_tx",
	[TDRDMA_S_REQ_ACK_INVALID_TX] = "req_ack_invalid_tx",
	[TDRDMA_S_DATA_TX] = "data_tx",
	[TDRDMA_S_RETRANSMITS] = "retransmits",
	[TDRDMA_S_FAST_RETRANSMITS] = "fast_retransmits",
	[TDRDMA_S_TIMEOUTS] = "timeouts",
	[TDRDMA_S_DIRECT] = "direct",
	[TDRDMA_S_INDIRECT] = "indirect",
	[TDRDMA_S_DONE] = "done",
	[TDRDMA_S_FAILED] = "failed",
	[TDRDMA_S_REGISTERED] = "registered",
	[TDRDMA_S_REFUSED] = "refused",
	[TDRDMA_S_INDIRECT_BUFFERED] = "indirect_buffered_bytes",
	[TDRDMA_S_INDIRECT_DRAINED] = "indirect_drained_bytes",
	[TDRDMA_S_INDIRECT_FULL] = "indirect_full",
	[TDRDMA_S_INDIRECT_FREED] = "indirect_freed_bytes",
	[TDRDMA_S_RX_MALFORMED] = "rx_malformed",
	[TDRDMA_S_RX_UNKNOWN] = "rx_unknown",
	[TDRDMA_S_RX_REPLAY] = "rx_replay",
	[TDRDMA_S_RX_OUT_OF_WINDOW] = "rx_out_of_window",
	[TDRDMA_S_EXPIRED] = "expired",
	[TDRDMA_S_RX_TABLE_FULL] = "rx_table_full",
};

static int tdrdma_ioctl(int fd, unsigned long cmd, void *arg)
{
	int r;

	do
		r = ioctl(fd, cmd, arg);
	while (r < 0 && errno == EINTR && cmd != TDRDMA_IOC_XFER);
	return r < 0 ? -errno : 0;
}

int tdrdma_open(void)
{
	int fd = open("/dev/tonic-drdma", O_RDWR | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int tdrdma_xfer(int fd, const char *ifname, const uint8_t peer[6], int type, int policy,
		void *buf, uint64_t dba, uint32_t len, struct tdrdma_xfer *out)
{
	struct tdrdma_xfer x = {
		.ifindex = if_nametoindex(ifname),
		.type = type,
		.policy = policy,
		.addr = (uintptr_t)buf,
		.dba = dba,
		.len = len,
	};
	int r;

	if (!x.ifindex)
		return -ENODEV;
	memcpy(x.peer, peer, 6);
	r = tdrdma_ioctl(fd, TDRDMA_IOC_XFER, &x);
	if (out)
		*out = x;
	return r;
}

int tdrdma_lend(int fd, const char *ifname, void *mem, uint64_t size)
{
	struct tdrdma_lend l = {
		.ifindex = if_nametoindex(ifname),
		.addr = (uintptr_t)mem,
		.size = size,
	};

	if (!l.ifindex)
		return -ENODEV;
	return tdrdma_ioctl(fd, TDRDMA_IOC_LEND, &l);
}

int tdrdma_next(int fd, struct tdrdma_request *r)
{
	return tdrdma_ioctl(fd, TDRDMA_IOC_NEXT, r);
}

int tdrdma_register(int fd, const struct tdrdma_request *r, int refuse)
{
	struct tdrdma_register g = { .tid = r->tid, .refuse = !!refuse };

	memcpy(g.peer, r->peer, 6);
	return tdrdma_ioctl(fd, TDRDMA_IOC_REGISTER, &g);
}

int tdrdma_stats(int fd, struct tdrdma_stats *s)
{
	return tdrdma_ioctl(fd, TDRDMA_IOC_STATS, s);
}

int tdrdma_parse_mac(const char *s, uint8_t mac[6])
{
	unsigned int b[6];
	char end;
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x%c", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &end) != 6)
		return -EINVAL;
	for (i = 0; i < 6; i++) {
		if (b[i] > 0xff)
			return -EINVAL;
		mac[i] = b[i];
	}
	return 0;
}
