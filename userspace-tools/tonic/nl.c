// SPDX-License-Identifier: GPL-2.0
/*
 * libnl-genl-3 plumbing: resolve the family, send one request, collect the
 * replies, turn an error into errno plus the kernel's extack message.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include "tonic.h"

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

static struct nl_sock *sk;
static int family;
static char errmsg[256];
static struct nlmsghdr *cur;

struct nlmsghdr *tn_cur_msg(void)
{
	return cur;
}

struct req_state {
	int err;
	bool done;
	int maxattr;
	tn_reply_fn reply;
	void *arg;
};

const char *tn_errmsg(void)
{
	return errmsg;
}

static int tn_open(void)
{
	int one = 1;

	sk = nl_socket_alloc();
	if (!sk)
		return -ENOMEM;
	if (genl_connect(sk)) {
		nl_socket_free(sk);
		sk = NULL;
		return -ECONNREFUSED;
	}
	setsockopt(nl_socket_get_fd(sk), SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	nl_socket_set_buffer_size(sk, 1 << 20, 1 << 20);
	family = genl_ctrl_resolve(sk, TONIC_GENL_NAME);
	if (family < 0) {
		nl_socket_free(sk);
		sk = NULL;
		return -ENOENT;
	}
	return 0;
}

/*
 * The socket is opened by the first request, after the command line is
 * parsed: usage errors and help need no module.  Without the family there
 * is nothing to do: say so and exit 1, dropping any output begun.
 */
static void ensure_open(void)
{
	int err;

	if (sk)
		return;
	err = tn_open();
	if (err == -ENOENT)
		fprintf(stderr, "tonic: the generic netlink family \"%s\" is not registered "
			"(is the tonic module loaded? try: modprobe tonic)\n", TONIC_GENL_NAME);
	else if (err)
		fprintf(stderr, "tonic: cannot open a generic netlink socket: %s\n",
			strerror(-err));
	if (err)
		_exit(1);
}

void tn_close(void)
{
	if (sk)
		nl_socket_free(sk);
	sk = NULL;
}

void tn_default_errmsg(const char *msg)
{
	if (!errmsg[0])
		snprintf(errmsg, sizeof(errmsg), "%s", msg);
}

/* NLMSGERR_ATTR_MSG among the @len bytes of attributes at @a. */
static void extack_attrs(struct nlattr *a, int len)
{
	int rem;

	if (len <= 0)
		return;
	nla_for_each_attr(a, a, len, rem) {
		if (nla_type(a) == NLMSGERR_ATTR_MSG && nla_len(a) > 0) {
			snprintf(errmsg, sizeof(errmsg), "%.*s", nla_len(a), (char *)nla_data(a));
			break;
		}
	}
}

/* The extack message of an error reply, if the kernel sent one. */
static void extack_msg(struct nlmsgerr *e)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	int off;

	errmsg[0] = 0;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	off = sizeof(*e);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - NLMSG_HDRLEN;
	extack_attrs((struct nlattr *)((char *)e + off), (int)nlh->nlmsg_len - NLMSG_HDRLEN - off);
}

static int on_error(struct sockaddr_nl *nla, struct nlmsgerr *e, void *arg)
{
	struct req_state *st = arg;

	(void)nla;
	st->err = e->error;
	if (e->error)
		extack_msg(e);
	st->done = true;
	return NL_STOP;
}

