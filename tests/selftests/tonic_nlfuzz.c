// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_nlfuzz: throw random and malformed generic netlink messages at the
 * "tonic" family and check that every one gets a clean answer.
 *
 *   tonic_nlfuzz [-n COUNT] [-s SEED] [-u]
 *
 * Messages: unknown and known commands with random flags; random attribute
 * types, lengths and payloads; nested garbage; valid attribute types with
 * wrong lengths, strings without NUL or too long, out-of-range values;
 * truncated netlink/genetlink headers; dumps read fully, partly, or
 * abandoned with the socket closed.  With -u (run it without
 * CAP_NET_ADMIN) every state-changing request must fail with EPERM and the
 * namespace's defaults must be unchanged at the end.
 *
 * Exit 0 if every acked request got an NLMSG_ERROR/DONE with 0 or a
 * negative errno within the receive timeout.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>
#include <uapi/linux/tonic.h>

#define BUF	65536

static uint64_t rng;
static int fam;
static unsigned long sent, acked, errors_seen[4096], oks, eperm_bad, bad;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng >> 11;
}

static int nl_open(void)
{
	struct timeval tv = { .tv_sec = 3 };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	int one = 1;

	if (fd < 0) {
		perror("socket");
		exit(1);
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	return fd;
}

struct msg {
	char buf[BUF];
	size_t len;
};

static void m_init(struct msg *m, uint16_t type, uint16_t flags, uint8_t cmd, uint8_t ver)
{
	struct nlmsghdr *n = (void *)m->buf;
	struct genlmsghdr *g = (void *)(m->buf + NLMSG_HDRLEN);

	memset(m->buf, 0, NLMSG_HDRLEN + GENL_HDRLEN);
	n->nlmsg_type = type;
	n->nlmsg_flags = flags;
	n->nlmsg_seq = (uint32_t)sent + 1;
	g->cmd = cmd;
	g->version = ver;
	m->len = NLMSG_HDRLEN + GENL_HDRLEN;
}

static void *m_attr(struct msg *m, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a = (void *)(m->buf + m->len);

	if (m->len + NLA_HDRLEN + NLA_ALIGN(len) > 8192)
		return NULL;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (data)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	else
		for (size_t i = 0; i < len; i++)
			((unsigned char *)a)[NLA_HDRLEN + i] = rnd();
	m->len += NLA_HDRLEN + NLA_ALIGN(len);
	return a;
}

/*
 * Wait for the answer to @seq: 0 or -errno from NLMSG_ERROR, 1 for a dump's
 * DONE, -1000 on timeout.  @limit: stop reading a dump after so many messages.
 */
static int wait_answer(int fd, uint32_t seq, int limit)
{
	static char rb[BUF];
	int n, msgs = 0;

	for (;;) {
		struct nlmsghdr *h;

		n = recv(fd, rb, sizeof(rb), 0);
		if (n < 0)
			return errno == EAGAIN ? -1000 : -errno;
		for (h = (void *)rb; NLMSG_OK(h, (unsigned int)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR) {
				struct nlmsgerr *e = NLMSG_DATA(h);

				return e->error;
			}
			if (h->nlmsg_type == NLMSG_DONE)
				return 1;
			if (++msgs >= limit)
				return 2;
		}
	}
}

static int send_msg(int fd, struct msg *m)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct nlmsghdr *n = (void *)m->buf;

	if (!n->nlmsg_len)
		n->nlmsg_len = m->len;
	sent++;
	return sendto(fd, m->buf, m->len, 0, (struct sockaddr *)&sa, sizeof(sa));
}

