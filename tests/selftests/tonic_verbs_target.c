// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_verbs_target: an RC QP for a packet injector to talk to (test 73).
 *
 *	tonic_verbs_target -d DEV -g SGID_INDEX -r PEER_IPV4 -q PEER_QPN
 *			   [-p RQ_PSN] [-P SQ_PSN] [-n RECVS] [-s RECV_BYTES]
 *			   [-m MR_BYTES] [-f FILL] [-c COMPLETIONS]
 *			   [-S SENDS] [-t TIMEOUT]
 *
 * Opens DEV, creates a PD, a CQ, an MR of MR_BYTES (default 4096) filled
 * with FILL (0xaa) with LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ, an RC QP
 * whose RECVS receives (4) of RECV_BYTES (256) each land in the MR's
 * second half, and moves the QP to RTS toward ::ffff:PEER_IPV4 / PEER_QPN
 * (receive PSN RQ_PSN, send PSN SQ_PSN; path MTU 1024).  Prints one line
 *
 *	target qpn N rkey 0xK va 0xV len L psn P recv_va 0xR
 *
 * then posts SENDS (0) signaled SENDs of 64 bytes (wr_id 1000, 1001, ...;
 * the QP's local ACK timeout TIMEOUT, 14 by default), then prints every
 * completion as "wc wr_id N status S (name) opcode O len L",
 * until SIGTERM/SIGINT or COMPLETIONS completions.  On exit: the QP state
 * ("qp state N"), and which bytes of the MR's first half (the RDMA WRITE
 * target) differ from FILL: "mr unchanged" or "mr changed FIRST..LAST
 * (COUNT bytes)".  Exit status 0 unless a verb failed.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void die(const char *what)
{
	fprintf(stderr, "tonic_verbs_target: %s: %s\n", what, strerror(errno));
	exit(1);
}

