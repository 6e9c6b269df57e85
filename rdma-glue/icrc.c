// SPDX-License-Identifier: GPL-2.0
/*
 * The invariant CRC of a RoCEv2 packet, computed as Soft-RoCE does
 * (rxe_icrc.c): CRC-32 (crc32_le) seeded as if over 8 bytes of 0xff (the
 * masked LRH), over the IPv4 and UDP headers with the fields that change
 * in flight masked to ones (TOS, TTL, IP checksum, UDP checksum), the BTH
 * with its reserved byte masked, then the rest of the headers, the
 * payload and its pad.  Stored inverted, in little-endian byte order.
 */
#include <linux/crc32.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include "tonic_rdma.h"

#define TRD_ICRC_SEED	0xdebb20e3

u32 trd_icrc(const struct iphdr *iph, const u8 *bth, unsigned int len)
{
	u8 ps[sizeof(struct iphdr) + sizeof(struct udphdr) + sizeof(struct trd_bth)];
	struct iphdr *ip = (struct iphdr *)ps;
	struct udphdr *udp = (struct udphdr *)(ip + 1);
	struct trd_bth *b = (struct trd_bth *)(udp + 1);
	u32 crc;

	memcpy(ps, iph, sizeof(*ip) + sizeof(*udp));
	memcpy(b, bth, sizeof(*b));
	ip->tos = 0xff;
	ip->ttl = 0xff;
	ip->check = CSUM_MANGLED_0;
	udp->check = CSUM_MANGLED_0;
	b->qpn |= cpu_to_be32(~TRD_QPN_MASK);

	crc = crc32_le(TRD_ICRC_SEED, ps, sizeof(ps));
	crc = crc32_le(crc, bth + sizeof(*b), len - sizeof(*b));
	return ~crc;
}
