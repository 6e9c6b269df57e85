// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_xfer: bulk transfers with an end-to-end integrity check (SHA-256
 * of the byte stream, computed by the receiver).
 *
 *   tonic_xfer -s PORT [-M N] [-o FILE] [-R BYTES] [-D MS]
 *       Receive N connections (default 1, concurrently); for each, after
 *       the sender's EOF, reply "BYTES SHA256" and print "server: BYTES SHA256".
 *       -o FILE  also write the (single) stream to FILE
 *       -R BYTES reset the connection (RST) after BYTES were received
 *       -D MS    sleep MS after each read (a slow reader: zero windows)
 *       -Q       echo server for -Q clients (one connection)
 *       -H MS    hold: sleep MS after accepting, before the first read
 *       -g       ignore SIGPIPE (the reply to a reset peer then fails quietly)
 *       -X hop|dst  an IPv6 hop-by-hop or destination options header (PadN)
 *                on every packet of the IPv6 connections (set on the listening
 *                socket: the accepted ones inherit it, SYN-ACK and ACKs too)
 *       (the listener has SO_OOBINLINE: an urgent byte stays in the stream)
 *
 *   tonic_xfer -c HOST PORT BYTES [options]
 *       Send BYTES of seeded pseudo-random data, shut down, and compare the
 *       receiver's reply with what was sent: exit 0 only if equal.
 *       -C CC    congestion control (e.g. tonic: the admin's transparent path)
 *       -U       setsockopt(TCP_ULP, "tonic") after connect (per socket)
 *       -P PROG  transport program (SOL_TONIC TONIC_PROGRAM)
 *       -S C     segment size C, -T US sub-segment delay T
 *       -w N     bytes per write (default 65536); -n TCP_NODELAY
 *       -W MS    sleep MS between writes; -V MS  sleep MS after the last one
 *       -f       sendfile() from a file holding the data
 *       -e       non-blocking socket driven by epoll
 *       -x       close() right after the last write (data still in flight):
 *                no reply is read; the test compares the server's line
 *       -t N     switch the offload off and on again every N bytes
 *       -E       the peer is expected to reset: a send error is success
 *       -i       print the socket's TONIC_INFO at the end
 *       -r       require the socket to have been offloaded (segments sent)
 *       -M N     N connections in parallel (epoll), each BYTES
 *       -z SEED  data seed (default 1); connection i uses SEED + i
 *       -Q       ping-pong instead: BYTES round trips of one byte each
 *                (TCP_NODELAY), prints the round-trip times in microseconds
 *       -m N     with -Q, messages of N bytes (1-1024), not one
 *     How the bytes after the -B prefix go (one of; default write()):
 *       -Z       MSG_ZEROCOPY sends (SO_ZEROCOPY) from a buffer never reused;
 *                every completion must arrive before the reply is read
 *       -p v     vmsplice() the data into a pipe, splice() the pipe to the socket
 *       -p f     splice() a file into a pipe, splice() the pipe to the socket
 *       -F       sendfile() asking for more than the file holds: the read hits
 *                EOF and the kernel calls the socket's splice_eof
 *     Before them (a state to send in), in this order:
 *       -B N     send the first N bytes with write() first
 *       -O       ... the last of them alone with MSG_OOB (urgent: FALLBACK)
 *       -K       then switch the offload off (TONIC_OFFLOAD 0) and leave it off
 *       -y MS    then sleep MS (e.g. until the peer has reset)
 *       -A       then checkpoint like CRIU (TCP_REPAIR on, TCP_QUEUE_SEQ,
 *                SIOCOUTQ, peek the send and receive queues, TCP_REPAIR_WINDOW,
 *                TCP_REPAIR off): the peeked send queue must be the stream's
 *                last SIOCOUTQ bytes; then carry on
 *                (any of -B -O -K -A -Z -p -F -f prints the TONIC state first)
 *     Errors, signals and closing:
 *       -N       send() with MSG_NOSIGNAL instead of write()
 *       -g       ignore SIGPIPE (SIG_IGN)
 *       -j       after a send error, try the same kind of send twice more and
 *                print each result (with -E: the first error decides)
 *       -Y       IP_RECVERR / IPV6_RECVERR, and retry sends and reads that fail
 *                with a soft error (EHOSTUNREACH, ENETUNREACH, ...), as a
 *                careful application does; counted
 *       -b N     SO_SNDBUFFORCE (else SO_SNDBUF) N before connecting
 *       -L S     SO_LINGER { 1, S } before connecting
 *       -q       with -x: exit() without close() (the kernel closes at exit)
 *       -k       after shutdown(SHUT_WR), switch the offload off (TONIC_OFFLOAD 0)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <linux/errqueue.h>
#include <linux/sockios.h>
#include <uapi/linux/tonic.h>

#ifndef TCP_ULP
#define TCP_ULP 31
#endif

/* SHA-256 (FIPS 180-4). */
struct sha256 {
	uint32_t h[8];
	uint64_t len;
	unsigned char buf[64];
	size_t n;
};

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(struct sha256 *s, const unsigned char *p)
{
	uint32_t w[64], a, b, c, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (; i < 64; i++)
		w[i] = w[i - 16] + (ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3)) +
		       w[i - 7] + (ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10));
	a = s->h[0]; b = s->h[1]; c = s->h[2]; d = s->h[3];
	e = s->h[4]; f = s->h[5]; g = s->h[6]; h = s->h[7];
	for (i = 0; i < 64; i++) {
		t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i];
		t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
	}
	s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
	s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void sha256_init(struct sha256 *s)
{
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(s->h, h0, sizeof(h0));
	s->len = 0;
	s->n = 0;
}

