// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_rdma_xfer: RDMA WRITE and RDMA READ with the data checked, between
 * two RC QPs connected over a TCP side channel (as ibv_rc_pingpong does).
 *
 *   server: tonic_rdma_xfer -d DEV -g GIDX [-p PORT] [-s BYTES] [-m MSG] [-n ROUNDS] [-i]
 *   client: the same options and the server's IPv4 address
 *
 * Each side registers 2 x BYTES (remote read and write): the first half a
 * pattern of its own, the second half zeros.  Every round the client
 * WRITEs a round's pattern into the server's second half and READs the
 * server's first half into its own second half (cleared first), in MSG-byte
 * work requests, alternating, at most DEPTH outstanding; it checks what it
 * read.  At the end it tells the server the last round, and the server
 * checks what was written.  Exit 0 only when every byte matched and every
 * completion succeeded; prints the bytes moved and the time.
 *
 * -i (both sides): the WRITEs carry immediate data, the chunk's number
 * counted over all rounds; the server keeps receives posted and checks
 * each completion: RECV_RDMA_WITH_IMM, in order (the immediates count up),
 * with the chunk's length.
 *
 * -l (the client): message completion times instead: only the WRITEs, one
 * at a time, each timed from its post to its completion; prints their
 * count, average, median, 99th percentile and maximum in microseconds,
 * then every time.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <infiniband/verbs.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define DEPTH	16	/* outstanding work requests: at most the READs a responder takes */

struct peer {
	uint32_t qpn, psn, rkey, pad;
	uint64_t va;
	uint8_t gid[16];
};

static const char *dev_name;
static int gidx = 1, port = 18516, rounds = 10;
static size_t bytes = 1 << 20, msg = 65536;
static int imm, lat;
static double *fct;	/* -l: each message's completion time, us */
static size_t nfct;

static void die(const char *what)
{
	fprintf(stderr, "tonic_rdma_xfer: %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint8_t pattern(size_t i, int seed)
{
	return (uint8_t)(i * 31 + seed * 7 + (i >> 10));
}

static void fill(uint8_t *p, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = pattern(i, seed);
}

static int check(const uint8_t *p, size_t n, int seed, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != pattern(i, seed)) {
			fprintf(stderr, "tonic_rdma_xfer: %s: byte %zu is 0x%02x, not 0x%02x\n",
				what, i, p[i], pattern(i, seed));
			return -1;
		}
	return 0;
}

static void xchg(int fd, const void *out, void *in, size_t n)
{
	size_t got = 0;
	ssize_t r;

	if (write(fd, out, n) != (ssize_t)n)
		die("write to the peer");
	while (got < n) {
		r = read(fd, (char *)in + got, n - got);
		if (r <= 0)
			die("read from the peer");
		got += r;
	}
}

static int side_channel(const char *server)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1, c;

	if (fd < 0)
		die("socket");
	if (server) {
		if (inet_pton(AF_INET, server, &a.sin_addr) != 1)
			die("server address");
		if (connect(fd, (struct sockaddr *)&a, sizeof(a)))
			die("connect");
		return fd;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 1))
		die("listen");
	c = accept(fd, NULL, NULL);
	if (c < 0)
		die("accept");
	close(fd);
	return c;
}

static void connect_qp(struct ibv_qp *qp, const struct peer *me, const struct peer *p)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		die("modify_qp INIT");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = p->qpn;
	a.rq_psn = p->psn;
	a.max_dest_rd_atomic = DEPTH;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.port_num = 1;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.grh.sgid_index = gidx;
	memcpy(a.ah_attr.grh.dgid.raw, p->gid, 16);
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		die("modify_qp RTR");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = me->psn;
	a.max_rd_atomic = DEPTH;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		die("modify_qp RTS");
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/*
 * One round: every chunk written and read (-l: written, one at a time,
 * timed); 0 when every completion succeeded.
 */
