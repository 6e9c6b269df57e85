// SPDX-License-Identifier: GPL-2.0
/*
 * How a socket becomes a Tonic socket: the TCP ULP "tonic" (per socket,
 * setsockopt(TCP_ULP, "tonic")) and the congestion control "tonic", whose
 * init() installs the same ULP for applications that know nothing about
 * Tonic (sysctl net.ipv4.tcp_congestion_control, `ip route ... congctl`,
 * BPF sock_ops TCP_CONGESTION).  Installing only swaps sk_prot and
 * allocates the per-socket state; the flow is added to the device at the
 * first send on an established connection (see detach.c: tonic_attach).
 *
 * The congestion control is NewReno for whatever the kernel itself sends
 * (before attach, after toggle-off, or when the device is full).  While a
 * flow is attached it also stands in for any other socket's congestion
 * control, because its in_ack_event is where accepted ACKs reach the
 * device (ack.c).
 */
#include <linux/module.h>
#include <net/tcp.h>
#include "glue.h"
#include "../driver/admin.h"

struct tonic_glue_stats tonic_gstats;

static void tonic_sk_free_rcu(struct rcu_head *h)
{
	kfree(container_of(h, struct tonic_sk, rcu));
}

void tonic_sk_put(struct tonic_sk *ctx)
{
	if (!refcount_dec_and_test(&ctx->ref))
		return;
	WARN_ON_ONCE(ctx->attached);
	xa_destroy(&ctx->pages);
	kvfree(ctx->ring);
	call_rcu(&ctx->rcu, tonic_sk_free_rcu);
}

int tonic_sk_install(struct sock *sk, gfp_t gfp)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tonic_defaults d;
	struct tonic_sk *ctx;
	int err;

	if (!tonic_dev_default())
		return -ENODEV;
	/* CRIU's repair mode and in-kernel users (NFS, iSCSI) stay on TCP. */
	if (tcp_sk(sk)->repair || sk->sk_kern_sock) {
		TONIC_INC(fallback_repair);
		return -EOPNOTSUPP;
	}
	ctx = kzalloc(sizeof(*ctx), gfp);
	if (!ctx)
		return -ENOMEM;
	refcount_set(&ctx->ref, 1);
	ctx->sk = sk;
	ctx->dev = tonic_dev_default();
	/*
	 * BH-safe: the pages are freed under the socket's spinlock too
	 * (destruction from a TCP timer, a reset), which softirqs take.
	 */
	xa_init_flags(&ctx->pages, XA_FLAGS_LOCK_BH);
	spin_lock_init(&ctx->lock);
	spin_lock_init(&ctx->qlock);
	INIT_WORK(&ctx->work, tonic_flow_work);
	tonic_carve_init(ctx);
	tonic_defaults_get(sock_net(sk), &d);
	ctx->prog = tonic_prog_find(d.program);
	if (!ctx->prog)
		ctx->prog = tonic_prog_find(TONIC_DEFAULT_PROGRAM);
	ctx->cfg_seg = d.seg_size;
	ctx->sub_delay_us = d.sub_delay_us;
	ctx->want = true;
	ctx->state = TONIC_SK_PENDING;
	err = tonic_proto_install(sk, ctx);
	if (err) {
		kfree(ctx);
		return err;
	}
	rcu_assign_pointer(icsk->icsk_ulp_data, ctx);
	TONIC_INC(installs);
	return 0;
}

static int tonic_ulp_init(struct sock *sk)
{
	if (sk->sk_state == TCP_LISTEN)
		return -EINVAL;
	return tonic_sk_install(sk, GFP_KERNEL);
}

/* Socket destruction (tcp_v4_destroy_sock); may run in softirq. */
static void tonic_ulp_release(struct sock *sk)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tonic_sk *ctx = rcu_dereference_protected(icsk->icsk_ulp_data, 1);

	if (!ctx)
		return;
	ctx->dead = true;
	tonic_detach(sk, ctx);
	hrtimer_cancel(&ctx->ttimer);
	tonic_proto_restore(sk, ctx);
	rcu_assign_pointer(icsk->icsk_ulp_data, NULL);
	tonic_sk_put(ctx);
}

#define TONIC_DIAG_ATTR	16	/* our nest inside INET_DIAG_ULP_INFO (ss ignores it) */

