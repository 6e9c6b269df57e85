// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_inject: crafted ACKs into a live TCP connection, as an on-path
 * host (the receiver's namespace) would send them.
 *
 *   tonic_inject -i IFACE -p PORT -k KIND [-n COUNT] [-d MS] [-o OFFSET] [-w S] [-v]
 *
 * Run on the receiver (the host whose TCP port is PORT): one AF_PACKET
 * socket on IFACE sniffs the connection in both directions -- the
 * sender's data (highest sequence number it sent, its timestamps) and the
 * receiver's own ACKs (Ethernet header, addresses, seq/ack/window,
 * timestamps, window scale from the SYN-ACK) -- and once data flows it
 * sends COUNT crafted segments toward the sender, spread over MS
 * milliseconds, each built from the latest state.  The sender's kernel TCP
 * drops them (RFC 793, 5961, 7323, 2018; "beyond": those past its snd_nxt,
 * see below); the test is whether anything else still acts on them.  KIND:
 *
 *   badcsum  a valid-looking ACK with a wrong TCP checksum
 *   beyond   ACK beyond anything the sender sent (checksum correct)
 *   seq      sequence number 1 GB outside the receive window, ACK in the future
 *   oldack   ACK 10 MB in the past, with SACK blocks over in-flight/unsent data
 *   sack     the current ACK, with SACK blocks beyond snd_nxt and reversed ones
 *   paws     timestamp far in the past (fails PAWS), ACK in the future
 *   sniff    inject nothing: watch until the connection ends (at most MS
 *            from the start) and report what was seen, IPv6 extension
 *            headers included, and the sender's data packets with CWR
 *            (as captured: a GSO packet counts once, at its full length),
 *            and its SYNs (a retransmitted one may no longer offer ECN)
 *
 * "ACK in the future": one in four is hi + 1 MB (hi = the end of the
 * highest segment the sender was seen to send), the others are spread over
 * (hi, hi + 1 MB], never beyond the right edge of the receiver's window:
 * the sender's snd_nxt is a little above hi, and what it has queued but not
 * sent yet above that.  TCP drops those beyond snd_nxt; the others ack data
 * still in flight (harmless where nothing is lost, so the "beyond" kind
 * belongs on a path without loss).  -o OFFSET: always hi + OFFSET.
 *
 * Waits up to S seconds (default 30) for data to flow; stops injecting when
 * the sender's FIN goes by, or at SIGTERM.  Prints one summary line
 * "inject: KIND ..." and exits 0 if it injected (or, for sniff, saw the
 * connection), 1 otherwise.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MB (1u << 20)

enum kind { K_BADCSUM, K_BEYOND, K_SEQ, K_OLDACK, K_SACK, K_PAWS, K_SNIFF };
static const char *const kind_names[] = { "badcsum", "beyond", "seq", "oldack", "sack", "paws",
					  "sniff" };

/* What is known about the connection; "peer" is the sender (remote), "self" the receiver. */
struct conn {
	/* The connection followed (cleared when a newer one starts). */
	int have_self, have_peer, v6, have_ts;
	unsigned char eth[14];			/* self -> peer: dst, src, type */
	unsigned char saddr[16], daddr[16];	/* self, peer */
	uint16_t sport, dport;			/* self (PORT), peer */
	uint32_t self_seq, self_ack, self_win, self_tsval;
	uint32_t peer_hi, peer_tsval;
	int self_wscale, wscale_known, mss;
	int peer_fin, self_fin;
	unsigned long pkts_peer, pkts_self, data_peer, self_ext, self_ext_types, peer_ext;
	uint64_t bytes_peer;
	/* The sender's largest data packet, and those with CWR (GSO ones unsplit). */
	unsigned long cwr_peer;
	int data_max, cwr_max;
	/* The sender's SYNs, and whether the last offered ECN (ECE and CWR, RFC 3168 6.1.1). */
	unsigned long syn_peer;
	int syn_ecn;
	/* Which one. */
	uint16_t peer_port;
	int locked;				/* 2: by its SYN */
};

static volatile sig_atomic_t stopped;