/* The end of a dump (NLMSG_DONE, which carries the dump's error) or an ack. */
static int on_finish(struct nl_msg *msg, void *arg)
{
	struct req_state *st = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	int err;

	if (nlh->nlmsg_type == NLMSG_DONE && nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(err))) {
		memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
		if (err < 0) {
			st->err = err;
			errmsg[0] = 0;
			if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
				extack_attrs((struct nlattr *)((char *)NLMSG_DATA(nlh) +
							       NLMSG_ALIGN(sizeof(err))),
					     (int)nlh->nlmsg_len - NLMSG_LENGTH(NLMSG_ALIGN(sizeof(err))));
		}
	}
	st->done = true;
	return NL_STOP;
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct req_state *st = arg;
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct genlmsghdr *gh = nlmsg_data(nlh);
	struct nlattr *tb[st->maxattr + 1];

	if (nlh->nlmsg_type != family)
		return NL_SKIP;
	if (genlmsg_parse(nlh, 0, tb, st->maxattr, NULL))
		return NL_SKIP;
	cur = nlh;
	if (st->reply && st->reply(tb, gh->cmd, st->arg))
		return NL_STOP;
	return NL_OK;
}

int tn_request(const char *what, int cmd, bool dump, int maxattr, tn_build_fn build,
	       tn_reply_fn reply, void *arg)
{
	struct req_state st = { .maxattr = maxattr, .reply = reply, .arg = arg };
	struct nl_msg *msg;
	struct nl_cb *cb;
	int err;

	(void)what;
	ensure_open();
	errmsg[0] = 0;
	msg = nlmsg_alloc();
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!msg || !cb) {
		nlmsg_free(msg);
		nl_cb_put(cb);
		return -ENOMEM;
	}
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
			 NLM_F_ACK | (dump ? NLM_F_DUMP : 0), cmd, TONIC_GENL_VERSION)) {
		err = -ENOMEM;
		goto out;
	}
	if (build) {
		err = build(msg, arg);
		if (err)
			goto out;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &st);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, on_finish, &st);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, on_finish, &st);
	nl_cb_err(cb, NL_CB_CUSTOM, on_error, &st);
	err = nl_send_auto(sk, msg);
	if (err < 0) {
		err = -EIO;
		goto out;
	}
	err = 0;
	while (!st.done) {
		int r = nl_recvmsgs(sk, cb);

		if (r < 0 && !st.done) {
			err = r == -NLE_NOMEM ? -ENOMEM : -EIO;
			break;
		}
	}
	if (!err)
		err = st.err;
out:
	nlmsg_free(msg);
	nl_cb_put(cb);
	return err;
}

static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

int tn_listen(int maxattr, tn_reply_fn reply, void *arg)
{
	struct req_state st = { .maxattr = maxattr, .reply = reply, .arg = arg };
	struct nl_cb *cb;
	int grp, r;

	ensure_open();
	grp = genl_ctrl_resolve_grp(sk, TONIC_GENL_NAME, TONIC_MCGRP_EVENTS);
	if (grp < 0)
		return -ENOENT;
	if (nl_socket_add_membership(sk, grp))
		return -EIO;
	nl_socket_disable_seq_check(sk);
	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &st);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	for (;;) {
		r = nl_recvmsgs(sk, cb);
		if (r == -NLE_NOMEM) {
			fprintf(stderr, "tonic: monitor: events lost (receive buffer overrun)\n");
		} else if (r < 0 && r != -NLE_INTR && r != -NLE_AGAIN) {
			fprintf(stderr, "tonic: monitor: %s\n", nl_geterror(r));
			nl_cb_put(cb);
			return -EIO;
		}
	}
}

uint32_t tn_u32(struct nlattr *a)
{
	return a && nla_len(a) >= 4 ? nla_get_u32(a) : 0;
}

uint64_t tn_u64(struct nlattr *a)
{
	uint64_t v;

	if (!a || nla_len(a) < 8)
		return 0;
	memcpy(&v, nla_data(a), 8);
	return v;
}

uint16_t tn_u16(struct nlattr *a)
{
	return a && nla_len(a) >= 2 ? nla_get_u16(a) : 0;
}

uint8_t tn_u8(struct nlattr *a)
{
	return a && nla_len(a) >= 1 ? nla_get_u8(a) : 0;
}

const char *tn_str(struct nlattr *a)
{
	if (!a || nla_len(a) < 1 || ((char *)nla_data(a))[nla_len(a) - 1])
		return "";
	return nla_data(a);
}
