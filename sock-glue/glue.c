// SPDX-License-Identifier: GPL-2.0
/*
 * sock-glue registration and its admin hooks.
 *
 * tonic_glue_init() / tonic_glue_exit(): the per-flow workqueue, first in
 * and last out of the module.  tonic_glue_register(): the ACK tap, the ULP
 * and congestion control "tonic", the admin hooks (struct tonic_sock_ops:
 * toggle one socket found by its 4-tuple over netlink, the counters) and
 * the debugfs files.  Unregistering happens at module exit only, when no
 * socket holds a reference on the module any more.
 */
#include <linux/module.h>
#include <linux/workqueue.h>
#include <linux/cgroup.h>
#include <net/tcp.h>
#include <net/ipv6.h>
#include "glue.h"
#include "../admin/admin.h"

struct workqueue_struct *tonic_flow_wq;

/* The flow's description for the netlink flow dump (device lock held, BH off). */
static int tonic_client_info(void *priv, struct tonic_flow_info *fi)
{
	struct tonic_sk *ctx = priv;
	struct sock *sk = ctx->sk;
	const struct tonic_prog_ops *prog = READ_ONCE(ctx->prog);

	fi->net = sock_net(sk);
	fi->family = sk->sk_family;
	fi->sport = inet_sk(sk)->inet_sport;
	fi->dport = sk->sk_dport;
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6 && !ipv6_addr_v4mapped(&sk->sk_v6_daddr)) {
		fi->saddr6 = sk->sk_v6_rcv_saddr;
		fi->daddr6 = sk->sk_v6_daddr;
	} else
#endif
	{
		fi->family = AF_INET;
		fi->saddr4 = sk->sk_rcv_saddr;
		fi->daddr4 = sk->sk_daddr;
	}
	if (prog)
		strscpy(fi->program, prog->name, sizeof(fi->program));
	fi->seg_size = READ_ONCE(ctx->seg);
	fi->sub_delay_us = READ_ONCE(ctx->sub_delay_us);
	fi->state = READ_ONCE(ctx->state);
	fi->uid = sk->sk_uid;
#ifdef CONFIG_SOCK_CGROUP_DATA
	fi->cgroup = sock_cgroup_ptr(&sk->sk_cgrp_data);
#endif
	return 0;
}

/*
 * Under lock_sock: give an established socket of any application the ULP,
 * as the congestion control's init() does; it attaches at its next send.
 */
static int tonic_sk_adopt(struct sock *sk, gfp_t gfp, struct netlink_ext_ack *extack)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	int err;

	if (sk->sk_state != TCP_ESTABLISHED && sk->sk_state != TCP_CLOSE_WAIT) {
		NL_SET_ERR_MSG(extack, "the connection is not established");
		return -ENOTCONN;
	}
	if (icsk->icsk_ulp_ops) {
		NL_SET_ERR_MSG(extack, "the socket already has another ULP (kTLS, MPTCP, ...)");
		return -EBUSY;
	}
	if (!try_module_get(THIS_MODULE))
		return -ENODEV;
	err = tonic_sk_install(sk, gfp);
	if (err) {
		module_put(THIS_MODULE);
		NL_SET_ERR_MSG(extack, "this socket cannot be offloaded");
		return err;
	}
	/* tcp_cleanup_ulp() drops the module reference. */
	WRITE_ONCE(icsk->icsk_ulp_ops, &tonic_ulp_ops);
	return 0;
}

/*
 * Netlink TONIC_CMD_SOCK_OFFLOAD: an established socket of any application.
 * On: adopt it.  Off: TCP takes the socket and its unacked bytes at once
 * (nothing waits for the peer under genl_mutex).
 */
static int tonic_sock_ops_offload(struct sock *sk, bool on, struct netlink_ext_ack *extack)
{
	struct tonic_sk *ctx;
	int err = 0;

	lock_sock(sk);
	ctx = tonic_sk(sk);
	if (!ctx && on) {
		err = tonic_sk_adopt(sk, GFP_KERNEL, extack);
	} else if (ctx) {
		err = tonic_set_offload(sk, ctx, on);
		if (err)
			NL_SET_ERR_MSG(extack, "toggling the socket failed");
	}
	release_sock(sk);
	return err;
}

