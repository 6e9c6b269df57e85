// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_roce_inject: hand-built RoCEv2 packets to an RC QP, and the
 * replies (test 73).
 *
 *	tonic_roce_inject -i IFNAME -m DST_MAC -s SRC_IPV4 -d DST_IPV4 -q DST_QPN
 *			  [-w WAIT_MS] [-g GAP_MS] PACKET...
 *
 * Each PACKET is a comma-separated list of KEY=VALUE (numbers in C
 * syntax) or flags, built as Soft-RoCE would (IPv4 DF, TTL 64, UDP
 * 0xc123 -> 4791 checksum 0, BTH P_Key 0xffff, pad to 4 bytes, ICRC as
 * rxe_icrc.c computes it) and then spoiled as asked:
 *
 *	op=N psn=N ack se len=N (payload bytes) fill=N (their value)
 *	va=N rkey=N rlen=N (RETH, for the opcodes that have one) imm=N
 *	aeth=N (syndrome << 24 | MSN, for op=0x11, the ACK)
 *	qpn=N (instead of -q)  src=N (IPv4 source, host order, instead of -s)  tver=N  pad=N (the BTH pad count, as sent)
 *	badicrc (ICRC inverted)  hdrcut=N (N bytes less of the headers after
 *	the BTH, ICRC still right)  udplen=N  iplen=N (the length fields, as
 *	sent)  badipcsum  wire=N (cut the frame to N bytes of IP packet)
 *	tos=N (the IPv4 TOS byte: 3 is ECN CE)
 *	irn (IRN, rdma-glue/hdr.h: BTH resv8a IRN_CAP | IRN, and a WRITE
 *	opcode without a RETH of its own carries va/rkey/rlen in front of
 *	its payload, a SEND opcode sn=N off=N: its receive WQE and offset,
 *	the end of a WRITE with immediate sn=N off=N after its RETH: the
 *	receive it takes and the message's length, a READ request sn=N
 *	after its RETH: its read_WQE_SN)
 *	cw (ConWeave, rdma-glue/hdr.h: BTH resv8a CW; the payload's first 8
 *	bytes are then the ConWeave header)
 *
 * Packets go out of IFNAME (AF_PACKET, to DST_MAC: nothing of the local IP
 * stack checks or fixes them) GAP_MS (20) apart; every RoCEv2 packet that
 * comes back on IFNAME from DST_IPV4 to SRC_IPV4 within WAIT_MS (800) of
 * the last is printed:
 *
 *	reply op 0x11 psn N class ACK|NAK-SEQ|NAK-INV|NAK-ACC|NAK-OP|NAK-OTHER|RNR
 *	      syn 0xNN msn N icrc ok|BAD [irn] [sack N]
 *
 * (irn: the reply has IRN_CAP; sack: an IRN NAK's PSN after the AETH)
 *	reply op 0xNN psn N (a request)
 *
 * and last "replies N".  Exit 0 unless something could not be sent.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <linux/if_packet.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ROCE_PORT 4791

static uint32_t crc_table[256];

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
		crc_table[i] = c;
	}
}

/* The kernel's crc32_le(): reflected, no inversion of its own. */
static uint32_t crc32_le(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len--)
		crc = (crc >> 8) ^ crc_table[(crc ^ *p++) & 0xff];
	return crc;
}

/*
 * rxe_icrc.c: seeded for 8 bytes of 0xff (the masked LRH), IPv4 and UDP
 * headers with TOS, TTL, IP checksum and UDP checksum set to ones, the
 * BTH with its byte before the QPN set to ones, then the rest; inverted.
 * @ip: a 20-byte IPv4 header followed by UDP, BTH, ...; @len: from the
 * BTH to the end of the pad.
 */
static uint32_t roce_icrc(const uint8_t *ip, size_t len)
{
	uint8_t ps[20 + 8 + 12];
	uint32_t crc;

	memcpy(ps, ip, sizeof(ps));
	ps[1] = 0xff;			/* TOS */
	ps[8] = 0xff;			/* TTL */
	ps[10] = ps[11] = 0xff;		/* IP checksum */
	ps[26] = ps[27] = 0xff;		/* UDP checksum */
	ps[28 + 4] = 0xff;		/* BTH resv8a (FECN, BECN) */
	crc = crc32_le(0xdebb20e3u, ps, sizeof(ps));
	crc = crc32_le(crc, ip + 40, len - 12);
	return ~crc;
}

