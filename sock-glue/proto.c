// SPDX-License-Identifier: GPL-2.0
/*
 * Per-family copies of the TCP proto with the send path overridden, as
 * net/tls/tls_main.c does: sendmsg, sendpage, splice_eof, shutdown, close,
 * disconnect, setsockopt, getsockopt.  Everything else is the kernel's TCP.
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
 * Decide, under lock_sock, whether this send goes to the Tonic flow (true)
 * or to the kernel's TCP (false), attaching or draining on the way.
 */
static int tonic_route_send(struct sock *sk, struct tonic_sk *ctx, int flags, long *timeo)
{
	int err;

	if (flags & (MSG_OOB | MSG_ZEROCOPY | MSG_FASTOPEN)) {
		if (!ctx->attached)
			return 0;
		/* Urgent data or zerocopy: hand the socket back to TCP, counted. */
		err = tonic_wait_drained(sk, ctx, *timeo);
		if (err)
			return err;
		tonic_detach(sk, ctx);
		ctx->want = false;
		ctx->state = TONIC_SK_FALLBACK;
		TONIC_INC(fallback_urg);
		return 0;
	}
	if (ctx->attached) {
		if (ctx->want)
			return 1;
		/* Toggle-off in progress: finish it before TCP takes over. */
		err = tonic_wait_drained(sk, ctx, *timeo);
		if (err)
			return err;
		tonic_detach(sk, ctx);
		ctx->state = TONIC_SK_SOFTWARE;
		return 0;
	}
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

static int tonic_sendmsg(struct sock *sk, struct msghdr *msg, size_t size)
{
	struct tonic_sk *ctx = tonic_sk(sk);
	long timeo;
	int ret;

	lock_sock(sk);
	timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	ret = ctx ? tonic_route_send(sk, ctx, msg->msg_flags, &timeo) : 0;
	if (ret > 0)
		ret = tonic_sbuf_append(sk, ctx, &msg->msg_iter, size, &timeo);
	else if (ret == 0)
		ret = tcp_sendmsg_locked(sk, msg, size);
	release_sock(sk);
	return ret;
}

static int tonic_sendpage(struct sock *sk, struct page *page, int offset, size_t size,
			  int flags)
{
	struct tonic_sk *ctx = tonic_sk(sk);
	struct bio_vec bvec = { .bv_page = page, .bv_offset = offset, .bv_len = size };
	struct iov_iter it;
	long timeo;
	int ret;

	lock_sock(sk);
	timeo = sock_sndtimeo(sk, flags & MSG_DONTWAIT);
	ret = ctx ? tonic_route_send(sk, ctx, flags, &timeo) : 0;
	if (ret > 0) {
		iov_iter_bvec(&it, ITER_SOURCE, &bvec, 1, size);
		ret = tonic_sbuf_append(sk, ctx, &it, size, &timeo);
		if (ret > 0 && !(flags & (MSG_MORE | MSG_SENDPAGE_NOTLAST)))
			tonic_carve(sk, ctx);
	} else if (ret == 0) {
		ret = tcp_sendpage_locked(sk, page, offset, size, flags);
	}
	release_sock(sk);
	return ret;
}

static void tonic_splice_eof(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct tonic_sk *ctx = tonic_sk(sk);

	lock_sock(sk);
	if (ctx && ctx->attached)
		tonic_carve(sk, ctx);
	else if (ctx && ctx->orig_prot->splice_eof)
		ctx->orig_prot->splice_eof(sock);
	release_sock(sk);
}

/* shutdown(SHUT_WR): the FIN goes out once every offloaded byte is acked. */
static void tonic_shutdown(struct sock *sk, int how)
{
	struct tonic_sk *ctx = tonic_sk(sk);

	if (ctx && ctx->attached && (how & SEND_SHUTDOWN)) {
		if (!tonic_drained(ctx)) {
			ctx->fin_pending = true;
			tonic_carve(sk, ctx);
			return;
		}
		tonic_detach(sk, ctx);
		ctx->state = TONIC_SK_SOFTWARE;
	}
	tcp_shutdown(sk, how);
}

/* Under lock_sock: give the socket back to the kernel's TCP for good. */
static void tonic_close_locked(struct sock *sk, struct tonic_sk *ctx)
{
	if (ctx->attached) {
		if (!tonic_drained(ctx)) {
			/* Bytes that cannot be delivered any more: reset, never truncate silently. */
			if ((1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT))
				TONIC_INC(drain_timeouts);	/* not a reset peer */
			sock_set_flag(sk, SOCK_LINGER);
			sk->sk_lingertime = 0;
		}
		tonic_detach(sk, ctx);
	}
	ctx->want = false;
	ctx->fin_pending = false;
	ctx->close_pending = false;
	ctx->state = TONIC_SK_SOFTWARE;
	tonic_proto_restore(sk, ctx);
}

/*
 * close() with offloaded bytes in flight behaves like TCP's: it returns at
 * once, the data is still delivered, then the FIN goes.  The socket is
 * detached from its struct socket (which close() frees) but not marked
 * dead, so TCP never destroys it behind our back; the flow's work calls
 * tcp_close() when everything is acked (or after TONIC_DRAIN_MAX: reset).
 * The file's reference on the socket is handed to that tcp_close().
 * SO_LINGER with a time keeps TCP's meaning: close() waits, bounded.
 */
static void tonic_close(struct sock *sk, long timeout)
{
	struct tonic_sk *ctx = tonic_sk(sk);
	const struct proto *orig = ctx ? ctx->orig_prot : &tcp_prot;

	lock_sock(sk);
	if (ctx && ctx->attached && !tonic_drained(ctx) &&
	    (1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT) && !sk->sk_err &&
	    !(sock_flag(sk, SOCK_LINGER) && !sk->sk_lingertime) &&
	    skb_queue_empty(&sk->sk_receive_queue)) {
		if (sock_flag(sk, SOCK_LINGER)) {
			tonic_wait_drained(sk, ctx, timeout);
		} else {
			ctx->close_pending = true;
			ctx->fin_pending = false;
			ctx->close_deadline = jiffies + TONIC_DRAIN_MAX;
			write_lock_bh(&sk->sk_callback_lock);
			sk_set_socket(sk, NULL);
			RCU_INIT_POINTER(sk->sk_wq, NULL);
			write_unlock_bh(&sk->sk_callback_lock);
			TONIC_INC(closes_deferred);
			tonic_flow_kick(ctx);
			release_sock(sk);
			return;
		}
	}
	if (ctx)
		tonic_close_locked(sk, ctx);
	release_sock(sk);
	orig->close(sk, timeout);
}

/* From the flow's work (process context, a socket reference held): the deferred close. */
void tonic_close_finish(struct sock *sk, struct tonic_sk *ctx)
{
	const struct proto *orig = ctx->orig_prot;

	lock_sock(sk);
	tonic_close_locked(sk, ctx);
	release_sock(sk);
	orig->close(sk, 0);
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