static void sha256_update(struct sha256 *s, const unsigned char *p, size_t n)
{
	s->len += n;
	if (s->n) {
		size_t c = 64 - s->n < n ? 64 - s->n : n;

		memcpy(s->buf + s->n, p, c);
		s->n += c;
		p += c;
		n -= c;
		if (s->n < 64)
			return;
		sha256_block(s, s->buf);
		s->n = 0;
	}
	for (; n >= 64; n -= 64, p += 64)
		sha256_block(s, p);
	memcpy(s->buf, p, n);
	s->n = n;
}

static void sha256_hex(struct sha256 *s, char out[65])
{
	uint64_t bits = s->len * 8;
	unsigned char pad[72] = { 0x80 };
	size_t padlen = (s->n < 56 ? 56 : 120) - s->n;
	int i;

	for (i = 0; i < 8; i++)
		pad[padlen + i] = bits >> (56 - 8 * i);
	sha256_update(s, pad, padlen + 8);
	for (i = 0; i < 8; i++)
		sprintf(out + 8 * i, "%08x", s->h[i]);
}

/* The data: xorshift64 from a seed, byte by byte. */
struct gen {
	uint64_t x;
};

static void gen_init(struct gen *g, uint64_t seed)
{
	g->x = 0x9e3779b97f4a7c15ull ^ (seed * 0xbf58476d1ce4e5b9ull);
	if (!g->x)
		g->x = 1;
}

static void gen_fill(struct gen *g, unsigned char *p, size_t n)
{
	while (n--) {
		g->x ^= g->x << 13;
		g->x ^= g->x >> 7;
		g->x ^= g->x << 17;
		*p++ = (unsigned char)g->x;
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- server ---- */

struct sconn {
	int fd;
	struct sha256 h;
	uint64_t total;
	int done;
};

/* -X: IPV6_HOPOPTS/IPV6_DSTOPTS, an 8-byte header holding only a PadN option. */
static const char *server_exthdr;

static void set_exthdr(int fd)
{
	unsigned char h[8] = { 0, 0, 1, 4, 0, 0, 0, 0 };

	if (server_exthdr &&
	    setsockopt(fd, IPPROTO_IPV6, strcmp(server_exthdr, "hop") ? IPV6_DSTOPTS : IPV6_HOPOPTS,
		       h, sizeof(h)))
		perror("IPV6_DSTOPTS/IPV6_HOPOPTS");
}

static int server(const char *port, int nconn, const char *out, long long reset_at, int delay_ms,
		  int hold_ms)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(atoi(port)) };
	static unsigned char buf[1 << 16];
	struct sconn *c = calloc(nconn, sizeof(*c));
	struct pollfd *pf = calloc(nconn + 1, sizeof(*pf));
	int one = 1, l, naccepted = 0, nleft = nconn, ofd = -1, err = 0, i;

	if (!c || !pf)
		return 1;
	if (out) {
		ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (ofd < 0) {
			perror(out);
			return 1;
		}
	}
	l = socket(AF_INET6, SOCK_STREAM, 0);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* An urgent byte (MSG_OOB) stays in the stream, hashed in its place. */
	setsockopt(l, SOL_SOCKET, SO_OOBINLINE, &one, sizeof(one));
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 4096)) {
		perror("server");
		return 1;
	}
	set_exthdr(l);
	printf("listening\n");
	fflush(stdout);
	while (nleft) {
		int np = 0;

		if (naccepted < nconn) {
			pf[np].fd = l;
			pf[np].events = POLLIN;
			np++;
		}
		for (i = 0; i < naccepted; i++) {
			pf[np].fd = c[i].done ? -1 : c[i].fd;
			pf[np].events = POLLIN;
			np++;
		}
		if (poll(pf, np, -1) < 0) {
			perror("poll");
			return 1;
		}
		if (naccepted < nconn && (pf[0].revents & POLLIN)) {
			int fd = accept(l, NULL, NULL);

			if (fd >= 0) {
				if (hold_ms)
					usleep(hold_ms * 1000);
				c[naccepted].fd = fd;
				sha256_init(&c[naccepted].h);
				naccepted++;
			}
			continue;	/* the pollfd array changed */
		}
		for (i = 0; i < naccepted; i++) {
			int k = i + (naccepted < nconn ? 1 : 0);
			struct sconn *s = &c[i];
			char hex[65], reply[96];
			ssize_t n;

			if (s->done || !(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(s->fd, buf, sizeof(buf));
			if (n > 0) {
				sha256_update(&s->h, buf, n);
				if (ofd >= 0 && write(ofd, buf, n) != n)
					perror("write file");
				s->total += n;
				if (delay_ms)
					usleep(delay_ms * 1000);
				if (reset_at >= 0 && s->total >= (uint64_t)reset_at) {
					struct linger lg = { 1, 0 };

					setsockopt(s->fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
					close(s->fd);
					printf("server: reset after %llu\n", (unsigned long long)s->total);
					s->done = 1;
					nleft--;
				}
				continue;
			}
			if (n < 0) {
				if (errno == EINTR || errno == EAGAIN)
					continue;
				perror("read");
				printf("server: read error after %llu bytes\n",
				       (unsigned long long)s->total);
				err = 1;
			}
			sha256_hex(&s->h, hex);
			snprintf(reply, sizeof(reply), "%llu %s\n", (unsigned long long)s->total, hex);
			if (write(s->fd, reply, strlen(reply)) < 0 && errno != EPIPE &&
			    errno != ECONNRESET)
				perror("write");
			if (nconn == 1)
				printf("server: %s", reply);
			close(s->fd);
			s->done = 1;
			nleft--;
		}
	}
	if (nconn > 1)
		printf("server: %d connections done\n", nconn);
	if (ofd >= 0)
		close(ofd);
	close(l);
	return err;
}

/* ---- client ---- */

struct opts {
	const char *cc, *prog;
	int ulp, seg, delay, nodelay, use_sendfile, use_epoll, close_inflight;
	long long toggle;
	int expect_reset, info, require, nconn;
	size_t wsize;
	uint64_t seed;
	/* How the bytes after the prefix go, and what comes before them. */
	int zerocopy, splice_mode, sendfile_eof;
	uint64_t prefix;
	int prefix_oob, off_after_prefix, pause_ms, repair;
	int gap_ms, tail_ms;	/* -W: between the main send's writes, -V: after them */
	/* Errors, signals, closing. */
	int nosignal, retry_after_err, recverr, sndbuf, linger, exit_noclose, off_after_shut;
};

/* -Y: errors an ICMP message reports on an established connection; TCP carries on. */
static int g_recverr, g_nosignal;
static unsigned long g_soft_errors;

static int soft_error(int e)
{
	return e == EHOSTUNREACH || e == ENETUNREACH || e == EHOSTDOWN || e == ENETDOWN;
}

static const char *errname(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "?";
}

static int set_tonic_opts(int s, const struct opts *o)
{
	if (o->nodelay) {
		int one = 1;

		if (setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one))) {
			perror("TCP_NODELAY");
			return -1;
		}
	}
	if (o->ulp && setsockopt(s, IPPROTO_TCP, TCP_ULP, "tonic", 5)) {
		perror("TCP_ULP tonic");
		return -1;
	}
	if (o->prog && setsockopt(s, SOL_TONIC, TONIC_PROGRAM, o->prog, strlen(o->prog))) {
		perror("TONIC_PROGRAM");
		return -1;
	}
	if (o->seg >= 0 && setsockopt(s, SOL_TONIC, TONIC_SEG_SIZE, &o->seg, sizeof(o->seg))) {
		perror("TONIC_SEG_SIZE");
		return -1;
	}
	if (o->delay >= 0 &&
	    setsockopt(s, SOL_TONIC, TONIC_SUB_DELAY, &o->delay, sizeof(o->delay))) {
		perror("TONIC_SUB_DELAY");
		return -1;
	}
	return 0;
}


