// SPDX-License-Identifier: GPL-2.0
/*
 * Per-family copies of the TCP proto with the send path overridden, as
 * net/tls/tls_main.c does: sendmsg, sendpage, splice_eof, shutdown, close,
 * disconnect, setsockopt, getsockopt, and release_cb (what the flow's
 * timers left for the socket's owner, tonic_flow_poke()).  Everything
 * else is the kernel's TCP.
 * tcpv6_prot is not exported, so the IPv6 copy is built from the first
 * IPv6 socket that asks (any proto named "TCPv6").
 */
#include <linux/module.h>
#include <linux/uio.h>
#include <linux/bvec.h>
#include <net/tcp.h>
#include "glue.h"

enum { TONIC_PROT_V4, TONIC_PROT_V6, TONIC_PROT_NUM };

static struct proto tonic_prots[TONIC_PROT_NUM];
static const struct proto *tonic_prot_base[TONIC_PROT_NUM];
static DEFINE_SPINLOCK(tonic_prot_lock);

/*
 * Decide, under lock_sock, whether this send goes to the Tonic flow (1) or
 * to the kernel's TCP (0), attaching or handing back on the way.
 */
static int tonic_route_send(struct sock *sk, struct tonic_sk *ctx, int flags, long *timeo)
{
	if (flags & (MSG_OOB | MSG_ZEROCOPY | MSG_FASTOPEN)) {
		/* Urgent data or zerocopy: TCP's, and so is the socket from now on. */
		if (ctx->attached || ctx->state != TONIC_SK_FALLBACK) {
			TONIC_INC(fallback_urg);
			ctx->want = false;
			tonic_handback(sk, ctx, TONIC_SK_FALLBACK);
		}
		return 0;
	}
	if (ctx->attached)
		return 1;
	if (!ctx->want || ctx->state == TONIC_SK_FALLBACK || ctx->dead)
		return 0;
	if (!((1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT)) ||
	    (sk->sk_shutdown & SEND_SHUTDOWN) || sk->sk_err)
		return 0;
	if (!tcp_rtx_and_write_queues_empty(sk)) {
		/*
		 * The kernel still has bytes of its own: let them drain first.
		 * A non-blocking sender is told to come back (EAGAIN, woken by
		 * the acks that drain the queue, as when TCP's buffer is full);
		 * feeding TCP instead would keep its queue busy for ever.
		 */
		if (!*timeo) {
			if (sk->sk_socket)
				set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
			return -EAGAIN;
		}
		if (tonic_wait_kernel_idle(sk, *timeo))
			return 0;
	}
	return tonic_attach(sk, ctx) == 0;
}

/*
 * The bytes go to the flow while it is attached; if it leaves the device
 * meanwhile (an admin's toggle while the sender waited for memory), the
 * rest goes to TCP, after the bytes handed back with the flow.
 */
static int tonic_send(struct sock *sk, struct tonic_sk *ctx, struct msghdr *msg, size_t size)
{
	long timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	int ret, more;

	ret = tonic_route_send(sk, ctx, msg->msg_flags, &timeo);
	if (ret <= 0)
		return ret ? ret : tcp_sendmsg_locked(sk, msg, size);
	ret = tonic_sbuf_append(sk, ctx, &msg->msg_iter, size, msg->msg_flags, &timeo);
	if (ret < 0 || ret == size || ctx->attached)
		return ret;
	more = tcp_sendmsg_locked(sk, msg, size - ret);
	return more < 0 ? (ret ? ret : more) : ret + more;
}

static int tonic_sendmsg(struct sock *sk, struct msghdr *msg, size_t size)
{
	struct tonic_sk *ctx = tonic_sk(sk);
	int ret;

	lock_sock(sk);
	ret = ctx ? tonic_send(sk, ctx, msg, size) : tcp_sendmsg_locked(sk, msg, size);
	release_sock(sk);
	return ret;
}

static int tonic_sendpage(struct sock *sk, struct page *page, int offset, size_t size,
			  int flags)
{
	struct tonic_sk *ctx = tonic_sk(sk);
	struct bio_vec bvec = { .bv_page = page, .bv_offset = offset, .bv_len = size };
	/* As sendpage became sendmsg upstream: "not the last page" is MSG_MORE. */
	struct msghdr msg = {
		.msg_flags = flags | (flags & MSG_SENDPAGE_NOTLAST ? MSG_MORE : 0),
	};
	int ret;

	lock_sock(sk);
	if (!ctx) {
		ret = tcp_sendpage_locked(sk, page, offset, size, flags);
	} else {
		/* One path for both: sendmsg() with the page (TCP copies it too, then). */
		iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, &bvec, 1, size);
		ret = tonic_send(sk, ctx, &msg, size);
		if (ret > 0 && ctx->attached && !(flags & (MSG_MORE | MSG_SENDPAGE_NOTLAST)))
			tonic_carve(sk, ctx);
	}
	release_sock(sk);
	return ret;
}