static int round_trip(struct ibv_qp *qp, struct ibv_cq *cq, struct ibv_mr *mr, uint8_t *buf,
		      const struct peer *p, uint32_t *seq)
{
	size_t chunks = (bytes + msg - 1) / msg, posted = 0, done = 0;
	size_t total = lat ? chunks : 2 * chunks, depth = lat ? 1 : DEPTH;
	time_t t0 = time(NULL);
	struct ibv_wc wc[DEPTH];
	double posted_at = 0;
	int n, i;

	while (done < total) {
		while (posted < total && posted - done < depth) {
			size_t j = lat ? posted : posted / 2, off = j * msg;
			size_t len = bytes - off < msg ? bytes - off : msg;
			int rd = !lat && (posted & 1);
			struct ibv_sge sge = {
				.addr = (uintptr_t)buf + (rd ? bytes : 0) + off,
				.length = len,
				.lkey = mr->lkey,
			};
			struct ibv_send_wr wr = {
				.wr_id = posted,
				.sg_list = &sge,
				.num_sge = 1,
				.opcode = rd ? IBV_WR_RDMA_READ :
					  imm ? IBV_WR_RDMA_WRITE_WITH_IMM : IBV_WR_RDMA_WRITE,
				.imm_data = htonl(*seq + j),
				.send_flags = IBV_SEND_SIGNALED,
				.wr.rdma.remote_addr = p->va + (rd ? 0 : bytes) + off,
				.wr.rdma.rkey = p->rkey,
			}, *bad;

			posted_at = now_us();
			if (ibv_post_send(qp, &wr, &bad))
				die("post_send");
			posted++;
		}
		n = ibv_poll_cq(cq, DEPTH, wc);
		if (n < 0)
			die("poll_cq");
		for (i = 0; i < n; i++) {
			if (wc[i].status != IBV_WC_SUCCESS) {
				fprintf(stderr, "tonic_rdma_xfer: wr %llu: %s\n",
					(unsigned long long)wc[i].wr_id,
					ibv_wc_status_str(wc[i].status));
				return -1;
			}
			if (lat)
				fct[nfct++] = now_us() - posted_at;
			done++;
		}
		if (!n && time(NULL) - t0 > 120) {
			fprintf(stderr, "tonic_rdma_xfer: %zu of %zu completions in 120 s\n",
				done, total);
			return -1;
		}
	}
	*seq += chunks;
	return 0;
}

static void post_recv(struct ibv_qp *qp, uint64_t id)
{
	struct ibv_recv_wr wr = { .wr_id = id }, *bad;

	if (ibv_post_recv(qp, &wr, &bad))
		die("post_recv");
}

/*
 * -i, the server: every WRITE's completion, in order: RECV_RDMA_WITH_IMM
 * with the chunk's number and length.  0 when all @rounds rounds' came.
 */