static int resolve(int fd)
{
	struct msg m;
	static char rb[BUF];
	struct nlmsghdr *h;
	int n;

	m_init(&m, GENL_ID_CTRL, NLM_F_REQUEST, CTRL_CMD_GETFAMILY, 1);
	m_attr(&m, CTRL_ATTR_FAMILY_NAME, TONIC_GENL_NAME, sizeof(TONIC_GENL_NAME));
	send_msg(fd, &m);
	n = recv(fd, rb, sizeof(rb), 0);
	for (h = (void *)rb; n > 0 && NLMSG_OK(h, (unsigned int)n); h = NLMSG_NEXT(h, n)) {
		struct nlattr *a;
		int rem;

		if (h->nlmsg_type != GENL_ID_CTRL)
			return -1;
		a = (void *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);
		rem = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
		while (rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= rem) {
			if (a->nla_type == CTRL_ATTR_FAMILY_ID)
				return *(uint16_t *)((char *)a + NLA_HDRLEN);
			rem -= NLA_ALIGN(a->nla_len);
			a = (void *)((char *)a + NLA_ALIGN(a->nla_len));
		}
	}
	return -1;
}

/*
 * A defaults snapshot (raw attribute bytes of the GET reply), on a socket
 * of its own: the fuzzing one may still hold the rest of a dump it left.
 */
static int get_defaults(char *out, int outlen)
{
	static char rb[BUF];
	struct nlmsghdr *h;
	struct msg m;
	int fd = nl_open(), n, len = -1;

	m_init(&m, fam, NLM_F_REQUEST, TONIC_CMD_DEFAULTS_GET, 1);
	send_msg(fd, &m);
	n = recv(fd, rb, sizeof(rb), 0);
	for (h = (void *)rb; n > 0 && NLMSG_OK(h, (unsigned int)n); h = NLMSG_NEXT(h, n)) {
		if (h->nlmsg_type != fam)
			continue;
		len = h->nlmsg_len - NLMSG_HDRLEN - GENL_HDRLEN;
		if (len > outlen)
			len = outlen;
		memcpy(out, (char *)NLMSG_DATA(h) + GENL_HDRLEN, len);
	}
	close(fd);
	return len;
}

/* Attribute sets per command, with each attribute's nominal size (0: string). */
static int max_attr(uint8_t cmd)
{
	switch (cmd) {
	case TONIC_CMD_DEV_GET:
	case TONIC_CMD_DEV_SET: return TONIC_A_DEV_MAX;
	case TONIC_CMD_FLOW_GET:
	case TONIC_CMD_FLOW_SET: return TONIC_A_FLOW_MAX;
	case TONIC_CMD_STATS_GET: return TONIC_A_STATS_MAX;
	case TONIC_CMD_DEFAULTS_GET:
	case TONIC_CMD_DEFAULTS_SET: return TONIC_A_DEFAULTS_MAX;
	case TONIC_CMD_SOCK_OFFLOAD: return TONIC_A_SOCK_MAX;
	case TONIC_CMD_TENANT_GET:
	case TONIC_CMD_TENANT_NEW:
	case TONIC_CMD_TENANT_DEL: return TONIC_A_TENANT_MAX;
	default: return 40;
	}
}

static const char *const names[] = { "soft0", "newreno", "reno", "sack", "dcqcn", "nope", "",
				      "0123456789abcdef0123456789abcdef0123456789" };

static void rand_attr(struct msg *m, int maxattr)
{
	uint16_t type = rnd() % (maxattr + 4);
	uint32_t v32;
	uint64_t v64;
	const char *s;

	switch (rnd() % 10) {
	case 0:	/* random length garbage */
		m_attr(m, type | (rnd() % 4 == 0 ? NLA_F_NESTED : 0), NULL, rnd() % 300);
		break;
	case 1: case 2:	/* u32 */
		v32 = rnd() % 3 ? rnd() % 4096 : rnd();
		m_attr(m, type, &v32, 4);
		break;
	case 3:	/* u8/u16 */
		v32 = rnd();
		m_attr(m, type, &v32, 1 + rnd() % 2);
		break;
	case 4:	/* u64 */
		v64 = ((uint64_t)rnd() << 32) | rnd();
		m_attr(m, type, &v64, 8);
		break;
	case 5: case 6:	/* a NUL-terminated string */
		s = names[rnd() % (sizeof(names) / sizeof(names[0]))];
		m_attr(m, type, s, strlen(s) + 1);
		break;
	case 7:	/* string without NUL */
		s = names[rnd() % (sizeof(names) / sizeof(names[0]))];
		m_attr(m, type, s, strlen(s));
		break;
	case 8: {	/* nested garbage: a header claiming more than there is */
		struct nlattr *a = m_attr(m, type | NLA_F_NESTED, NULL, 8 + rnd() % 32);

		if (a) {
			struct nlattr *in = (void *)((char *)a + NLA_HDRLEN);

			in->nla_len = rnd() % 2 ? 0xffff : rnd() % 4;
			in->nla_type = rnd();
		}
		break;
	}
	default:	/* 16 bytes (IPv6 address size) */
		m_attr(m, type, NULL, 16);
		break;
	}
}