static int connect_to(const char *host, const char *port, const struct opts *o, int nonblock)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	int s, one = 1;

	if (getaddrinfo(host, port, &hints, &ai)) {
		fprintf(stderr, "bad address %s\n", host);
		return -1;
	}
	s = socket(ai->ai_family, SOCK_STREAM, 0);
	if (s < 0) {
		perror("socket");
		return -1;
	}
	if (o->cc && setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, o->cc, strlen(o->cc))) {
		perror("TCP_CONGESTION");
		return -1;
	}
	if (o->sndbuf > 0 &&
	    setsockopt(s, SOL_SOCKET, SO_SNDBUFFORCE, &o->sndbuf, sizeof(o->sndbuf)) &&
	    setsockopt(s, SOL_SOCKET, SO_SNDBUF, &o->sndbuf, sizeof(o->sndbuf))) {
		perror("SO_SNDBUF");
		return -1;
	}
	if (o->linger >= 0) {
		struct linger lg = { 1, o->linger };

		if (setsockopt(s, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg))) {
			perror("SO_LINGER");
			return -1;
		}
	}
	if (o->zerocopy && setsockopt(s, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one))) {
		perror("SO_ZEROCOPY");
		return -1;
	}
	if (o->recverr &&
	    (ai->ai_family == AF_INET6 ? setsockopt(s, SOL_IPV6, IPV6_RECVERR, &one, sizeof(one))
				       : setsockopt(s, SOL_IP, IP_RECVERR, &one, sizeof(one)))) {
		perror("IP_RECVERR");
		return -1;
	}
	if (nonblock)
		fcntl(s, F_SETFL, O_NONBLOCK);
	if (connect(s, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS) {
		perror("connect");
		return -1;
	}
	freeaddrinfo(ai);
	return s;
}

static const char *state_name(unsigned int st)
{
	static const char *const n[] = { "software", "offloaded", "draining", "fallback",
					 "pending" };

	return st < sizeof(n) / sizeof(n[0]) ? n[st] : "?";
}

static void print_info(int s, struct tonic_sock_info *info, int print)
{
	socklen_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	if (getsockopt(s, SOL_TONIC, TONIC_INFO, info, &len)) {
		if (print)
			printf("info: no tonic state (%s)\n", strerror(errno));
		return;
	}
	if (print)
		printf("info: state %u prog %s C %u T %u queued %llu acked %llu segs %llu rtx %llu "
		       "timeouts %llu attaches %u\n", info->state, info->program, info->seg_size,
		       info->sub_delay_us, (unsigned long long)info->bytes_queued,
		       (unsigned long long)info->bytes_acked, (unsigned long long)info->segs_sent,
		       (unsigned long long)info->segs_rtx, (unsigned long long)info->timeouts,
		       info->attaches);
}

/* One line: the socket's Tonic state right now. */
static void print_state(int s, const char *when)
{
	struct tonic_sock_info info;
	socklen_t len = sizeof(info);

	if (getsockopt(s, SOL_TONIC, TONIC_INFO, &info, &len))
		printf("client: state %s: none (no tonic ULP: %s)\n", when, strerror(errno));
	else
		printf("client: state %s: %s (attaches %u, segs %llu)\n", when,
		       state_name(info.state), info.attaches, (unsigned long long)info.segs_sent);
}

static int toggle(int s, int on)
{
	if (setsockopt(s, SOL_TONIC, TONIC_OFFLOAD, &on, sizeof(on)) && errno != EAGAIN) {
		perror("TONIC_OFFLOAD");
		return -1;
	}
	return 0;
}