/*
 * net.tonic.auto_offload: the ACK tap sees a packet of an established TCP
 * socket without a ULP in a namespace that asks for it; a work item adopts
 * the socket under its lock.  Duplicates (packets before the work ran)
 * find the ULP installed and do nothing; at most TONIC_ADOPT_MAX wait.
 */
#define TONIC_ADOPT_MAX	1024

struct tonic_adopt {
	struct work_struct work;
	struct sock *sk;
};

static atomic_t tonic_adopt_pending = ATOMIC_INIT(0);

static void tonic_adopt_work(struct work_struct *w)
{
	struct tonic_adopt *a = container_of(w, struct tonic_adopt, work);
	struct sock *sk = a->sk;

	lock_sock(sk);
	if (tonic_defaults_auto_offload(sock_net(sk)) && !sock_flag(sk, SOCK_DEAD) &&
	    !inet_csk(sk)->icsk_ulp_ops && tonic_dev_default() &&
	    !tonic_sk_adopt(sk, GFP_KERNEL, NULL))
		TONIC_INC(auto_adopted);
	release_sock(sk);
	sock_put(sk);
	kfree(a);
	atomic_dec(&tonic_adopt_pending);
}

/* Softirq, from the ACK tap: @sk is a full TCP socket (early demux or lookup). */
void tonic_auto_offload(struct sock *sk)
{
	struct tonic_adopt *a;

	/*
	 * Not kernel sockets (NFS, iSCSI, ...), and only a plain TCP proto: a
	 * socket whose proto someone else replaced (sockmap) could never be
	 * adopted and would be tried again at every packet.
	 */
	if (READ_ONCE(sk->sk_state) != TCP_ESTABLISHED || sk->sk_kern_sock ||
	    READ_ONCE(inet_csk(sk)->icsk_ulp_ops) || sock_flag(sk, SOCK_DEAD) ||
	    READ_ONCE(sk->sk_prot)->sendmsg != tcp_sendmsg ||
	    !tonic_defaults_auto_offload(sock_net(sk)))
		return;
	if (atomic_inc_return(&tonic_adopt_pending) > TONIC_ADOPT_MAX)
		goto out;
	a = kmalloc(sizeof(*a), GFP_ATOMIC);
	if (!a)
		goto out;
	INIT_WORK(&a->work, tonic_adopt_work);
	sock_hold(sk);
	a->sk = sk;
	queue_work(tonic_flow_wq, &a->work);
	return;
out:
	atomic_dec(&tonic_adopt_pending);
}

static void tonic_sock_ops_stats(const struct net *net, struct tonic_sock_stats *st)
{
	struct tonic_dev *dev = tonic_dev_default();

	st->offloaded = dev ? tonic_dev_flows_in_use(dev) : 0;
#define TONIC_SOCK_STAT_READ(name, NAME, doc)	st->name = atomic64_read(&tonic_gstats.name);
	TONIC_SOCK_COUNTERS(TONIC_SOCK_STAT_READ)
#undef TONIC_SOCK_STAT_READ
}

const struct tonic_flow_client tonic_client = {
	.desc = tonic_client_desc,
	.note = tonic_client_note,
	.info = tonic_client_info,
};

static const struct tonic_sock_ops tonic_glue_sock_ops = {
	.offload = tonic_sock_ops_offload,
	.stats = tonic_sock_ops_stats,
};

int tonic_glue_init(void)
{
	tonic_flow_wq = alloc_workqueue("tonic_flow", WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	return tonic_flow_wq ? 0 : -ENOMEM;
}

void tonic_glue_exit(void)
{
	destroy_workqueue(tonic_flow_wq);
}

int tonic_glue_register(void)
{
	int err;

	err = tonic_acktap_register();
	if (err)
		return err;
	err = tonic_ulp_register();
	if (err)
		goto err_tap;
	err = tonic_sock_ops_register(&tonic_glue_sock_ops);
	if (err)
		goto err_ulp;
	tonic_stats_init();
	return 0;
err_ulp:
	tonic_ulp_unregister();
err_tap:
	tonic_acktap_unregister();
	return err;
}

void tonic_glue_unregister(void)
{
	tonic_stats_exit();
	tonic_sock_ops_unregister(&tonic_glue_sock_ops);
	tonic_ulp_unregister();
	tonic_acktap_unregister();
	/* No socket uses the module any more: flush what the last ones queued. */
	flush_workqueue(tonic_flow_wq);
	synchronize_rcu();	/* a timer of theirs that was firing (softirq) is done */
	rcu_barrier();
}
