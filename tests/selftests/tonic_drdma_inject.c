// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_drdma_inject: hand-built and replayed Dynamic RDMA frames (test 78).
 *
 *	tonic_drdma_inject IFNAME DST_MAC FRAME...
 *	tonic_drdma_inject IFNAME capture FILE
 *	tonic_drdma_inject IFNAME replay FILE
 *
 * Each FRAME is one of
 *	short		a header cut to 10 bytes
 *	version		version 2
 *	kinds		REQ and DATA flags at once
 *	bigdata		a data frame saying 1025 bytes (and carrying them)
 *	cutdata		a data frame saying 1024 bytes, carrying 100
 *	req0		a request for 0 bytes
 *	unknown		direct write data for a transfer never requested
 *	req		a valid write request for 1024 bytes at 0, TID 0x100 + its
 *			place on the command line
 * sent to DST_MAC from IFNAME (AF_PACKET, Ethertype 0x01FF) 20 ms apart.
 * capture waits (up to 10 s) for the first write data frame IFNAME sends
 * and writes it, Ethernet header included, to FILE; replay sends FILE's
 * frame out of IFNAME again.
 */
#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uapi/linux/tonic_drdma.h>

/* SOCK_RAW to capture (Ethernet header included), SOCK_DGRAM to send to sll_addr. */
static int sock(const char *ifname, struct sockaddr_ll *sll, int type, int proto)
{
	int fd = socket(AF_PACKET, type, htons(proto));

	memset(sll, 0, sizeof(*sll));
	sll->sll_family = AF_PACKET;
	sll->sll_protocol = htons(proto);
	sll->sll_ifindex = if_nametoindex(ifname);
	if (fd < 0 || !sll->sll_ifindex || bind(fd, (struct sockaddr *)sll, sizeof(*sll))) {
		perror(ifname);
		exit(1);
	}
	return fd;
}

static void send_frame(int fd, struct sockaddr_ll *sll, const void *f, size_t n)
{
	if (sendto(fd, f, n, 0, (struct sockaddr *)sll, sizeof(*sll)) != (ssize_t)n) {
		perror("sendto");
		exit(1);
	}
}

static int capture(const char *ifname, const char *file)
{
	struct sockaddr_ll sll;
	unsigned char f[2048];
	int fd = sock(ifname, &sll, SOCK_RAW, ETH_P_ALL);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	FILE *out;

	while (poll(&p, 1, 10000) == 1) {
		ssize_t n = recv(fd, f, sizeof(f), 0);
		struct ether_header *e = (void *)f;
		struct tdrdma_hdr *h = (void *)(e + 1);

		if (n < (ssize_t)(sizeof(*e) + sizeof(*h)) || e->ether_type != htons(TDRDMA_ETH_P))
			continue;
		if (h->ctrl & TDRDMA_F_DATA && !(h->ctrl & TDRDMA_F_READ) && h->len) {
			out = fopen(file, "w");
			if (!out || fwrite(f, 1, n, out) != (size_t)n || fclose(out))
				return 1;
			printf("captured tid %u sn %u\n", ntohs(h->tid), ntohl(h->sn));
			return 0;
		}
	}
	fprintf(stderr, "capture: no write data frame\n");
	return 1;
}

static int replay(const char *ifname, const char *file)
{
	struct sockaddr_ll sll;
	unsigned char f[2048];
	FILE *in = fopen(file, "r");
	size_t n;
	int fd;

	if (!in)
		return 1;
	n = fread(f, 1, sizeof(f), in);
	fclose(in);
	fd = sock(ifname, &sll, SOCK_DGRAM, TDRDMA_ETH_P);
	memcpy(sll.sll_addr, f, 6);
	sll.sll_halen = 6;
	send_frame(fd, &sll, f + ETH_HLEN, n - ETH_HLEN);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned char f[sizeof(struct tdrdma_hdr) + 1100];
	struct tdrdma_hdr *h = (void *)f;
	struct sockaddr_ll sll;
	unsigned int m[6];
	size_t n;
	int fd, i;

	if (argc == 4 && !strcmp(argv[2], "capture"))
		return capture(argv[1], argv[3]);
	if (argc == 4 && !strcmp(argv[2], "replay"))
		return replay(argv[1], argv[3]);
	if (argc < 4 || sscanf(argv[2], "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4],
			       &m[5]) != 6) {
		fprintf(stderr, "usage: tonic_drdma_inject IFNAME DST_MAC FRAME... | capture FILE | replay FILE\n");
		return 2;
	}
	fd = sock(argv[1], &sll, SOCK_DGRAM, TDRDMA_ETH_P);
	for (i = 0; i < 6; i++)
		sll.sll_addr[i] = m[i];
	sll.sll_halen = 6;
	for (i = 3; i < argc; i++) {
		const char *c = argv[i];

		memset(f, 0xab, sizeof(f));
		memset(h, 0, sizeof(*h));
		h->version = TDRDMA_VERSION;
		h->tid = htons(0x7777);
		h->ctrl = TDRDMA_F_DATA | TDRDMA_F_INDIRECT;
		h->len = htonl(TDRDMA_FRAME_BYTES);
		n = sizeof(*h) + TDRDMA_FRAME_BYTES;
		if (!strcmp(c, "short")) {
			n = 10;
		} else if (!strcmp(c, "version")) {
			h->version = 2;
		} else if (!strcmp(c, "kinds")) {
			h->ctrl |= TDRDMA_F_REQ;
		} else if (!strcmp(c, "bigdata")) {
			h->len = htonl(TDRDMA_FRAME_BYTES + 1);
			n++;
		} else if (!strcmp(c, "cutdata")) {
			n = sizeof(*h) + 100;
		} else if (!strcmp(c, "req0")) {
			h->ctrl = TDRDMA_F_REQ;
			h->len = 0;
			n = sizeof(*h);
		} else if (!strcmp(c, "unknown")) {
			h->ctrl = TDRDMA_F_DATA;
		} else if (!strcmp(c, "req")) {
			h->ctrl = TDRDMA_F_REQ;
			h->tid = htons(0x100 + i);
			n = sizeof(*h);
		} else {
			fprintf(stderr, "unknown frame %s\n", c);
			return 2;
		}
		send_frame(fd, &sll, f, n);
		usleep(20000);
	}
	return 0;
}