int main(int argc, char **argv)
{
	const char *devname = NULL, *peer = NULL;
	int sgid = -1, nrecv = 4, nsend = 0, qp_timeout = 14, c;
	uint32_t peer_qpn = 0, rq_psn = 100, sq_psn = 1000, recv_bytes = 256;
	size_t mr_bytes = 4096;
	long want = -1, got = 0;
	int fill = 0xaa;
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_mr *mr;
	struct ibv_qp *qp;
	struct ibv_qp_init_attr init;
	struct ibv_qp_attr attr;
	struct sigaction sa;
	unsigned char *buf;
	struct in_addr ia;
	int i, n;

	while ((c = getopt(argc, argv, "d:g:r:q:p:P:n:s:m:f:c:S:t:")) != -1) {
		switch (c) {
		case 'd': devname = optarg; break;
		case 'g': sgid = atoi(optarg); break;
		case 'r': peer = optarg; break;
		case 'q': peer_qpn = strtoul(optarg, NULL, 0); break;
		case 'p': rq_psn = strtoul(optarg, NULL, 0); break;
		case 'P': sq_psn = strtoul(optarg, NULL, 0); break;
		case 'n': nrecv = atoi(optarg); break;
		case 's': recv_bytes = strtoul(optarg, NULL, 0); break;
		case 'm': mr_bytes = strtoul(optarg, NULL, 0); break;
		case 'f': fill = strtol(optarg, NULL, 0); break;
		case 'c': want = atol(optarg); break;
		case 'S': nsend = atoi(optarg); break;
		case 't': qp_timeout = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: see the comment at the top of tonic_verbs_target.c\n");
			return 2;
		}
	}
	if (!devname || sgid < 0 || !peer || !inet_aton(peer, &ia) ||
	    (size_t)nrecv * recv_bytes > mr_bytes / 2 || nsend < 0 || nsend > 4) {
		fprintf(stderr, "tonic_verbs_target: -d, -g, -r, -q needed; receives must fit half the MR\n");
		return 2;
	}

	list = ibv_get_device_list(NULL);
	if (!list)
		die("ibv_get_device_list");
	for (i = 0; list[i]; i++)
		if (!strcmp(ibv_get_device_name(list[i]), devname))
			ctx = ibv_open_device(list[i]);
	if (!ctx) {
		fprintf(stderr, "tonic_verbs_target: no device %s\n", devname);
		return 1;
	}
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");
	buf = aligned_alloc(4096, (mr_bytes + 4095) & ~(size_t)4095);
	if (!buf)
		die("aligned_alloc");
	memset(buf, fill, mr_bytes);
	mr = ibv_reg_mr(pd, buf, mr_bytes, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			IBV_ACCESS_REMOTE_READ);
	if (!mr)
		die("ibv_reg_mr");

	memset(&init, 0, sizeof(init));
	init.send_cq = cq;
	init.recv_cq = cq;
	init.qp_type = IBV_QPT_RC;
	init.cap.max_send_wr = 4;
	init.cap.max_recv_wr = nrecv > 0 ? nrecv : 1;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	qp = ibv_create_qp(pd, &init);
	if (!qp)
		die("ibv_create_qp");

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_INIT;
	attr.pkey_index = 0;
	attr.port_num = 1;
	attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		die("modify_qp INIT");

	for (i = 0; i < nrecv; i++) {
		struct ibv_sge sge = {
			.addr = (uintptr_t)buf + mr_bytes / 2 + (size_t)i * recv_bytes,
			.length = recv_bytes,
			.lkey = mr->lkey,
		};
		struct ibv_recv_wr wr = { .wr_id = i, .sg_list = &sge, .num_sge = 1 }, *bad;

		if (ibv_post_recv(qp, &wr, &bad))
			die("ibv_post_recv");
	}

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTR;
	attr.path_mtu = IBV_MTU_1024;
	attr.dest_qp_num = peer_qpn;
	attr.rq_psn = rq_psn;
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 12;
	attr.ah_attr.is_global = 1;
	attr.ah_attr.port_num = 1;
	attr.ah_attr.grh.sgid_index = sgid;
	attr.ah_attr.grh.hop_limit = 64;
	attr.ah_attr.grh.dgid.raw[10] = 0xff;
	attr.ah_attr.grh.dgid.raw[11] = 0xff;
	memcpy(&attr.ah_attr.grh.dgid.raw[12], &ia.s_addr, 4);
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU |
			  IBV_QP_DEST_QPN | IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC |
			  IBV_QP_MIN_RNR_TIMER))
		die("modify_qp RTR");
	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IBV_QPS_RTS;
	attr.sq_psn = sq_psn;
	attr.timeout = qp_timeout;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.max_rd_atomic = 1;
	if (ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
			  IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC))
		die("modify_qp RTS");

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);

	printf("target qpn %u rkey 0x%x va 0x%llx len %zu psn %u recv_va 0x%llx\n", qp->qp_num,
	       mr->rkey, (unsigned long long)(uintptr_t)buf, mr_bytes / 2, rq_psn,
	       (unsigned long long)(uintptr_t)buf + mr_bytes / 2);
	fflush(stdout);

	for (i = 0; i < nsend; i++) {
		struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 64, .lkey = mr->lkey };
		struct ibv_send_wr wr = {
			.wr_id = 1000 + i, .sg_list = &sge, .num_sge = 1,
			.opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED,
		}, *bad;

		if (ibv_post_send(qp, &wr, &bad))
			die("ibv_post_send");
	}

	while (!stop && (want < 0 || got < want)) {
		struct ibv_wc wc[8];
		struct timespec ts = { 0, 2 * 1000 * 1000 };

		n = ibv_poll_cq(cq, 8, wc);
		if (n < 0) {
			fprintf(stderr, "tonic_verbs_target: ibv_poll_cq failed\n");
			return 1;
		}
		for (i = 0; i < n; i++, got++) {
			printf("wc wr_id %llu status %d (%s) opcode %d",
			       (unsigned long long)wc[i].wr_id, wc[i].status,
			       ibv_wc_status_str(wc[i].status), wc[i].opcode);
			if (wc[i].wc_flags & IBV_WC_WITH_IMM)
				printf(" imm 0x%x", ntohl(wc[i].imm_data));
			printf(" len %u\n", wc[i].byte_len);
		}
		fflush(stdout);
		if (!n)
			nanosleep(&ts, NULL);
	}

	{
		struct ibv_qp_init_attr qinit;
		size_t first = 0, last = 0, cnt = 0, k;

		memset(&attr, 0, sizeof(attr));
		if (ibv_query_qp(qp, &attr, IBV_QP_STATE, &qinit) == 0)
			printf("qp state %d\n", attr.qp_state);
		else
			printf("qp state unknown (%s)\n", strerror(errno));
		for (k = 0; k < mr_bytes / 2; k++) {
			if (buf[k] == (unsigned char)fill)
				continue;
			if (!cnt++)
				first = k;
			last = k;
		}
		if (cnt)
			printf("mr changed %zu..%zu (%zu bytes)\n", first, last, cnt);
		else
			printf("mr unchanged\n");
		fflush(stdout);
	}
	/* Everything is destroyed in order: a failure here is a finding too. */
	if (ibv_destroy_qp(qp))
		die("ibv_destroy_qp");
	if (ibv_dereg_mr(mr))
		die("ibv_dereg_mr");
	if (ibv_destroy_cq(cq))
		die("ibv_destroy_cq");
	if (ibv_dealloc_pd(pd))
		die("ibv_dealloc_pd");
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	printf("target done\n");
	return 0;
}
