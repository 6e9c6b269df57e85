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
 *
 *   tonic_xfer -c HOST PORT BYTES [options]
 *       Send BYTES of seeded pseudo-random data, shut down, and compare the
 *       receiver's reply with what was sent: exit 0 only if equal.
 *       -C CC    congestion control (e.g. tonic: the admin's transparent path)
 *       -U       setsockopt(TCP_ULP, "tonic") after connect (per socket)
 *       -P PROG  transport program (SOL_TONIC TONIC_PROGRAM)
 *       -S C     segment size C, -T US sub-segment delay T
 *       -w N     bytes per write (default 65536); -n TCP_NODELAY
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
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
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

static int server(const char *port, int nconn, const char *out, long long reset_at, int delay_ms)
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
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 4096)) {
		perror("server");
		return 1;
	}
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
};

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
	int s;

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
	if (nonblock)
		fcntl(s, F_SETFL, O_NONBLOCK);
	if (connect(s, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS) {
		perror("connect");
		return -1;
	}
	freeaddrinfo(ai);
	return s;
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
		return -1;
	}
	return 0;
}

static int client(const char *host, const char *port, uint64_t bytes, const struct opts *o)
{
	static unsigned char buf[1 << 20];
	char reply[128] = { 0 }, want[128], hex[65], path[] = "/tmp/tonic_xfer.XXXXXX";
	uint64_t sent = 0, next_toggle = o->toggle > 0 ? (uint64_t)o->toggle : UINT64_MAX;
	struct tonic_sock_info info;
	size_t wsize = o->wsize, off;
	struct sha256 h;
	struct gen g;
	int s, ep = -1, ffd = -1, off_now = 0;
	double t0 = now_s(), dt;
	ssize_t n;

	if (wsize > sizeof(buf))
		wsize = sizeof(buf);
	sha256_init(&h);
	gen_init(&g, o->seed);
	if (o->use_sendfile) {
		/* The data goes to a file first; the socket sends it from the page cache. */
		ffd = mkstemp(path);
		if (ffd < 0) {
			perror("mkstemp");
			return 1;
		}
		unlink(path);
		for (off = 0; off < bytes; off += n) {
			n = bytes - off < sizeof(buf) ? bytes - off : sizeof(buf);
			gen_fill(&g, buf, n);
			sha256_update(&h, buf, n);
			if (write(ffd, buf, n) != n) {
				perror("write file");
				return 1;
			}
		}
	}
	s = connect_to(host, port, o, 0);
	if (s < 0)
		return 1;
	if (set_tonic_opts(s, o))
		return 1;
	if (o->use_epoll) {
		struct epoll_event ev = { .events = EPOLLOUT | EPOLLET };

		fcntl(s, F_SETFL, O_NONBLOCK);
		ep = epoll_create1(0);
		ev.data.fd = s;
		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, s, &ev)) {
			perror("epoll");
			return 1;
		}
	}
	t0 = now_s();
	while (sent < bytes) {
		size_t len = bytes - sent < wsize ? bytes - sent : wsize;

		if (sent >= next_toggle) {
			if (toggle(s, off_now))
				return 1;
			off_now = !off_now;
			next_toggle += o->toggle / 2 + 1;
		}
		if (o->use_sendfile) {
			off_t fo = sent;

			n = sendfile(s, ffd, &fo, len);
			if (n <= 0) {
				if (n < 0 && (errno == EAGAIN || errno == EINTR))
					continue;
				goto send_error;
			}
			sent += n;
			continue;
		}
		gen_fill(&g, buf, len);
		sha256_update(&h, buf, len);
		if (write_all(s, ep, buf, len))
			goto send_error;
		sent += len;
	}
	if (off_now && toggle(s, 1))
		return 1;
	if (o->close_inflight) {
		sha256_hex(&h, hex);
		if (o->info)
			print_info(s, &info, 1);
		close(s);
		printf("client: sent %llu %s\n", (unsigned long long)sent, hex);
		return 0;
	}
	if (ep >= 0)
		fcntl(s, F_SETFL, 0);
	shutdown(s, SHUT_WR);
	for (off = 0; off < sizeof(reply) - 1; off += n) {
		n = read(s, reply + off, sizeof(reply) - 1 - off);
		if (n <= 0)
			break;
	}
	dt = now_s() - t0;
	sha256_hex(&h, hex);
	snprintf(want, sizeof(want), "%llu %s\n", (unsigned long long)sent, hex);
	printf("client: sent %s", want);
	printf("client: peer %s", reply[0] ? reply : "(no reply)\n");
	printf("client: %.3f s, %.1f Mbit/s\n", dt, dt > 0 ? sent * 8 / dt / 1e6 : 0);
	print_info(s, &info, o->info);
	close(s);
	if (o->expect_reset) {
		printf("client: expected a reset, got a complete transfer\n");
		return 1;
	}
	if (strcmp(reply, want))
		return 1;
	if (o->require && !info.segs_sent) {
		printf("client: the socket was not offloaded\n");
		return 3;
	}
	return 0;
send_error:
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

static int pingpong(const char *host, const char *port, uint64_t rounds, struct opts *o)
{
	double *rtt = calloc(rounds ? rounds : 1, sizeof(double)), sum = 0;
	struct tonic_sock_info info;
	uint64_t i;
	char b = 'x';
	int s;

	o->nodelay = 1;
	s = connect_to(host, port, o, 0);
	if (s < 0 || !rtt || set_tonic_opts(s, o))
		return 1;
	for (i = 0; i < rounds; i++) {
		double t = now_s();

		if (write(s, &b, 1) != 1 || read(s, &b, 1) != 1) {
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
	struct opts o = { .seg = -1, .delay = -1, .wsize = 65536, .seed = 1, .nconn = 1 };
	long long reset_at = -1;
	const char *out = NULL;
	int delay_ms = 0, opt, server_mode, ping = 0;

	if (argc >= 3 && !strcmp(argv[1], "-s")) {
		server_mode = 1;
		optind = 3;
	} else if (argc >= 5 && !strcmp(argv[1], "-c")) {
		server_mode = 0;
		optind = 5;
	} else {
		goto usage;
	}
	while ((opt = getopt(argc, argv, "C:UP:S:T:w:nfext:EirM:z:o:R:D:Q")) != -1) {
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
		default: goto usage;
		}
	}
	if (o.wsize == 0 || o.nconn < 1)
		goto usage;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (server_mode && ping)
		return echo_server(argv[2]);
	if (server_mode)
		return server(argv[2], o.nconn, out, reset_at, delay_ms);
	if (ping)
		return pingpong(argv[2], argv[3], strtoull(argv[4], NULL, 0), &o);
	if (o.nconn > 1)
		return client_many(argv[2], argv[3], strtoull(argv[4], NULL, 0), &o);
	return client(argv[2], argv[3], strtoull(argv[4], NULL, 0), &o);
usage:
	fprintf(stderr, "usage: tonic_xfer -s PORT [-M N] [-o FILE] [-R BYTES] [-D MS] [-Q]\n"
		"       tonic_xfer -c HOST PORT BYTES [-C CC] [-U] [-P PROG] [-S C] [-T US]\n"
		"                  [-w N] [-n] [-f] [-e] [-x] [-t N] [-E] [-i] [-r] [-M N] [-z SEED] [-Q]\n");
	return 2;
}