/* Write all of p[0..len) (blocking or via epoll). */
static int write_all(int s, int ep, const unsigned char *p, size_t len)
{
	size_t off = 0;
	ssize_t n;

	while (off < len) {
		if (g_nosignal)
			n = send(s, p + off, len - off, MSG_NOSIGNAL);
		else
			n = write(s, p + off, len - off);
		if (n > 0) {
			off += n;
			continue;
		}
		if (n < 0 && errno == EAGAIN && ep >= 0) {
			struct epoll_event ev;

			if (epoll_wait(ep, &ev, 1, 10000) < 0 && errno != EINTR)
				return -1;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && g_recverr && soft_error(errno)) {
			printf("client: soft error %s, retrying\n", errname(errno));
			g_soft_errors++;
			continue;
		}
		return -1;
	}
	return 0;
}

/* How the main part of the stream is sent. */
enum { SEND_WRITE, SEND_SENDFILE, SEND_SENDFILE_EOF, SEND_ZEROCOPY, SEND_VMSPLICE,
       SEND_SPLICE_FILE };

struct sender {
	const struct opts *o;
	int s, ep, mode;
	int ffd;			/* the stream in a file (sendfile, splice from a file) */
	unsigned char *big;		/* the stream in memory never reused (zerocopy, vmsplice) */
	struct gen g;			/* else generated as it goes */
	struct sha256 h;
	uint64_t bytes;
	int pr, pw;			/* the pipe for splice */
	size_t pipe_fill;		/* bytes in the pipe not yet spliced to the socket */
	unsigned int zc_sends, zc_done, zc_copied;
};

static unsigned char xbuf[1 << 20];

/* Bytes [off, off + len) of the stream, wherever it is kept (not advancing the generator). */
static int stream_bytes(struct sender *sd, uint64_t off, unsigned char *to, size_t len)
{
	struct gen g;
	uint64_t skip;

	if (sd->big) {
		memcpy(to, sd->big + off, len);
		return 0;
	}
	if (sd->ffd >= 0)
		return pread(sd->ffd, to, len, off) == (ssize_t)len ? 0 : -1;
	gen_init(&g, sd->o->seed);
	for (skip = off; skip; ) {
		size_t n = skip < len ? skip : len;

		gen_fill(&g, to, n);
		skip -= n;
	}
	gen_fill(&g, to, len);
	return 0;
}

/* Zerocopy completions from the error queue; returns how many notifications. */
static int zc_reap(struct sender *sd, int timeout_ms)
{
	struct pollfd pfd = { .fd = sd->s, .events = 0 };
	char control[256];
	int got = 0;

	if (poll(&pfd, 1, timeout_ms) <= 0)
		return 0;
	for (;;) {
		struct msghdr msg = { .msg_control = control, .msg_controllen = sizeof(control) };
		struct cmsghdr *cm;

		if (recvmsg(sd->s, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			break;
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			struct sock_extended_err *ee = (void *)CMSG_DATA(cm);

			if (!(cm->cmsg_level == SOL_IP && cm->cmsg_type == IP_RECVERR) &&
			    !(cm->cmsg_level == SOL_IPV6 && cm->cmsg_type == IPV6_RECVERR))
				continue;
			if (ee->ee_origin != SO_EE_ORIGIN_ZEROCOPY)
				continue;
			sd->zc_done += ee->ee_data - ee->ee_info + 1;
			if (ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
				sd->zc_copied += ee->ee_data - ee->ee_info + 1;
			got++;
		}
	}
	return got;
}

/*
 * One send of the stream's bytes from @off (at most @len): returns the bytes
 * the socket took, 0 to try again, -1 on an error (errno).
 */
static ssize_t send_some(struct sender *sd, uint64_t off, size_t len, int hash)
{
	int nosig = sd->o->nosignal ? MSG_NOSIGNAL : 0;
	off_t fo = off;
	ssize_t n;

	switch (sd->mode) {
	case SEND_WRITE:
		gen_fill(&sd->g, xbuf, len);
		if (hash)
			sha256_update(&sd->h, xbuf, len);
		return write_all(sd->s, sd->ep, xbuf, len) ? -1 : (ssize_t)len;
	case SEND_SENDFILE:
		n = sendfile(sd->s, sd->ffd, &fo, len);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n == 0)
			errno = 0;
		return n > 0 ? n : -1;
	case SEND_SENDFILE_EOF:
		/* Ask for more than there is: the read side hits EOF. */
		n = sendfile(sd->s, sd->ffd, &fo, sd->bytes - off + 65536);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n == 0)
			errno = 0;
		return n > 0 ? n : -1;
	case SEND_ZEROCOPY:
		n = send(sd->s, sd->big + off, len, MSG_ZEROCOPY | nosig);
		if (n > 0) {
			sd->zc_sends++;
			return n;
		}
		if (n < 0 && errno == ENOBUFS) {	/* notifications use optmem: read some */
			zc_reap(sd, 100);
			return 0;
		}
		if (n < 0 && errno == EINTR)
			return 0;
		return -1;
	default:
		if (!sd->pipe_fill) {
			if (sd->mode == SEND_VMSPLICE) {
				struct iovec iov = { sd->big + off, len };

				n = vmsplice(sd->pw, &iov, 1, 0);
			} else {
				loff_t lo = off;

				n = splice(sd->ffd, &lo, sd->pw, NULL, len, SPLICE_F_MOVE);
			}
			if (n <= 0) {
				perror(sd->mode == SEND_VMSPLICE ? "vmsplice" : "splice from file");
				return -1;
			}
			sd->pipe_fill = n;
		}
		n = splice(sd->pr, NULL, sd->s, NULL, sd->pipe_fill,
			   SPLICE_F_MOVE | (off + sd->pipe_fill < sd->bytes ? SPLICE_F_MORE : 0));
		if (n > 0) {
			sd->pipe_fill -= n;
			return n;
		}
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			return 0;
		if (n == 0)
			errno = 0;
		return -1;
	}
}

