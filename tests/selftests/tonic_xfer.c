// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_xfer: a bulk transfer with an end-to-end integrity check.
 *
 *   tonic_xfer -s PORT                       receive one connection, reply
 *                                            "BYTES HASH" after the sender's EOF
 *   tonic_xfer -c HOST PORT BYTES [-C CC]    send BYTES of seeded data (with
 *                                            congestion control CC, e.g. tonic),
 *                                            shut down, compare the reply
 *
 * The hash is FNV-1a 64 over the byte stream; the client exits 0 only if
 * the server saw exactly the bytes it sent.
 */
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
	while (n--) {
		h ^= *p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

static int server(const char *port)
{
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(atoi(port)) };
	static unsigned char buf[1 << 16];
	uint64_t h = 0xcbf29ce484222325ull, total = 0;
	int one = 1, l, c;
	char reply[64];
	ssize_t n;

	l = socket(AF_INET6, SOCK_STREAM, 0);
	setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 1)) {
		perror("server");
		return 1;
	}
	printf("listening\n");
	fflush(stdout);
	c = accept(l, NULL, NULL);
	if (c < 0) {
		perror("accept");
		return 1;
	}
	while ((n = read(c, buf, sizeof(buf))) > 0) {
		h = fnv(h, buf, n);
		total += n;
	}
	if (n < 0)
		perror("read");
	snprintf(reply, sizeof(reply), "%llu %016llx\n", (unsigned long long)total,
		 (unsigned long long)h);
	if (write(c, reply, strlen(reply)) < 0)
		perror("write");
	printf("server: %s", reply);
	close(c);
	close(l);
	return n < 0;
}

static int client(const char *host, const char *port, uint64_t bytes, const char *cc)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai;
	static unsigned char buf[1 << 16];
	uint64_t h = 0xcbf29ce484222325ull, sent = 0, x = 0x9e3779b97f4a7c15ull;
	char reply[64] = { 0 }, want[64];
	size_t off;
	ssize_t n;
	int s, i;

	if (getaddrinfo(host, port, &hints, &ai)) {
		fprintf(stderr, "bad address %s\n", host);
		return 1;
	}
	s = socket(ai->ai_family, SOCK_STREAM, 0);
	if (cc && setsockopt(s, IPPROTO_TCP, TCP_CONGESTION, cc, strlen(cc))) {
		perror("TCP_CONGESTION");
		return 1;
	}
	if (connect(s, ai->ai_addr, ai->ai_addrlen)) {
		perror("connect");
		return 1;
	}
	while (sent < bytes) {
		size_t len = bytes - sent < sizeof(buf) ? bytes - sent : sizeof(buf);

		for (i = 0; i < (int)len; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = (unsigned char)x;
		}
		h = fnv(h, buf, len);
		for (off = 0; off < len; off += n) {
			n = write(s, buf + off, len - off);
			if (n <= 0) {
				perror("write");
				return 1;
			}
		}
		sent += len;
	}
	shutdown(s, SHUT_WR);
	for (off = 0; off < sizeof(reply) - 1; off += n) {
		n = read(s, reply + off, sizeof(reply) - 1 - off);
		if (n <= 0)
			break;
	}
	snprintf(want, sizeof(want), "%llu %016llx\n", (unsigned long long)sent,
		 (unsigned long long)h);
	printf("client: sent %s", want);
	printf("client: peer %s", reply[0] ? reply : "(no reply)\n");
	close(s);
	return strcmp(reply, want) != 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "-s"))
		return server(argv[2]);
	if ((argc == 5 || argc == 7) && !strcmp(argv[1], "-c"))
		return client(argv[2], argv[3], strtoull(argv[4], NULL, 0),
			      argc == 7 && !strcmp(argv[5], "-C") ? argv[6] : NULL);
	fprintf(stderr, "usage: tonic_xfer -s PORT | -c HOST PORT BYTES [-C CC]\n");
	return 2;
}