static int imm_recvs(struct ibv_qp *qp, struct ibv_cq *cq)
{
	size_t chunks = (bytes + msg - 1) / msg, n = chunks * rounds, got = 0, j, len;
	time_t t0 = time(NULL);
	struct ibv_wc wc;
	int r;

	while (got < n) {
		r = ibv_poll_cq(cq, 1, &wc);
		if (r < 0)
			die("poll_cq");
		if (!r) {
			if (time(NULL) - t0 > 120) {
				fprintf(stderr, "tonic_rdma_xfer: %zu of %zu receives in 120 s\n",
					got, n);
				return -1;
			}
			continue;
		}
		t0 = time(NULL);
		j = got % chunks;
		len = bytes - j * msg < msg ? bytes - j * msg : msg;

		if (wc.status != IBV_WC_SUCCESS || wc.opcode != IBV_WC_RECV_RDMA_WITH_IMM ||
		    !(wc.wc_flags & IBV_WC_WITH_IMM) || ntohl(wc.imm_data) != got ||
		    wc.byte_len != len) {
			fprintf(stderr, "tonic_rdma_xfer: receive %zu: %s, opcode %d, imm %u, %u B (want %zu)\n",
				got, ibv_wc_status_str(wc.status), wc.opcode,
				ntohl(wc.imm_data), wc.byte_len, len);
			return -1;
		}
		got++;
		post_recv(qp, got);
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * -l: "fct: N messages of MSG B avg A p50 B p99 C max D us" (nearest rank),
 * then "fct-us:" and each time, sorted.
 */
static void fct_report(void)
{
	double sum = 0;

	qsort(fct, nfct, sizeof(*fct), cmp_double);
	for (size_t i = 0; i < nfct; i++)
		sum += fct[i];
	printf("fct: %zu messages of %zu B avg %.1f p50 %.1f p99 %.1f max %.1f us\n", nfct, msg,
	       sum / nfct, fct[(size_t)ceil(0.50 * nfct) - 1], fct[(size_t)ceil(0.99 * nfct) - 1],
	       fct[nfct - 1]);
	printf("fct-us:");
	for (size_t i = 0; i < nfct; i++)
		printf(" %.0f", fct[i]);
	printf("\n");
}

int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
	struct peer me = {}, p;
	union ibv_gid gid;
	const char *server;
	struct timespec t0, t1;
	uint8_t *buf;
	uint32_t seq = 0;
	int c, fd, r, last = -1, err = 0;

	while ((c = getopt(argc, argv, "d:g:p:s:m:n:il")) != -1) {
		switch (c) {
		case 'd': dev_name = optarg; break;
		case 'g': gidx = atoi(optarg); break;
		case 'p': port = atoi(optarg); break;
		case 's': bytes = strtoul(optarg, NULL, 0); break;
		case 'm': msg = strtoul(optarg, NULL, 0); break;
		case 'n': rounds = atoi(optarg); break;
		case 'i': imm = 1; break;
		case 'l': lat = 1; break;
		default:
			fprintf(stderr, "usage: tonic_rdma_xfer -d DEV [-g GIDX] [-p PORT] [-s BYTES] [-m MSG] [-n ROUNDS] [-i] [-l] [SERVER]\n");
			return 2;
		}
	}
	server = optind < argc ? argv[optind] : NULL;
	if (!dev_name || !bytes || !msg || rounds < 1)
		return 2;
	fct = calloc((bytes + msg - 1) / msg * rounds, sizeof(*fct));
	if (!fct)
		die("memory");

	list = ibv_get_device_list(NULL);
	for (int i = 0; list && list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), dev_name))
			ctx = ibv_open_device(list[i]);
	if (!ctx)
		die(dev_name);
	buf = aligned_alloc(4096, (2 * bytes + 4095) & ~4095ul);
	if (!buf)
		die("memory");
	fill(buf, bytes, server ? 2 : 1);
	memset(buf + bytes, 0, bytes);
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("alloc_pd");
	mr = ibv_reg_mr(pd, buf, 2 * bytes, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			IBV_ACCESS_REMOTE_READ);
	if (!mr)
		die("reg_mr");
	cq = ibv_create_cq(ctx, 2 * DEPTH, NULL, NULL, 0);
	if (!cq)
		die("create_cq");
	struct ibv_qp_init_attr ia = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = DEPTH, .max_recv_wr = DEPTH, .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	qp = ibv_create_qp(pd, &ia);
	if (!qp)
		die("create_qp");
	if (ibv_query_gid(ctx, 1, gidx, &gid))
		die("query_gid");
	srand(getpid());
	me.qpn = qp->qp_num;
	me.psn = rand() & 0xffffff;
	me.rkey = mr->rkey;
	me.va = (uintptr_t)buf;
	memcpy(me.gid, gid.raw, 16);

	fd = side_channel(server);
	xchg(fd, &me, &p, sizeof(me));
	connect_qp(qp, &me, &p);
	for (r = 0; imm && !server && r < DEPTH; r++)
		post_recv(qp, 0);
	xchg(fd, &err, &r, sizeof(err));		/* both at RTS */

	if (!server) {
		if (imm && imm_recvs(qp, cq))
			err = -1;
		printf("server: receives with immediate: %s\n", !imm ? "none" : err ? "WRONG" : "ok");
		/* The client's last round, after its work: then the check. */
		xchg(fd, &err, &last, sizeof(err));
		if (!err)
			err = last >= 0 ? check(buf + bytes, bytes, last + 2, "written by the peer") : -1;
		printf("server: data written by the peer: %s\n", err ? "WRONG" : "ok");
		xchg(fd, &err, &r, sizeof(err));
		return err || r ? 1 : 0;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (r = 0; r < rounds && !err; r++) {
		fill(buf, bytes, r + 2);
		memset(buf + bytes, 0, bytes);
		err = round_trip(qp, cq, mr, buf, &p, &seq);
		if (!err && !lat)
			err = check(buf + bytes, bytes, 1, "read from the peer");
		if (!err)
			last = r;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("client: %d rounds of %zu B written and %zu B read in %zu B messages: %s, %.3f s\n",
	       rounds, bytes, lat ? 0 : bytes, msg, err ? "FAILED" : "data ok",
	       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	if (lat && nfct)
		fct_report();
	xchg(fd, &last, &r, sizeof(last));
	xchg(fd, &err, &r, sizeof(err));
	return err || r ? 1 : 0;
}