/* -A: what CRIU does to a live connection it dumps and leaves running. */
static int repair_checkpoint(struct sender *sd, uint64_t sent)
{
	int s = sd->s, on = 1, off = 0, q, outq1 = -1, outq2 = -1, notsent = -1, inq = -1, bad = 0;
	unsigned int sndseq = 0, rcvseq = 0;
	struct tcp_repair_window w = { 0 };
	socklen_t len = sizeof(sndseq);
	unsigned char *peek, *want;
	ssize_t n, m = -1;

	if (setsockopt(s, SOL_TCP, TCP_REPAIR, &on, sizeof(on))) {
		perror("TCP_REPAIR 1");
		return -1;
	}
	q = TCP_SEND_QUEUE;
	if (setsockopt(s, SOL_TCP, TCP_REPAIR_QUEUE, &q, sizeof(q)) ||
	    getsockopt(s, SOL_TCP, TCP_QUEUE_SEQ, &sndseq, &len))
		perror("repair: send queue");
	ioctl(s, SIOCOUTQ, &outq1);
	ioctl(s, SIOCOUTQNSD, &notsent);
	peek = malloc(outq1 + 65536);
	want = malloc(outq1 + 65536);
	n = peek ? recv(s, peek, outq1 + 65536, MSG_PEEK | MSG_DONTWAIT) : -1;
	if (n < 0)
		perror("repair: peek the send queue");
	ioctl(s, SIOCOUTQ, &outq2);
	q = TCP_RECV_QUEUE;
	len = sizeof(rcvseq);
	if (setsockopt(s, SOL_TCP, TCP_REPAIR_QUEUE, &q, sizeof(q)) ||
	    getsockopt(s, SOL_TCP, TCP_QUEUE_SEQ, &rcvseq, &len))
		perror("repair: receive queue");
	ioctl(s, SIOCINQ, &inq);
	if (inq > 0) {
		char tmp[4096];

		m = recv(s, tmp, sizeof(tmp), MSG_PEEK | MSG_DONTWAIT);
	}
	len = sizeof(w);
	if (getsockopt(s, SOL_TCP, TCP_REPAIR_WINDOW, &w, &len))
		perror("repair: TCP_REPAIR_WINDOW");
	if (setsockopt(s, SOL_TCP, TCP_REPAIR, &off, sizeof(off))) {
		perror("TCP_REPAIR 0");
		bad = 1;
	}
	printf("client: repair: send queue seq %u outq %d..%d notsent %d peeked %zd; "
	       "receive queue seq %u inq %d peeked %zd; window snd_wnd %u rcv_wnd %u\n",
	       sndseq, outq1, outq2, notsent, n, rcvseq, inq, m, w.snd_wnd, w.rcv_wnd);
	/* Acks may shrink the queue while we look: the peek lies between the two SIOCOUTQs. */
	if (n < 0 || n > outq1 || n < outq2) {
		printf("client: repair: the send queue peek (%zd bytes) is not what SIOCOUTQ says "
		       "(%d..%d): a checkpoint would lose or invent bytes\n", n, outq1, outq2);
		bad = 1;
	} else if (n > 0 && (n > (ssize_t)sent || stream_bytes(sd, sent - n, want, n) ||
			     memcmp(peek, want, n))) {
		printf("client: repair: the send queue holds other bytes than the stream's last %zd\n",
		       n);
		bad = 1;
	}
	free(peek);
	free(want);
	return bad;
}