static int tonic_ulp_get_info(struct sock *sk, struct sk_buff *skb)
{
	struct tonic_sk *ctx;
	struct nlattr *nest;
	int err = 0;

	/* inet_diag calls us without RCU held (kTLS's get_info takes it too). */
	rcu_read_lock();
	ctx = rcu_dereference(inet_csk(sk)->icsk_ulp_data);
	if (!ctx)
		goto out;
	nest = nla_nest_start_noflag(skb, TONIC_DIAG_ATTR);
	if (!nest) {
		err = -EMSGSIZE;
		goto out;
	}
	if (nla_put_u32(skb, 1, READ_ONCE(ctx->state)) ||
	    nla_put_u32(skb, 2, READ_ONCE(ctx->flow)) ||
	    nla_put_u32(skb, 3, READ_ONCE(ctx->seg)) ||
	    nla_put_string(skb, 4, ctx->prog ? ctx->prog->name : "")) {
		nla_nest_cancel(skb, nest);
		err = -EMSGSIZE;
		goto out;
	}
	nla_nest_end(skb, nest);
out:
	rcu_read_unlock();
	return err;
}

static size_t tonic_ulp_get_info_size(const struct sock *sk)
{
	return nla_total_size(0) + 3 * nla_total_size(sizeof(u32)) + nla_total_size(16);
}

struct tcp_ulp_ops tonic_ulp_ops = {
	.name		= TONIC_ULP_NAME,
	.owner		= THIS_MODULE,
	.init		= tonic_ulp_init,
	.release	= tonic_ulp_release,
	.get_info	= tonic_ulp_get_info,
	.get_info_size	= tonic_ulp_get_info_size,
};

/*
 * Congestion control "tonic": init() runs when the connection becomes
 * established (tcp_init_transfer, possibly in softirq) or when the
 * application/admin switches an established socket to it.
 */
static void tonic_ca_init(struct sock *sk)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	int err;

	if (!((1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_SYN_RECV | TCPF_CLOSE_WAIT)))
		return;
	if (icsk->icsk_ulp_ops == &tonic_ulp_ops)
		return;
	if (icsk->icsk_ulp_ops) {	/* kTLS, MPTCP, ...: leave it alone */
		TONIC_INC(fallback_other);
		return;
	}
	if (!try_module_get(THIS_MODULE))
		return;
	err = tonic_sk_install(sk, GFP_ATOMIC);
	if (err) {
		module_put(THIS_MODULE);
		if (err != -EOPNOTSUPP)	/* counted as fallback_repair already */
			TONIC_INC(fallback_other);
		return;
	}
	/* tcp_cleanup_ulp() calls our release and drops the module reference. */
	WRITE_ONCE(icsk->icsk_ulp_ops, &tonic_ulp_ops);
}

/*
 * The socket dies (or changes its congestion control) while ours stands in
 * for its own: put its own back for tcp_cleanup_congestion_control() to
 * release (it reads icsk_ca_ops again after this, and knows how to put a
 * BPF one), and drop the reference tonic_ca_take() took on us.
 */
static void tonic_ca_release(struct sock *sk)
{
	struct tonic_sk *ctx = tonic_sk(sk);
	const struct tcp_congestion_ops *orig = ctx ? ctx->orig_ca : NULL;

	if (!orig)
		return;
	ctx->orig_ca = NULL;
	inet_csk(sk)->icsk_ca_ops = orig;
	if (orig->release)
		orig->release(sk);
	module_put(THIS_MODULE);
}

/*
 * Not TCP_CONG_NON_RESTRICTED: an unprivileged socket may pick "tonic" only
 * when net.ipv4.tcp_allowed_congestion_control lists it.
 */
struct tcp_congestion_ops tonic_ca_ops = {
	.name		= TONIC_CA_NAME,
	.owner		= THIS_MODULE,
	.init		= tonic_ca_init,
	.release	= tonic_ca_release,
	.in_ack_event	= tonic_ack_commit,
	.ssthresh	= tcp_reno_ssthresh,
	.cong_avoid	= tcp_reno_cong_avoid,
	.undo_cwnd	= tcp_reno_undo_cwnd,
};

int tonic_ulp_register(void)
{
	int err;

	err = tcp_register_ulp(&tonic_ulp_ops);
	if (err)
		return err;
	err = tcp_register_congestion_control(&tonic_ca_ops);
	if (err)
		tcp_unregister_ulp(&tonic_ulp_ops);
	return err;
}

void tonic_ulp_unregister(void)
{
	tcp_unregister_congestion_control(&tonic_ca_ops);
	tcp_unregister_ulp(&tonic_ulp_ops);
}