/* Near-valid requests: each command's own attributes with their types, values random. */
enum { K_STR, K_U32, K_U8, K_BE16, K_BE32, K_IN6, K_U64 };
struct fattr {
	uint8_t cmd;
	uint16_t type;
	uint8_t kind;
};

static const struct fattr fattrs[] = {
	{ TONIC_CMD_DEV_GET, TONIC_A_DEV_NAME, K_STR },
	{ TONIC_CMD_FLOW_GET, TONIC_A_FLOW_DEV, K_STR },
	{ TONIC_CMD_FLOW_GET, TONIC_A_FLOW_ID, K_U32 },
	{ TONIC_CMD_FLOW_GET, TONIC_A_FLOW_PROGRAM, K_STR },
	{ TONIC_CMD_STATS_GET, TONIC_A_STATS_DEV_NAME, K_STR },
	{ TONIC_CMD_DEFAULTS_SET, TONIC_A_DEFAULTS_PROGRAM, K_STR },
	{ TONIC_CMD_DEFAULTS_SET, TONIC_A_DEFAULTS_SEG_SIZE, K_U32 },
	{ TONIC_CMD_DEFAULTS_SET, TONIC_A_DEFAULTS_SUB_DELAY_US, K_U32 },
	{ TONIC_CMD_DEFAULTS_SET, TONIC_A_DEFAULTS_AUTO_OFFLOAD, K_U8 },
	{ TONIC_CMD_SOCK_OFFLOAD, TONIC_A_SOCK_LOCAL_IPV4, K_BE32 },
	{ TONIC_CMD_SOCK_OFFLOAD, TONIC_A_SOCK_REMOTE_IPV4, K_BE32 },
	{ TONIC_CMD_SOCK_OFFLOAD, TONIC_A_SOCK_LOCAL_IPV6, K_IN6 },
	{ TONIC_CMD_SOCK_OFFLOAD, TONIC_A_SOCK_REMOTE_IPV6, K_IN6 },
	{ TONIC_CMD_SOCK_OFFLOAD, TONIC_A_SOCK_LOCAL_PORT, K_BE16 },
	{ TONIC_CMD_SOCK_OFFLOAD, TONIC_A_SOCK_REMOTE_PORT, K_BE16 },
	{ TONIC_CMD_SOCK_OFFLOAD, TONIC_A_SOCK_OFFLOAD, K_U8 },
	{ TONIC_CMD_FLOW_SET, TONIC_A_FLOW_DEV, K_STR },
	{ TONIC_CMD_FLOW_SET, TONIC_A_FLOW_ID, K_U32 },
	{ TONIC_CMD_FLOW_SET, TONIC_A_FLOW_PARAM_INDEX, K_U32 },
	{ TONIC_CMD_FLOW_SET, TONIC_A_FLOW_PARAM_VALUE, K_U32 },
	{ TONIC_CMD_TENANT_GET, TONIC_A_TENANT_NAME, K_STR },
	{ TONIC_CMD_TENANT_NEW, TONIC_A_TENANT_NAME, K_STR },
	{ TONIC_CMD_TENANT_NEW, TONIC_A_TENANT_UID, K_U32 },
	{ TONIC_CMD_TENANT_NEW, TONIC_A_TENANT_CGROUP, K_U64 },
	{ TONIC_CMD_TENANT_NEW, TONIC_A_TENANT_FIXED, K_U32 },
	{ TONIC_CMD_TENANT_DEL, TONIC_A_TENANT_NAME, K_STR },
	{ TONIC_CMD_DEV_SET, TONIC_A_DEV_NAME, K_STR },
	{ TONIC_CMD_DEV_SET, TONIC_A_DEV_PARAM_PROGRAM, K_STR },
	{ TONIC_CMD_DEV_SET, TONIC_A_DEV_PARAM_INDEX, K_U32 },
	{ TONIC_CMD_DEV_SET, TONIC_A_DEV_PARAM_VALUE, K_U32 },
};