static int client(const char *host, const char *port, uint64_t bytes, const struct opts *o)
{
	static unsigned char buf[1 << 20];
	char reply[128] = { 0 }, want[128], hex[65], path[] = "/tmp/tonic_xfer.XXXXXX";
	uint64_t sent = 0, next_toggle = o->toggle > 0 ? (uint64_t)o->toggle : UINT64_MAX;
	struct sender sd = { .o = o, .ep = -1, .ffd = -1, .pr = -1, .pw = -1, .bytes = bytes };
	struct tonic_sock_info info;
	size_t wsize = o->wsize, off;
	int s, off_now = 0, show_state, repair_bad = 0, err;
	double t0 = now_s(), dt;
	ssize_t n;

	if (wsize > sizeof(buf))
		wsize = sizeof(buf);
	sd.mode = o->use_sendfile ? SEND_SENDFILE : o->sendfile_eof ? SEND_SENDFILE_EOF :
		  o->zerocopy ? SEND_ZEROCOPY : o->splice_mode == 'v' ? SEND_VMSPLICE :
		  o->splice_mode == 'f' ? SEND_SPLICE_FILE : SEND_WRITE;
	show_state = o->prefix || o->prefix_oob || o->off_after_prefix || o->repair ||
		     sd.mode != SEND_WRITE;
	if (o->prefix > bytes) {
		fprintf(stderr, "-B is more than BYTES\n");
		return 2;
	}
	sha256_init(&sd.h);
	gen_init(&sd.g, o->seed);
	if (sd.mode == SEND_SENDFILE || sd.mode == SEND_SENDFILE_EOF ||
	    sd.mode == SEND_SPLICE_FILE) {
		/* The data goes to a file first; the socket sends it from the page cache. */
		sd.ffd = mkstemp(path);
		if (sd.ffd < 0) {
			perror("mkstemp");
			return 1;
		}
		unlink(path);
		for (off = 0; off < bytes; off += n) {
			n = bytes - off < sizeof(buf) ? bytes - off : sizeof(buf);
			gen_fill(&sd.g, buf, n);
			sha256_update(&sd.h, buf, n);
			if (write(sd.ffd, buf, n) != n) {
				perror("write file");
				return 1;
			}
		}
	} else if (sd.mode != SEND_WRITE) {
		/* Pages the kernel may still reference after the call: never reused. */
		sd.big = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (sd.big == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		gen_fill(&sd.g, sd.big, bytes);
		sha256_update(&sd.h, sd.big, bytes);
	}
	if (sd.mode == SEND_VMSPLICE || sd.mode == SEND_SPLICE_FILE) {
		int p[2];

		if (pipe(p)) {
			perror("pipe");
			return 1;
		}
		sd.pr = p[0];
		sd.pw = p[1];
	}
	s = sd.s = connect_to(host, port, o, 0);
	if (s < 0)
		return 1;
	if (set_tonic_opts(s, o))
		return 1;
	if (o->use_epoll) {
		struct epoll_event ev = { .events = EPOLLOUT | EPOLLET };

		fcntl(s, F_SETFL, O_NONBLOCK);
		sd.ep = epoll_create1(0);
		ev.data.fd = s;
		if (sd.ep < 0 || epoll_ctl(sd.ep, EPOLL_CTL_ADD, s, &ev)) {
			perror("epoll");
			return 1;
		}
	}
	t0 = now_s();
	/* The prefix: plain writes (the last byte urgent with -O). */
	while (sent < o->prefix) {
		size_t len = o->prefix - sent < wsize ? o->prefix - sent : wsize;
		int oob = o->prefix_oob && sent + len == o->prefix;

		if (sd.mode == SEND_WRITE) {
			gen_fill(&sd.g, buf, len);
			sha256_update(&sd.h, buf, len);
		} else if (stream_bytes(&sd, sent, buf, len)) {
			perror("read the stream");
			return 1;
		}
		if (write_all(s, sd.ep, buf, len - oob))
			goto send_error;
		sent += len - oob;
		if (oob) {
			n = send(s, buf + len - 1, 1, MSG_OOB | (o->nosignal ? MSG_NOSIGNAL : 0));
			if (n != 1)
				goto send_error;
			sent++;
		}
	}
	if (o->off_after_prefix && toggle(s, 0))
		return 1;
	if (o->pause_ms)
		usleep(o->pause_ms * 1000);
	if (o->repair)
		repair_bad = repair_checkpoint(&sd, sent);
	if (repair_bad < 0)
		return 1;
	if (show_state)
		print_state(s, "before the main send");
	while (sent < bytes) {
		size_t len = bytes - sent < wsize ? bytes - sent : wsize;

		if (sent >= next_toggle) {
			if (toggle(s, off_now))
				return 1;
			off_now = !off_now;
			next_toggle += o->toggle / 2 + 1;
		}
		n = send_some(&sd, sent, len, 1);
		if (n < 0 && g_recverr && soft_error(errno)) {
			printf("client: soft error %s, retrying\n", errname(errno));
			g_soft_errors++;
			continue;
		}
		if (n < 0)
			goto send_error;
		sent += n;
		if (o->gap_ms && sent < bytes)
			usleep(o->gap_ms * 1000);
	}
	if (o->tail_ms)
		usleep(o->tail_ms * 1000);
	if (off_now && toggle(s, 1))
		return 1;
	if (sd.mode == SEND_ZEROCOPY) {
		double end = now_s() + 30;

		while (sd.zc_done < sd.zc_sends && now_s() < end)
			zc_reap(&sd, 200);
		printf("client: zerocopy: %u sends, %u completed (%u copied)\n", sd.zc_sends,
		       sd.zc_done, sd.zc_copied);
		if (sd.zc_done < sd.zc_sends) {
			printf("client: zerocopy: %u completions missing after 30 s\n",
			       sd.zc_sends - sd.zc_done);
			return 1;
		}
	}
	if (o->close_inflight) {
		sha256_hex(&sd.h, hex);
		if (o->info)
			print_info(s, &info, 1);
		if (o->exit_noclose) {
			printf("client: sent %llu %s\n", (unsigned long long)sent, hex);
			printf("client: exit without close()\n");
			exit(0);	/* the kernel closes the socket */
		}
		t0 = now_s();
		close(s);
		printf("client: sent %llu %s\n", (unsigned long long)sent, hex);
		if (o->linger >= 0)
			printf("client: close() with SO_LINGER %d returned after %.1f s\n",
			       o->linger, now_s() - t0);
		return 0;
	}
	if (sd.ep >= 0)
		fcntl(s, F_SETFL, 0);
	shutdown(s, SHUT_WR);
	if (o->off_after_shut) {
		err = toggle(s, 0);
		printf("client: offload off after SHUT_WR: %s\n", err ? "failed" : "ok");
		print_state(s, "after SHUT_WR and offload off");
	}
	for (off = 0; off < sizeof(reply) - 1; off += n) {
		n = read(s, reply + off, sizeof(reply) - 1 - off);
		if (n < 0 && g_recverr && soft_error(errno)) {
			printf("client: soft error %s while reading, retrying\n", errname(errno));
			g_soft_errors++;
			n = 0;
			continue;
		}
		if (n <= 0)
			break;
	}
	dt = now_s() - t0;
	sha256_hex(&sd.h, hex);
	snprintf(want, sizeof(want), "%llu %s\n", (unsigned long long)sent, hex);
	printf("client: sent %s", want);
	printf("client: peer %s", reply[0] ? reply : "(no reply)\n");
	printf("client: %.3f s, %.1f Mbit/s\n", dt, dt > 0 ? sent * 8 / dt / 1e6 : 0);
	if (o->recverr)
		printf("client: %lu soft errors retried\n", g_soft_errors);
	print_info(s, &info, o->info);
	close(s);
	if (o->expect_reset) {
		printf("client: expected a reset, got a complete transfer\n");
		return 1;
	}
	if (strcmp(reply, want) || repair_bad)
		return 1;
	if (o->require && !info.segs_sent) {
		printf("client: the socket was not offloaded\n");
		return 3;
	}
	return 0;
send_error:
	err = errno;
	if (o->retry_after_err) {
		int i;

		printf("client: send error after %llu bytes: %s\n", (unsigned long long)sent,
		       errname(err));
		for (i = 0; i < 2; i++) {
			errno = 0;
			if (sent < o->prefix)
				n = o->nosignal ? send(s, buf, 1000, MSG_NOSIGNAL) :
						  write(s, buf, 1000);
			else
				n = send_some(&sd, sent < bytes ? sent : 0,
					      bytes - sent < 1000 ? bytes - sent : 1000, 0);
			printf("client: then: %zd %s\n", n, n < 0 ? errname(errno) : "");
		}
	}
	errno = err;
	if (o->expect_reset && (errno == ECONNRESET || errno == EPIPE)) {
		printf("client: reset by the peer after %llu bytes (%s), as expected\n",
		       (unsigned long long)sent, strerror(errno));
		close(s);
		return 0;
	}
	perror("send");
	return 1;
}

/* N connections in parallel, each BYTES, driven by one epoll loop. */
struct mconn {
	int fd, state;		/* 0 connecting/sending, 1 reading reply, 2 done */
	uint64_t sent;
	struct sha256 h;
	struct gen g;
	char reply[128];
	size_t rlen;
	int ok;
};

static int client_many(const char *host, const char *port, uint64_t bytes, const struct opts *o)
{
	static unsigned char buf[65536];
	struct mconn *c = calloc(o->nconn, sizeof(*c));
	struct epoll_event ev, evs[256];
	int ep = epoll_create1(0), i, left = o->nconn, ok = 0, offloaded = 0;
	double t0 = now_s();

	if (!c || ep < 0)
		return 1;
	for (i = 0; i < o->nconn; i++) {
		c[i].fd = connect_to(host, port, o, 1);
		if (c[i].fd < 0)
			return 1;
		sha256_init(&c[i].h);
		gen_init(&c[i].g, o->seed + i);
		ev.events = EPOLLOUT | EPOLLIN;
		ev.data.u32 = i;
		if (epoll_ctl(ep, EPOLL_CTL_ADD, c[i].fd, &ev)) {
			perror("epoll_ctl");
			return 1;
		}
	}
	while (left) {
		int n = epoll_wait(ep, evs, 256, 60000), k;

		if (n <= 0) {
			fprintf(stderr, "client: stalled with %d connections left\n", left);
			return 1;
		}
		for (k = 0; k < n; k++) {
			struct mconn *m = &c[evs[k].data.u32];
			ssize_t r;

			if (m->state == 0 && (evs[k].events & EPOLLOUT)) {
				size_t len = bytes - m->sent < sizeof(buf) ? bytes - m->sent : sizeof(buf);
				struct gen save = m->g;

				if (m->sent == 0 && set_tonic_opts(m->fd, o))
					return 1;
				if (len) {
					gen_fill(&m->g, buf, len);
					r = write(m->fd, buf, len);
					if (r < 0) {
						m->g = save;
						if (errno == EAGAIN || errno == EINTR)
							continue;
						perror("write");
						return 1;
					}
					/* Regenerate exactly what was taken. */
					m->g = save;
					gen_fill(&m->g, buf, r);
					sha256_update(&m->h, buf, r);
					m->sent += r;
				}
				if (m->sent == bytes) {
					shutdown(m->fd, SHUT_WR);
					m->state = 1;
					ev.events = EPOLLIN;
					ev.data.u32 = evs[k].data.u32;
					epoll_ctl(ep, EPOLL_CTL_MOD, m->fd, &ev);
				}
				continue;
			}
			if (m->state == 1 && (evs[k].events & (EPOLLIN | EPOLLHUP | EPOLLERR))) {
				r = read(m->fd, m->reply + m->rlen, sizeof(m->reply) - 1 - m->rlen);
				if (r > 0) {
					m->rlen += r;
					continue;
				}
				if (r < 0 && errno == EAGAIN)
					continue;
				{
					char hex[65], want[128];
					struct tonic_sock_info info;

					sha256_hex(&m->h, hex);
					snprintf(want, sizeof(want), "%llu %s\n",
						 (unsigned long long)m->sent, hex);
					m->ok = !strcmp(want, m->reply);
					print_info(m->fd, &info, 0);
					offloaded += info.segs_sent > 0;
					if (!m->ok)
						printf("client: connection %ld: sent %s peer %s",
						       (long)(m - c), want,
						       m->reply[0] ? m->reply : "(none)\n");
				}
				ok += m->ok;
				close(m->fd);
				m->state = 2;
				left--;
			}
		}
	}
	printf("client: %d/%d connections intact, %d offloaded, %.2f s\n", ok, o->nconn,
	       offloaded, now_s() - t0);
	if (ok != o->nconn)
		return 1;
	if (o->require && !offloaded)
		return 3;
	return 0;
}

/* ---- ping-pong: one byte there and back, BYTES times ---- */

static int echo_server(const char *port)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(atoi(port)) };
	int one = 1, l, c;
	char b[256];
	ssize_t n;

	l = socket(AF_INET6, SOCK_STREAM, 0);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1)) {
		perror("server");
		return 1;
	}
	printf("listening\n");
	c = accept(l, NULL, NULL);
	if (c < 0)
		return 1;
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	while ((n = read(c, b, sizeof(b))) > 0)
		if (write(c, b, n) != n)
			break;
	close(c);
	close(l);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* read_full FD BUF LEN: LEN bytes, however the peer's segments split them. */