/* splice() ran out of input: announce what is left.  TCP's own takes the lock itself. */
static void tonic_splice_eof(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct tonic_sk *ctx = tonic_sk(sk);
	bool ours = false;

	lock_sock(sk);
	if (ctx && ctx->attached) {
		tonic_carve(sk, ctx);
		ours = true;
	}
	release_sock(sk);
	if (!ours)
		tcp_splice_eof(sock);
}

/*
 * shutdown(SHUT_WR): the FIN follows the data.  Bytes the flow holds stay
 * on the device, which sends them (handing them back here would give TCP
 * whatever the device had not sent yet: the tail of every transfer, all
 * of a short one); once they are acked the flow's work hands the socket
 * back and TCP sends the FIN (tonic_return_bytes).  Until then the socket
 * is "draining": sends fail with EPIPE as TCP's do.
 */
static void tonic_shutdown(struct sock *sk, int how)
{
	struct tonic_sk *ctx = tonic_sk(sk);

	if (ctx && (how & SEND_SHUTDOWN)) {
		if (ctx->attached && !tonic_drained(ctx) &&
		    ((1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT))) {
			ctx->fin_pending = true;
			ctx->state = TONIC_SK_DRAINING;
			tonic_carve(sk, ctx);	/* nothing more comes: the last bytes now */
			return;
		}
		tonic_handback(sk, ctx, TONIC_SK_SOFTWARE);
	}
	tcp_shutdown(sk, how);
}

/*
 * close(): TCP takes the bytes back and closes as it always does -- the data
 * is still delivered by the orphan (tcp_orphan_retries, tcp_max_orphans,
 * memory pressure), then the FIN; SO_LINGER keeps its meaning.
 */
static void tonic_close(struct sock *sk, long timeout)
{
	struct tonic_sk *ctx = tonic_sk(sk);
	const struct proto *orig = ctx ? ctx->orig_prot : &tcp_prot;

	lock_sock(sk);
	if (ctx) {
		ctx->want = false;
		tonic_handback(sk, ctx, TONIC_SK_SOFTWARE);
		tonic_proto_restore(sk, ctx);
	}
	release_sock(sk);
	orig->close(sk, timeout);
}

/* connect(AF_UNSPEC) or a listener dropping an unaccepted child (softirq). */
static int tonic_disconnect(struct sock *sk, int flags)
{
	struct tonic_sk *ctx = tonic_sk(sk);

	if (ctx) {
		tonic_detach(sk, ctx);
		if (ctx->want)
			ctx->state = TONIC_SK_PENDING;
	}
	return tcp_disconnect(sk, flags);
}

static void tonic_build(struct proto *p, const struct proto *base)
{
	*p = *base;
	p->sendmsg = tonic_sendmsg;
	p->sendpage = tonic_sendpage;
	p->splice_eof = tonic_splice_eof;
	p->shutdown = tonic_shutdown;
	p->close = tonic_close;
	p->disconnect = tonic_disconnect;
	p->release_cb = tonic_release_cb;
	p->setsockopt = tonic_setsockopt;
	p->getsockopt = tonic_getsockopt;
}

int tonic_proto_install(struct sock *sk, struct tonic_sk *ctx)
{
	struct proto *base = READ_ONCE(sk->sk_prot);
	struct proto *p = NULL;
	int i;

	if (base == &tcp_prot)
		i = TONIC_PROT_V4;
	else if (!strcmp(base->name, "TCPv6") && base->sendmsg == tcp_sendmsg)
		i = TONIC_PROT_V6;
	else
		return -EOPNOTSUPP;	/* sockmap, MPTCP, another ULP's proto */
	spin_lock_bh(&tonic_prot_lock);
	if (!tonic_prot_base[i]) {
		tonic_build(&tonic_prots[i], base);
		tonic_prot_base[i] = base;
	}
	if (tonic_prot_base[i] == base)
		p = &tonic_prots[i];
	spin_unlock_bh(&tonic_prot_lock);
	if (!p)
		return -EOPNOTSUPP;
	ctx->orig_prot = base;
	WRITE_ONCE(sk->sk_prot, p);
	return 0;
}

void tonic_proto_restore(struct sock *sk, struct tonic_sk *ctx)
{
	if (ctx->orig_prot)
		WRITE_ONCE(sk->sk_prot, ctx->orig_prot);
}