static void near_valid(struct msg *m, uint8_t cmd)
{
	unsigned int i;

	for (i = 0; i < sizeof(fattrs) / sizeof(fattrs[0]); i++) {
		const struct fattr *f = &fattrs[i];
		uint32_t v = rnd();
		const char *str;

		if (f->cmd != cmd || rnd() % 4 == 0)
			continue;
		switch (f->kind) {
		case K_STR:
			str = names[rnd() % (sizeof(names) / sizeof(names[0]))];
			m_attr(m, f->type, str, strlen(str) + 1);
			break;
		case K_U32:
			v = rnd() % 2 ? rnd() % 2048 : v;
			m_attr(m, f->type, &v, 4);
			break;
		case K_U8:
			v = rnd() % 3;
			m_attr(m, f->type, &v, 1);
			break;
		case K_BE16:
			v = rnd() % 8 ? 0x8914 /* 5257 */ : v;
			m_attr(m, f->type, &v, 2);
			break;
		case K_BE32:
			v = rnd() % 2 ? 0x0100000a : 0x0200000a;	/* 10.0.0.1/2 */
			m_attr(m, f->type, &v, 4);
			break;
		case K_U64: {	/* small ones are cgroup ids that exist */
			uint64_t v64 = rnd() % 2 ? rnd() % 8 : ((uint64_t)rnd() << 32) | v;

			m_attr(m, f->type, &v64, 8);
			break;
		}
		default:
			m_attr(m, f->type, NULL, 16);
		}
	}
	if (rnd() % 4 == 0)
		rand_attr(m, max_attr(cmd));	/* one stray */
}