static int read_full(int fd, char *b, size_t len)
{
	ssize_t n;

	while (len) {
		n = read(fd, b, len);
		if (n <= 0)
			return -1;
		b += n;
		len -= n;
	}
	return 0;
}

/* Messages of @msg bytes (-m, 1 by default) there and back. */
static int pingpong(const char *host, const char *port, uint64_t rounds, size_t msg,
		    struct opts *o)
{
	double *rtt = calloc(rounds ? rounds : 1, sizeof(double)), sum = 0;
	struct tonic_sock_info info;
	static char b[1024];
	uint64_t i;
	int s;

	o->nodelay = 1;
	s = connect_to(host, port, o, 0);
	if (s < 0 || !rtt || set_tonic_opts(s, o))
		return 1;
	memset(b, 'x', sizeof(b));
	for (i = 0; i < rounds; i++) {
		double t = now_s();

		if (write(s, b, msg) != (ssize_t)msg || read_full(s, b, msg)) {
			perror("ping-pong");
			return 1;
		}
		rtt[i] = (now_s() - t) * 1e6;
		sum += rtt[i];
	}
	qsort(rtt, rounds, sizeof(double), cmp_double);
	printf("pingpong: %llu round trips, mean %.1f us, p50 %.1f us, p99 %.1f us\n",
	       (unsigned long long)rounds, sum / rounds, rtt[rounds / 2], rtt[rounds * 99 / 100]);
	print_info(s, &info, o->info);
	close(s);
	if (o->require && !info.segs_sent)
		return 3;
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .seg = -1, .delay = -1, .wsize = 65536, .seed = 1, .nconn = 1,
			  .linger = -1 };
	long long reset_at = -1;
	const char *out = NULL;
	int delay_ms = 0, hold_ms = 0, opt, server_mode, ping = 0;
	size_t msg = 1;

	if (argc >= 3 && !strcmp(argv[1], "-s")) {
		server_mode = 1;
		optind = 3;
	} else if (argc >= 5 && !strcmp(argv[1], "-c")) {
		server_mode = 0;
		optind = 5;
	} else {
		goto usage;
	}
	while ((opt = getopt(argc, argv, "C:UP:S:T:w:nfext:EirM:z:o:R:D:Q"
			     "H:Zp:FB:OKy:ANgjYb:L:qkX:W:V:m:")) != -1) {
		switch (opt) {
		case 'C': o.cc = optarg; break;
		case 'U': o.ulp = 1; break;
		case 'P': o.prog = optarg; break;
		case 'S': o.seg = atoi(optarg); break;
		case 'T': o.delay = atoi(optarg); break;
		case 'w': o.wsize = strtoull(optarg, NULL, 0); break;
		case 'n': o.nodelay = 1; break;
		case 'f': o.use_sendfile = 1; break;
		case 'e': o.use_epoll = 1; break;
		case 'x': o.close_inflight = 1; break;
		case 't': o.toggle = strtoll(optarg, NULL, 0); break;
		case 'E': o.expect_reset = 1; break;
		case 'i': o.info = 1; break;
		case 'r': o.require = 1; break;
		case 'M': o.nconn = atoi(optarg); break;
		case 'z': o.seed = strtoull(optarg, NULL, 0); break;
		case 'o': out = optarg; break;
		case 'R': reset_at = strtoll(optarg, NULL, 0); break;
		case 'D': delay_ms = atoi(optarg); break;
		case 'Q': ping = 1; break;
		case 'm': msg = strtoull(optarg, NULL, 0); break;
		case 'H': hold_ms = atoi(optarg); break;
		case 'Z': o.zerocopy = 1; break;
		case 'p':
			o.splice_mode = optarg[0];
			if (strcmp(optarg, "v") && strcmp(optarg, "f"))
				goto usage;
			break;
		case 'F': o.sendfile_eof = 1; break;
		case 'B': o.prefix = strtoull(optarg, NULL, 0); break;
		case 'O': o.prefix_oob = 1; break;
		case 'K': o.off_after_prefix = 1; break;
		case 'y': o.pause_ms = atoi(optarg); break;
		case 'W': o.gap_ms = atoi(optarg); break;
		case 'V': o.tail_ms = atoi(optarg); break;
		case 'A': o.repair = 1; break;
		case 'N': o.nosignal = g_nosignal = 1; break;
		case 'g': signal(SIGPIPE, SIG_IGN); break;
		case 'j': o.retry_after_err = 1; break;
		case 'Y': o.recverr = g_recverr = 1; break;
		case 'b': o.sndbuf = atoi(optarg); break;
		case 'L': o.linger = atoi(optarg); break;
		case 'q': o.exit_noclose = 1; break;
		case 'k': o.off_after_shut = 1; break;
		case 'X': server_exthdr = optarg; break;
		default: goto usage;
		}
	}
	if (o.wsize == 0 || o.nconn < 1 || msg < 1 || msg > 1024 ||
	    o.use_sendfile + o.sendfile_eof + o.zerocopy + !!o.splice_mode > 1 ||
	    (o.prefix_oob && !o.prefix))
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (server_mode && ping)
		return echo_server(argv[2]);
	if (server_mode)
		return server(argv[2], o.nconn, out, reset_at, delay_ms, hold_ms);
	if (ping)
		return pingpong(argv[2], argv[3], strtoull(argv[4], NULL, 0), msg, &o);
	if (o.nconn > 1)
		return client_many(argv[2], argv[3], strtoull(argv[4], NULL, 0), &o);
	return client(argv[2], argv[3], strtoull(argv[4], NULL, 0), &o);
usage:
	fprintf(stderr, "usage: tonic_xfer -s PORT [-M N] [-o FILE] [-R BYTES] [-D MS] [-Q] [-H MS]\n"
		"                  [-X hop|dst]\n"
		"       tonic_xfer -c HOST PORT BYTES [-C CC] [-U] [-P PROG] [-S C] [-T US]\n"
		"                  [-w N] [-n] [-f] [-e] [-x] [-t N] [-E] [-i] [-r] [-M N] [-z SEED] [-Q]\n"
		"                  [-Z | -p v|f | -F] [-B N [-O]] [-K] [-y MS] [-A]\n"
		"                  [-N] [-g] [-j] [-Y] [-b N] [-L S] [-q] [-k] [-W MS] [-V MS] [-m BYTES]\n");
	return 2;
}