static void on_signal(int sig)
{
	(void)sig;
	stopped = 1;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int seq_after(uint32_t a, uint32_t b)
{
	return (int32_t)(a - b) > 0;
}

static uint32_t csum_add(uint32_t sum, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n > 1) {
		sum += (uint32_t)b[0] << 8 | b[1];
		b += 2;
		n -= 2;
	}
	if (n)
		sum += (uint32_t)b[0] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

/* Walk IPv6 extension headers: returns the L4 offset and protocol, counts the types. */
static int ip6_l4(const unsigned char *p, int len, int *proto, unsigned long *types)
{
	int off = 40, nh = p[6];

	while (nh == 0 || nh == 43 || nh == 60 || nh == 44 || nh == 51) {
		int hl;

		if (off + 8 > len)
			return -1;
		if (types)
			*types |= nh == 0 ? 1 : nh == 43 ? 2 : nh == 60 ? 4 : nh == 44 ? 8 : 16;
		if (nh == 44)
			hl = 8;
		else if (nh == 51)
			hl = (p[off + 1] + 2) * 4;
		else
			hl = (p[off + 1] + 1) * 8;
		nh = p[off];
		off += hl;
	}
	*proto = nh;
	return off;
}

/* Parse one frame; update the connection's state. */
static void learn(struct conn *c, const unsigned char *f, int caplen, int port, int outgoing)
{
	const unsigned char *ip = f + 14, *th, *opt;
	int iplen, l4off, proto, v6, thlen, paylen, optlen, i, fromself;
	uint16_t type, sp, dp;
	uint32_t seq, ack, win;
	unsigned long types = 0;

	if (caplen < 14 + 20)
		return;
	type = f[12] << 8 | f[13];
	if (type == ETHERTYPE_IP) {
		v6 = 0;
		if ((ip[0] >> 4) != 4 || ip[9] != IPPROTO_TCP)
			return;
		l4off = (ip[0] & 15) * 4;
		iplen = ip[2] << 8 | ip[3];
		proto = IPPROTO_TCP;
	} else if (type == ETHERTYPE_IPV6) {
		v6 = 1;
		if (caplen < 14 + 40)
			return;
		iplen = 40 + (ip[4] << 8 | ip[5]);
		l4off = ip6_l4(ip, caplen - 14, &proto, &types);
		if (l4off < 0 || proto != IPPROTO_TCP)
			return;
	} else {
		return;
	}
	if (14 + l4off + 20 > caplen)
		return;
	th = ip + l4off;
	sp = th[0] << 8 | th[1];
	dp = th[2] << 8 | th[3];
	if (sp == port && outgoing)
		fromself = 1;
	else if (dp == port && !outgoing)
		fromself = 0;
	else
		return;
	/*
	 * One connection: the first the sender opens after we started (its
	 * SYN), else the first one seen.  Others on PORT (an earlier one
	 * still closing) are not ours.
	 */
	if (!fromself && (th[13] & 0x12) == 0x02 && c->locked < 2) {
		if (c->locked) {	/* followed an older one so far: start over */
			memset(c, 0, offsetof(struct conn, peer_port));
			c->self_wscale = 7;
		}
		c->peer_port = sp;
		c->locked = 2;
	} else if (!c->locked && !fromself) {
		c->peer_port = sp;
		c->locked = 1;
	}
	if (!c->locked || (fromself ? dp : sp) != c->peer_port)
		return;
	thlen = (th[12] >> 4) * 4;
	if (thlen < 20 || 14 + l4off + thlen > caplen)
		return;
	paylen = iplen - l4off - thlen;
	if (paylen < 0)
		paylen = 0;
	seq = (uint32_t)th[4] << 24 | th[5] << 16 | th[6] << 8 | th[7];
	ack = (uint32_t)th[8] << 24 | th[9] << 16 | th[10] << 8 | th[11];
	win = th[14] << 8 | th[15];
	opt = th + 20;
	optlen = thlen - 20;

	/* Options: timestamps, window scale, MSS. */
	for (i = 0; i < optlen;) {
		int k = opt[i], l;

		if (k == 0)
			break;
		if (k == 1) {
			i++;
			continue;
		}
		if (i + 1 >= optlen)
			break;
		l = opt[i + 1];
		if (l < 2 || i + l > optlen)
			break;
		if (k == 8 && l == 10) {
			uint32_t tsval = (uint32_t)opt[i + 2] << 24 | opt[i + 3] << 16 |
					 opt[i + 4] << 8 | opt[i + 5];

			if (fromself) {
				c->self_tsval = tsval;
				c->have_ts = 1;
			} else {
				c->peer_tsval = tsval;
			}
		} else if (k == 3 && l == 3 && (th[13] & 0x02) && fromself) {
			c->self_wscale = opt[i + 2];
			c->wscale_known = 1;
		} else if (k == 2 && l == 4 && (th[13] & 0x02) && !fromself) {
			c->mss = opt[i + 2] << 8 | opt[i + 3];
		}
		i += l;
	}
	if (fromself) {
		c->pkts_self++;
		if (types) {
			c->self_ext++;
			c->self_ext_types |= types;
		}
		if (!(th[13] & 0x10))	/* no ACK flag: the SYN-ACK has it, a bare SYN not */
			return;
		memcpy(c->eth, f, 14);
		c->v6 = v6;
		if (v6) {
			memcpy(c->saddr, ip + 8, 16);
			memcpy(c->daddr, ip + 24, 16);
		} else {
			memcpy(c->saddr, ip + 12, 4);
			memcpy(c->daddr, ip + 16, 4);
		}
		c->sport = sp;
		c->dport = dp;
		c->self_seq = seq + paylen + ((th[13] & 0x03) ? 1 : 0);
		if (!c->have_self || seq_after(ack, c->self_ack) || ack == c->self_ack) {
			c->self_ack = ack;
			c->self_win = win;
		}
		if (th[13] & 0x01)
			c->self_fin = 1;
		c->have_self = 1;
	} else {
		uint32_t end = seq + paylen + ((th[13] & 0x03) ? 1 : 0);

		c->pkts_peer++;
		if (types)
			c->peer_ext++;
		if ((th[13] & 0x12) == 0x02) {
			c->syn_peer++;
			c->syn_ecn = (th[13] & 0xc0) == 0xc0;
		}
		if (paylen) {
			c->data_peer++;
			c->bytes_peer += paylen;
			if (paylen > c->data_max)
				c->data_max = paylen;
			if (th[13] & 0x80) {
				c->cwr_peer++;
				if (paylen > c->cwr_max)
					c->cwr_max = paylen;
			}
		}
		if (!c->have_peer || seq_after(end, c->peer_hi))
			c->peer_hi = end;
		if (th[13] & 0x01)
			c->peer_fin = 1;
		c->have_peer = 1;
	}
}

static int put32(unsigned char *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
	return 4;
}

/* A future ACK value (see the header comment). */
static uint32_t future_ack(const struct conn *c, unsigned long i, long long fixed)
{
	uint32_t right = c->self_ack + (c->self_win << c->self_wscale);
	uint32_t span = (int32_t)(right - c->peer_hi) > 0 ? right - c->peer_hi : 1;

	if (fixed >= 0)
		return c->peer_hi + (uint32_t)fixed;
	if (i % 4 == 0)
		return c->peer_hi + MB;
	if (span > MB)
		span = MB;
	return c->peer_hi + 1 + (uint32_t)(i * 2654435761u >> 7) % span;
}

/* Build one crafted segment of @kind (number @i) into @f; returns its length. */
static int craft(const struct conn *c, enum kind kind, unsigned long i, long long fixed,
		 unsigned char *f)
{
	unsigned char *ip = f + 14, *th, *o;
	uint32_t seq = c->self_seq, ack, tsval = c->self_tsval, sum, wnd = c->self_win;
	uint32_t right = c->self_ack + (c->self_win << c->self_wscale), mss = c->mss ? c->mss : 1448;
	uint32_t sack[3][2];
	int nsack = 0, iphl = c->v6 ? 40 : 20, optlen = 0, thlen, k;
	uint16_t ck;

	switch (kind) {
	case K_OLDACK:
		ack = c->self_ack - 10 * MB;
		sack[0][0] = c->self_ack + 2 * mss;	/* in flight */
		sack[0][1] = c->peer_hi;
		sack[1][0] = c->peer_hi;		/* not sent yet */
		sack[1][1] = c->peer_hi + 256 * 1024;
		nsack = 2;
		break;
	case K_SACK:
		ack = c->self_ack;
		sack[0][0] = c->peer_hi + MB;		/* beyond snd_nxt */
		sack[0][1] = c->peer_hi + 2 * MB;
		sack[1][0] = c->self_ack + 20 * mss;	/* reversed */
		sack[1][1] = c->self_ack + 4 * mss;
		sack[2][0] = c->self_ack + mss;		/* from in flight to beyond snd_nxt */
		sack[2][1] = c->peer_hi + MB;
		nsack = 3;
		break;
	case K_SEQ:
		seq += 1u << 30;
		/* fall through */
	default:
		ack = future_ack(c, i, fixed);
		/* Inside the receiver's window: keep its right edge where it is. */
		if (seq_after(right, ack))
			wnd = (right - ack) >> c->self_wscale;
		break;
	}
	if (kind == K_PAWS)
		tsval -= 1u << 30;

	/* Ethernet: what the receiver itself sends to the sender. */
	memcpy(f, c->eth, 14);
	th = ip + iphl;
	o = th + 20;
	if (c->have_ts) {
		o[optlen++] = 1;
		o[optlen++] = 1;
		o[optlen++] = 8;
		o[optlen++] = 10;
		optlen += put32(o + optlen, tsval);
		optlen += put32(o + optlen, c->peer_tsval);
	}
	if (nsack) {
		o[optlen++] = 1;
		o[optlen++] = 1;
		o[optlen++] = 5;
		o[optlen++] = 2 + 8 * nsack;
		for (k = 0; k < nsack; k++) {
			optlen += put32(o + optlen, sack[k][0]);
			optlen += put32(o + optlen, sack[k][1]);
		}
	}
	thlen = 20 + optlen;
	memset(th, 0, 20);
	th[0] = c->sport >> 8;
	th[1] = c->sport;
	th[2] = c->dport >> 8;
	th[3] = c->dport;
	put32(th + 4, seq);
	put32(th + 8, ack);
	th[12] = (thlen / 4) << 4;
	th[13] = 0x10;	/* ACK */
	if (wnd > 65535)
		wnd = 65535;
	th[14] = wnd >> 8;
	th[15] = wnd;

	/* Pseudo-header + TCP. */
	if (c->v6) {
		sum = csum_add(0, c->saddr, 16);
		sum = csum_add(sum, c->daddr, 16);
	} else {
		sum = csum_add(0, c->saddr, 4);
		sum = csum_add(sum, c->daddr, 4);
	}
	sum += IPPROTO_TCP + thlen;
	sum = csum_add(sum, th, thlen);
	ck = csum_fold(sum);
	if (kind == K_BADCSUM)
		ck ^= 0x5a5a;
	th[16] = ck >> 8;
	th[17] = ck;

	if (c->v6) {
		memset(ip, 0, 40);
		ip[0] = 0x60;
		ip[4] = thlen >> 8;
		ip[5] = thlen;
		ip[6] = IPPROTO_TCP;
		ip[7] = 64;
		memcpy(ip + 8, c->saddr, 16);
		memcpy(ip + 24, c->daddr, 16);
	} else {
		memset(ip, 0, 20);
		ip[0] = 0x45;
		ip[2] = (20 + thlen) >> 8;
		ip[3] = 20 + thlen;
		ip[4] = i >> 8;
		ip[5] = i;
		ip[6] = 0x40;	/* DF */
		ip[8] = 64;
		ip[9] = IPPROTO_TCP;
		memcpy(ip + 12, c->saddr, 4);
		memcpy(ip + 16, c->daddr, 4);
		ck = csum_fold(csum_add(0, ip, 20));
		ip[10] = ck >> 8;
		ip[11] = ck;
	}
	return 14 + iphl + thlen;
}

static void usage(void)
{
	fprintf(stderr, "usage: tonic_inject -i IFACE -p PORT\n"
		"           -k badcsum|beyond|seq|oldack|sack|paws|sniff\n"
		"           [-n COUNT] [-d MS] [-o OFFSET] [-w S] [-v]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *ifname = NULL;
	int port = 0, count = 200, dur = 2000, wait_s = 30, verbose = 0, s, opt, ifindex;
	enum kind kind = K_SNIFF;
	long long fixed = -1;
	struct sockaddr_ll sll = { 0 };
	struct conn c = { .self_wscale = 7 };
	unsigned long injected = 0, errors = 0;
	double t_start = now_ms(), t_ready = 0, t_next = 0, interval;
	const char *stop = "count";
	unsigned char frame[256];
	int k;

	while ((opt = getopt(argc, argv, "i:p:k:n:d:o:w:v")) != -1) {
		switch (opt) {
		case 'i': ifname = optarg; break;
		case 'p': port = atoi(optarg); break;
		case 'k':
			for (k = 0; k <= K_SNIFF && strcmp(optarg, kind_names[k]); k++)
				;
			if (k > K_SNIFF)
				usage();
			kind = k;
			break;
		case 'n': count = atoi(optarg); break;
		case 'd': dur = atoi(optarg); break;
		case 'o': fixed = strtoll(optarg, NULL, 0); break;
		case 'w': wait_s = atoi(optarg); break;
		case 'v': verbose = 1; break;
		default: usage();
		}
	}
	if (!ifname || !port || count < 1 || dur < 1)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	ifindex = if_nametoindex(ifname);
	s = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	if (!ifindex || s < 0) {
		perror("tonic_inject: socket");
		return 1;
	}
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = ifindex;
	if (bind(s, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("tonic_inject: bind");
		return 1;
	}
	/* SIGTERM/SIGINT end it early, summary included. */
	{
		struct sigaction sa = { .sa_handler = on_signal };

		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGINT, &sa, NULL);
	}
	printf("inject: listening on %s port %d\n", ifname, port);
	interval = (double)dur / count;

	for (;;) {
		double t = now_ms();
		struct pollfd pfd = { .fd = s, .events = POLLIN };
		int timeout;

		/* Ready: the receiver has acked, and 64 KB of data went by. */
		if (!t_ready && c.have_self && c.have_peer && c.bytes_peer >= 65536 && !c.peer_fin) {
			t_ready = t;
			t_next = t;
			if (verbose)
				printf("inject: ready after %.0f ms (v%d, wscale %d%s, mss %d, ts %d)\n",
				       t - t_start, c.v6 ? 6 : 4, c.self_wscale,
				       c.wscale_known ? "" : " assumed", c.mss, c.have_ts);
		}
		if (stopped) {
			stop = "signal";
			break;
		}
		if (kind == K_SNIFF) {
			if (t - t_start > dur) {
				stop = "duration";
				break;
			}
			if (c.peer_fin && c.self_fin) {
				stop = "fin";
				break;
			}
		} else if (t_ready) {
			if (c.peer_fin) {
				stop = "fin";
				break;
			}
			if (injected >= (unsigned long)count)
				break;
			if (t >= t_next) {
				int len = craft(&c, kind, injected, fixed, frame);

				if (send(s, frame, len, 0) != len) {
					errors++;
					if (errors < 3)
						perror("tonic_inject: send");
				}
				if (verbose && injected < 3)
					printf("inject: #%lu self seq %u ack %u win %u, peer hi %u\n",
					       injected, c.self_seq, c.self_ack, c.self_win, c.peer_hi);
				injected++;
				t_next += interval;
				continue;
			}
		}
		if (kind != K_SNIFF && !t_ready && t - t_start > wait_s * 1e3) {
			stop = "no data";
			break;
		}
		timeout = t_ready && kind != K_SNIFF ? (int)(t_next - t) : 100;
		if (timeout < 0)
			timeout = 0;
		if (timeout > 100)
			timeout = 100;
		if (poll(&pfd, 1, timeout) > 0) {
			struct sockaddr_ll from;
			socklen_t fl = sizeof(from);
			ssize_t n;

			/* Drain what is there: the state must be current when we craft. */
			while ((n = recvfrom(s, frame, sizeof(frame), MSG_TRUNC | MSG_DONTWAIT,
					     (struct sockaddr *)&from, &fl)) > 0) {
				learn(&c, frame, n < (ssize_t)sizeof(frame) ? n : (int)sizeof(frame),
				      port, from.sll_pkttype == PACKET_OUTGOING);
				fl = sizeof(from);
			}
		}
	}
	t_start = kind == K_SNIFF ? t_start : t_ready ? t_ready : now_ms();
	printf("inject: %s injected %lu/%d over %.0f ms (stop: %s, send errors %lu); seen %lu pkts "
	       "from sender (%lu data, %llu bytes), %lu from receiver (%lu with IPv6 ext headers, "
	       "types 0x%lx), v%d wscale %d%s; mss %d, largest data %d, %lu CWR (largest %d); "
	       "%lu SYN, ECN %s\n",
	       kind_names[kind], injected, kind == K_SNIFF ? 0 : count, now_ms() - t_start, stop,
	       errors, c.pkts_peer, c.data_peer, (unsigned long long)c.bytes_peer, c.pkts_self,
	       c.self_ext, c.self_ext_types, c.v6 ? 6 : 4, c.self_wscale,
	       c.wscale_known ? "" : " (assumed)", c.mss, c.data_max, c.cwr_peer, c.cwr_max,
	       c.syn_peer, c.syn_ecn ? "offered" : "not offered");
	close(s);
	if (kind == K_SNIFF)
		return c.have_self && c.have_peer ? 0 : 1;
	return injected ? 0 : 1;
}