static void one(int fd, bool unpriv)
{
	struct msg m;
	uint8_t cmd;
	uint16_t flags = NLM_F_REQUEST | NLM_F_ACK;
	int kind = rnd() % 16, n, i, err, limit = 1 << 30;
	bool dump = false, expect = true, near;

	cmd = rnd() % 4 ? 1 + rnd() % TONIC_CMD_MAX : rnd() % 256;
	if (rnd() % 3 == 0) {
		flags |= NLM_F_DUMP;
		dump = true;
	}
	if (rnd() % 16 == 0)
		flags |= rnd() & 0x0f00;
	m_init(&m, fam, flags, cmd, rnd() % 8 ? 1 : rnd());
	near = (cmd >= 1 && cmd <= TONIC_CMD_SOCK_OFFLOAD) || cmd == TONIC_CMD_FLOW_SET ||
	       (cmd >= TONIC_CMD_TENANT_GET && cmd <= TONIC_CMD_DEV_SET);
	if (rnd() % 2 && near) {
		if (rnd() % 4 && !(cmd == TONIC_CMD_DEV_GET || cmd == TONIC_CMD_FLOW_GET)) {
			/* doit-only commands: drop the dump flag most of the time */
			((struct nlmsghdr *)m.buf)->nlmsg_flags &= ~NLM_F_DUMP;
			dump = false;
		}
		near_valid(&m, cmd);
	} else {
		n = rnd() % 8;
		for (i = 0; i < n; i++)
			rand_attr(&m, max_attr(cmd));
	}
	if (kind == 0) {		/* truncated genetlink header */
		m.len = NLMSG_HDRLEN + rnd() % GENL_HDRLEN;
	} else if (kind == 1) {		/* nlmsg_len beyond what is sent: silently dropped */
		((struct nlmsghdr *)m.buf)->nlmsg_len = m.len + 4 + rnd() % 64;
		expect = false;
	} else if (kind == 2) {		/* nlmsg_len shorter than the attributes */
		if (m.len > NLMSG_HDRLEN + GENL_HDRLEN + 2)
			m.len -= 1 + rnd() % 3;
	} else if (kind == 3) {		/* reserved field set */
		((struct genlmsghdr *)(m.buf + NLMSG_HDRLEN))->reserved = rnd();
	} else if (kind == 4) {		/* a dump read only partly, then abandoned */
		limit = 1;
	}
	if (dump && rnd() % 8 == 0)
		limit = 1 + rnd() % 3;
	send_msg(fd, &m);
	if (!expect)
		return;
	err = wait_answer(fd, ((struct nlmsghdr *)m.buf)->nlmsg_seq, limit);
	if (err == -1000) {
		printf("# no answer to cmd %u flags 0x%x len %zu\n", cmd, flags, m.len);
		bad++;
		return;
	}
	if (err == 2)
		return;		/* the caller reopens the socket: an abandoned dump */
	acked++;
	if (err > 0 || !err) {
		oks++;
	} else if (err >= -4095) {
		errors_seen[-err]++;
	} else {
		printf("# bogus error %d\n", err);
		bad++;
	}
	if (unpriv && !dump && (cmd == TONIC_CMD_DEFAULTS_SET || cmd == TONIC_CMD_SOCK_OFFLOAD ||
				cmd == TONIC_CMD_FLOW_SET || cmd == TONIC_CMD_TENANT_NEW ||
				cmd == TONIC_CMD_TENANT_DEL || cmd == TONIC_CMD_DEV_SET) &&
	    err != -EPERM && err != -EINVAL && err != -EOPNOTSUPP) {
		/* Malformed headers may be refused before the permission check. */
		printf("# unprivileged cmd %u got %d, not EPERM\n", cmd, err);
		eperm_bad++;
	}
	if (unpriv && err == 0 && (cmd == TONIC_CMD_DEFAULTS_SET || cmd == TONIC_CMD_FLOW_SET ||
				   cmd == TONIC_CMD_TENANT_NEW || cmd == TONIC_CMD_TENANT_DEL ||
				   cmd == TONIC_CMD_DEV_SET) &&
	    !dump) {
		printf("# unprivileged cmd %u succeeded\n", cmd);
		eperm_bad++;
	}
}

int main(int argc, char **argv)
{
	unsigned long count = 5000, i;
	char before[512], after[512];
	int fd, opt, lb, la, e;
	bool unpriv = false;

	rng = 0x9e3779b97f4a7c15ull;
	while ((opt = getopt(argc, argv, "n:s:u")) != -1) {
		if (opt == 'n')
			count = strtoul(optarg, NULL, 0);
		else if (opt == 's')
			rng ^= strtoull(optarg, NULL, 0) * 0x2545f4914f6cdd1dull;
		else if (opt == 'u')
			unpriv = true;
		else
			return 2;
	}
	if (!rng)
		rng = 1;
	fd = nl_open();
	fam = resolve(fd);
	if (fam < 0) {
		fprintf(stderr, "tonic_nlfuzz: family \"tonic\" not found\n");
		return 1;
	}
	lb = get_defaults(before, sizeof(before));
	for (i = 0; i < count; i++) {
		one(fd, unpriv);
		if (rnd() % 64 == 0 || bad) {
			close(fd);	/* also abandons dumps in progress */
			fd = nl_open();
		}
		if (bad > 10)
			break;
	}
	la = get_defaults(after, sizeof(after));
	printf("# sent %lu, answered %lu (%lu ok)", sent, acked, oks);
	for (e = 1; e < 4096; e++)
		if (errors_seen[e])
			printf(", %s %lu", strerror(e), errors_seen[e]);
	printf("\n");
	if (unpriv && (lb != la || lb < 0 || memcmp(before, after, lb))) {
		printf("# defaults changed by an unprivileged user\n");
		eperm_bad++;
	}
	close(fd);
	return bad || eperm_bad ? 1 : 0;
}
