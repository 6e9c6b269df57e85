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
#include "../admin/admin.h"
#include "../driver/registry.h"

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
	tonic_program_put(ctx->prog);
	xa_destroy(&ctx->pages);
	tonic_ring_free(ctx);
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
	tonic_tx_init(ctx);
	tonic_defaults_get(sock_net(sk), &d);
	/* The default's module may have gone since it was chosen. */
	ctx->prog = tonic_program_get(d.program) ?: tonic_program_get(TONIC_DEFAULT_PROGRAM);
	ctx->cfg_seg = d.seg_size;
	ctx->sub_delay_us = d.sub_delay_us;
	ctx->want = true;
	ctx->state = TONIC_SK_PENDING;
	err = tonic_proto_install(sk, ctx);
	if (err) {
		tonic_program_put(ctx->prog);
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
	/* One that fires meanwhile finds ctx dead (tonic_flow_poke()). */
	tonic_timer_cancel(ctx, &ctx->ttimer);
	tonic_timer_cancel(ctx, &ctx->qtimer);
	tonic_proto_restore(sk, ctx);
	rcu_assign_pointer(icsk->icsk_ulp_data, NULL);
	tonic_sk_put(ctx);
}

/*
 * sock_diag: our nest in INET_DIAG_ULP_INFO (uapi TONIC_ULP_INFO).  The
 * ULP stays installed after a handback (the socket may be offloaded
 * again, by the application or the admin), so inet_diag keeps naming it
 * ("tcp-ulp-tonic" in ss); the state says whether the device sends.  The
 * device's figures come only while the flow is attached: under ctx->lock,
 * which the handback takes to unpublish the flow before removing it.
 */
static int tonic_ulp_get_info(struct sock *sk, struct sk_buff *skb)
{
	const struct tonic_prog_ops *prog;
	struct tonic_flow_stats st;
	struct tonic_sk *ctx;
	struct nlattr *nest;
	bool attached;
	int err = 0;

	/* inet_diag calls us without RCU held (kTLS's get_info takes it too). */
	rcu_read_lock();
	ctx = rcu_dereference(inet_csk(sk)->icsk_ulp_data);
	if (!ctx)
		goto out;
	prog = READ_ONCE(ctx->prog);
	nest = nla_nest_start_noflag(skb, TONIC_ULP_INFO);
	if (!nest) {
		err = -EMSGSIZE;
		goto out;
	}
	if (nla_put_u32(skb, TONIC_ULP_INFO_STATE, READ_ONCE(ctx->state)) ||
	    nla_put_u32(skb, TONIC_ULP_INFO_SEG_SIZE, READ_ONCE(ctx->seg)) ||
	    nla_put_string(skb, TONIC_ULP_INFO_PROGRAM, prog ? prog->name : "") ||
	    nla_put_u32(skb, TONIC_ULP_INFO_SUB_DELAY_US, READ_ONCE(ctx->sub_delay_us)) ||
	    nla_put_u64_64bit(skb, TONIC_ULP_INFO_BYTES_QUEUED, READ_ONCE(ctx->bytes_queued),
			      TONIC_ULP_INFO_PAD) ||
	    nla_put_u64_64bit(skb, TONIC_ULP_INFO_BYTES_ACKED, READ_ONCE(ctx->bytes_acked),
			      TONIC_ULP_INFO_PAD) ||
	    nla_put_u64_64bit(skb, TONIC_ULP_INFO_SEGS_SENT, READ_ONCE(ctx->segs_sent),
			      TONIC_ULP_INFO_PAD) ||
	    nla_put_u64_64bit(skb, TONIC_ULP_INFO_SEGS_RTX, READ_ONCE(ctx->segs_rtx),
			      TONIC_ULP_INFO_PAD) ||
	    nla_put_u32(skb, TONIC_ULP_INFO_ATTACHES, READ_ONCE(ctx->attaches)))
		goto cancel;
	spin_lock_bh(&ctx->lock);
	attached = ctx->attached && !ctx->dev->ops->flow_stats(ctx->dev, ctx->flow, &st);
	if (attached &&
	    (nla_put_u32(skb, TONIC_ULP_INFO_FLOW, ctx->flow) ||
	     nla_put_string(skb, TONIC_ULP_INFO_DEV, ctx->dev->name) ||
	     nla_put_u32(skb, TONIC_ULP_INFO_CWND, st.cwnd) ||
	     nla_put_u32(skb, TONIC_ULP_INFO_RATE_KBPS, st.rate_kbps) ||
	     nla_put_u64_64bit(skb, TONIC_ULP_INFO_TIMEOUTS, st.timeouts, TONIC_ULP_INFO_PAD))) {
		spin_unlock_bh(&ctx->lock);
		goto cancel;
	}
	spin_unlock_bh(&ctx->lock);
	nla_nest_end(skb, nest);
	goto out;
cancel:
	nla_nest_cancel(skb, nest);
	err = -EMSGSIZE;
out:
	rcu_read_unlock();
	return err;
}

static size_t tonic_ulp_get_info_size(const struct sock *sk)
{
	const struct tonic_prog_ops *prog;
	size_t dev = 0, name = 1;
	struct tonic_sk *ctx;

	rcu_read_lock();
	ctx = rcu_dereference(inet_csk(sk)->icsk_ulp_data);
	if (ctx && ctx->dev)
		dev = strlen(ctx->dev->name) + 1;
	prog = ctx ? READ_ONCE(ctx->prog) : NULL;
	if (prog)
		name = strlen(prog->name) + 1;
	rcu_read_unlock();
	return nla_total_size(0) +			/* the nest */
	       7 * nla_total_size(sizeof(u32)) +	/* state .. attaches */
	       5 * nla_total_size_64bit(sizeof(u64)) +
	       nla_total_size(name) +
	       nla_total_size(dev);
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