static uint16_t ip_csum(const uint8_t *p, size_t n)
{
	uint32_t s = 0;

	for (size_t i = 0; i + 1 < n; i += 2)
		s += (uint32_t)p[i] << 8 | p[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static int has_reth(int op)
{
	return op == 0x06 || op == 0x0a || op == 0x0b || op == 0x0c;
}

static int has_aeth(int op)
{
	return op == 0x11;
}

static int has_imm(int op)
{
	return op == 0x03 || op == 0x05 || op == 0x09 || op == 0x0b;
}

struct pkt {
	long op, psn, len, fill, qpn, tver, pad, hdrcut, udplen, iplen, wire, imm, tos;
	unsigned long long va, aeth, src;
	unsigned long rkey, rlen, sn, off;
	int ack, se, badicrc, badipcsum, irn, cw;
};

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24; p[1] = v >> 16; p[2] = v >> 8; p[3] = v;
}

static int parse(char *spec, struct pkt *k, long qpn)
{
	char *save = NULL, *tok;

	memset(k, 0, sizeof(*k));
	k->op = 0x04;
	k->fill = 0x5c;
	k->qpn = qpn;
	k->pad = k->udplen = k->iplen = k->wire = -1;
	for (tok = strtok_r(spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		unsigned long long v = eq ? strtoull(eq + 1, NULL, 0) : 0;

		if (eq)
			*eq = 0;
#define NUM(name) else if (!strcmp(tok, #name) && eq) k->name = v
#define FLAG(name) else if (!strcmp(tok, #name) && !eq) k->name = 1
		if (0) ;
		NUM(op); NUM(psn); NUM(len); NUM(fill); NUM(qpn); NUM(tver); NUM(pad);
		NUM(hdrcut); NUM(udplen); NUM(iplen); NUM(wire); NUM(imm); NUM(va);
		NUM(rkey); NUM(rlen); NUM(aeth); NUM(src); NUM(tos); NUM(sn); NUM(off);
		FLAG(ack); FLAG(se); FLAG(badicrc); FLAG(badipcsum); FLAG(irn); FLAG(cw);
		else {
			fprintf(stderr, "tonic_roce_inject: unknown '%s'\n", tok);
			return -1;
		}
	}
	return 0;
}

/* Build @k into @out (an IPv4 packet); its length. */
static void put_reth(uint8_t *p, const struct pkt *k)
{
	put32(p, k->va >> 32);
	put32(p + 4, (uint32_t)k->va);
	put32(p + 8, k->rkey);
	put32(p + 12, k->rlen);
}

static size_t build(const struct pkt *k, uint8_t *out, struct in_addr src, struct in_addr dst)
{
	int pad = (-k->len) & 3;
	/*
	 * IRN framing, after the opcode's own headers: WRITE middle, last,
	 * last with immediate get a RETH in front of the payload; SENDs their
	 * receive WQE and offset (sn, off), and so does the end of a WRITE
	 * with immediate after its RETH (off: the message's length); a READ
	 * request its read_WQE_SN (sn) after its RETH.
	 */
	int irn_reth = k->irn && k->op >= 0x07 && k->op <= 0x09;
	int irn_sn = k->irn && (k->op <= 0x05 || k->op == 0x09 || k->op == 0x0b);
	int irn_rsn = k->irn && k->op == 0x0c;
	size_t ext = (has_reth(k->op) || irn_reth ? 16 : 0) + (has_imm(k->op) ? 4 : 0) +
		     (has_aeth(k->op) ? 4 : 0) + (irn_sn ? 8 : 0) + (irn_rsn ? 4 : 0);
	size_t blen, tot;
	uint8_t *udp = out + 20, *bth = out + 28, *p;
	uint16_t cs;

	if ((size_t)k->hdrcut > ext)
		ext = 0;
	else
		ext -= k->hdrcut;
	blen = 12 + ext + k->len + pad;		/* BTH to the end of the pad */
	tot = 28 + blen + 4;

	memset(out, 0, tot);
	out[0] = 0x45;
	put32(out + 0, 0x45000000u | (uint32_t)(k->tos & 0xff) << 16 | (uint32_t)tot);
	out[4] = 0x12; out[5] = 0x34;
	out[6] = 0x40;				/* DF */
	out[8] = 64;
	out[9] = IPPROTO_UDP;
	if (k->src)
		src.s_addr = htonl((uint32_t)k->src);
	memcpy(out + 12, &src, 4);
	memcpy(out + 16, &dst, 4);
	udp[0] = 0xc1; udp[1] = 0x23;
	udp[2] = ROCE_PORT >> 8; udp[3] = ROCE_PORT & 0xff;
	udp[4] = (tot - 20) >> 8; udp[5] = (tot - 20) & 0xff;

	bth[0] = k->op;
	bth[1] = (k->se ? 0x80 : 0) | ((k->pad >= 0 ? k->pad : pad) & 3) << 4 | (k->tver & 0xf);
	bth[2] = bth[3] = 0xff;
	put32(bth + 4, (k->qpn & 0xffffff) | (k->irn ? 0x03000000u : 0) |
	      (k->cw ? 0x04000000u : 0));
	put32(bth + 8, (k->psn & 0xffffff) | (k->ack ? 0x80000000u : 0));
	p = bth + 12;
	{
		uint8_t hdr[32];
		size_t h = 0;

		if (has_reth(k->op)) {
			put_reth(hdr, k);
			h = 16;
		}
		if (has_imm(k->op)) {
			put32(hdr + h, k->imm);
			h += 4;
		}
		if (has_aeth(k->op)) {
			put32(hdr + h, k->aeth);
			h += 4;
		}
		if (irn_reth) {
			put_reth(hdr + h, k);
			h += 16;
		}
		if (irn_sn) {
			put32(hdr + h, k->sn);
			put32(hdr + h + 4, k->off);
			h += 8;
		}
		if (irn_rsn) {
			put32(hdr + h, k->sn);
			h += 4;
		}
		memcpy(p, hdr, ext);
		p += ext;
	}
	memset(p, k->fill, k->len);
	p += k->len + pad;

	/* ICRC over the headers as they will be sent (lengths included). */
	if (k->udplen >= 0) {
		udp[4] = k->udplen >> 8;
		udp[5] = k->udplen & 0xff;
	}
	if (k->iplen >= 0) {
		out[2] = k->iplen >> 8;
		out[3] = k->iplen & 0xff;
	}
	{
		uint32_t icrc = roce_icrc(out, blen);

		if (k->badicrc)
			icrc = ~icrc;
		p[0] = icrc; p[1] = icrc >> 8; p[2] = icrc >> 16; p[3] = icrc >> 24;
	}
	cs = ip_csum(out, 20);
	if (k->badipcsum)
		cs ^= 0x5555;
	out[10] = cs >> 8;
	out[11] = cs & 0xff;
	if (k->wire >= 0 && (size_t)k->wire < tot)
		tot = k->wire;
	return tot;
}

static const char *aeth_class(uint8_t syn)
{
	switch (syn & 0xe0) {
	case 0x00: return "ACK";
	case 0x20: return "RNR";
	case 0x60:
		switch (syn & 0x1f) {
		case 0: return "NAK-SEQ";
		case 1: return "NAK-INV";
		case 2: return "NAK-ACC";
		case 3: return "NAK-OP";
		}
		return "NAK-OTHER";
	}
	return "RESERVED";
}

static int total;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Print every reply that arrives within @ms; how many. */
static int collect(int rs, struct in_addr src, struct in_addr dst, long ms)
{
	long end = now_ms() + ms;
	int n = 0;

	for (;;) {
		long left = end - now_ms();
		struct pollfd pfd = { .fd = rs, .events = POLLIN };
		uint8_t b[4096];
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		ssize_t r;
		size_t ihl, l;
		uint8_t *bth;

		if (left <= 0 || poll(&pfd, 1, left) <= 0)
			return n;
		r = recvfrom(rs, b, sizeof(b), 0, (struct sockaddr *)&from, &fl);
		if (r < 28 || from.sll_pkttype == PACKET_OUTGOING)
			continue;
		ihl = (b[0] & 0xf) * 4;
		if ((b[0] >> 4) != 4 || b[9] != IPPROTO_UDP || (size_t)r < ihl + 8 + 12 + 4 ||
		    memcmp(b + 12, &dst, 4) || memcmp(b + 16, &src, 4) ||
		    (b[ihl + 2] << 8 | b[ihl + 3]) != ROCE_PORT)
			continue;
		l = b[2] << 8 | b[3];
		if (l > (size_t)r)
			l = r;
		bth = b + ihl + 8;
		n++;
		total++;
		if (bth[0] == 0x11 && l >= ihl + 8 + 16 + 4) {
			uint32_t icrc = roce_icrc(b, l - 28 - 4);
			uint32_t got = bth[l - 28 - 4] | bth[l - 28 - 3] << 8 |
				       (uint32_t)bth[l - 28 - 2] << 16 | (uint32_t)bth[l - 28 - 1] << 24;

			printf("reply op 0x11 psn %u class %s syn 0x%02x msn %u icrc %s",
			       (bth[9] << 16 | bth[10] << 8 | bth[11]), aeth_class(bth[12]), bth[12],
			       (bth[13] << 16 | bth[14] << 8 | bth[15]),
			       ihl == 20 && icrc == got ? "ok" : "BAD");
			if (bth[4] & 0x02)
				printf(" irn");
			if ((bth[4] & 0x02) && l >= ihl + 8 + 16 + 4 + 4)
				printf(" sack %u", bth[17] << 16 | bth[18] << 8 | bth[19]);
			printf("\n");
		} else {
			printf("reply op 0x%02x psn %u\n", bth[0],
			       (bth[9] << 16 | bth[10] << 8 | bth[11]));
		}
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	const char *ifname = NULL, *mac = NULL;
	struct in_addr src = { 0 }, dst = { 0 };
	long qpn = -1, wait_ms = 800, gap_ms = 20;
	struct sockaddr_ll sll;
	unsigned int m[6];
	int ss, rs, c, i, n;

	while ((c = getopt(argc, argv, "i:m:s:d:q:w:g:")) != -1) {
		switch (c) {
		case 'i': ifname = optarg; break;
		case 'm': mac = optarg; break;
		case 's': inet_aton(optarg, &src); break;
		case 'd': inet_aton(optarg, &dst); break;
		case 'q': qpn = strtol(optarg, NULL, 0); break;
		case 'w': wait_ms = atol(optarg); break;
		case 'g': gap_ms = atol(optarg); break;
		default: return 2;
		}
	}
	if (!ifname || !mac || !src.s_addr || !dst.s_addr || qpn < 0 || optind >= argc ||
	    sscanf(mac, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4], &m[5]) != 6) {
		fprintf(stderr, "usage: see the comment at the top of tonic_roce_inject.c\n");
		return 2;
	}
	crc_init();

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_IP);
	sll.sll_ifindex = if_nametoindex(ifname);
	if (!sll.sll_ifindex) {
		perror(ifname);
		return 1;
	}
	rs = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_IP));
	ss = socket(AF_PACKET, SOCK_DGRAM, 0);
	if (rs < 0 || ss < 0 || bind(rs, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("AF_PACKET");
		return 1;
	}
	sll.sll_halen = 6;
	for (i = 0; i < 6; i++)
		sll.sll_addr[i] = m[i];

	for (n = optind; n < argc; n++) {
		struct pkt k;
		uint8_t out[9000];
		char *spec = strdup(argv[n]);
		size_t len;

		if (!spec || parse(spec, &k, qpn))
			return 2;
		free(spec);
		if (k.len < 0 || k.len > 4096) {
			fprintf(stderr, "tonic_roce_inject: len up to 4096\n");
			return 2;
		}
		len = build(&k, out, src, dst);
		if (sendto(ss, out, len, 0, (struct sockaddr *)&sll, sizeof(sll)) != (ssize_t)len) {
			perror("sendto");
			return 1;
		}
		if (n + 1 < argc)
			collect(rs, src, dst, gap_ms);
	}
	collect(rs, src, dst, wait_ms);
	printf("replies %d\n", total);
	return 0;
}
