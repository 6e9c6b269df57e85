// SPDX-License-Identifier: GPL-2.0
/*
 * SOL_TONIC socket options: offload on/off, program, C, T, and per-socket
 * information.  Other levels go to the kernel's TCP.  Program and C apply
 * at the next attach: immediately when nothing is queued (the flow is
 * re-added), otherwise -EBUSY.
 */
#include <linux/uaccess.h>
#include <net/tcp.h>
#include "glue.h"
#include "../driver/registry.h"

static int tonic_reattach(struct sock *sk, struct tonic_sk *ctx)
{
	if (!ctx->attached)
		return 0;
	if (!tonic_drained(ctx))
		return -EBUSY;
	tonic_detach(sk, ctx);
	ctx->state = TONIC_SK_PENDING;	/* attaches again at the next send */
	return 0;
}

static int tonic_do_setsockopt(struct sock *sk, struct tonic_sk *ctx, int optname,
			       sockptr_t optval, unsigned int optlen)
{
	const struct tonic_prog_ops *prog, *old;
	char name[16];
	int val, err;

	if (optname == TONIC_PROGRAM) {
		if (optlen < 1)
			return -EINVAL;
		memset(name, 0, sizeof(name));
		if (copy_from_sockptr(name, optval, min_t(unsigned int, optlen, sizeof(name) - 1)))
			return -EFAULT;
		prog = tonic_program_get(name);
		if (!prog)
			return -ENOENT;
		err = tonic_reattach(sk, ctx);
		if (!err) {
			old = ctx->prog;
			WRITE_ONCE(ctx->prog, prog);
			prog = old;
		}
		/* The one the socket no longer uses, or the new one on error. */
		tonic_program_put(prog);
		return err;
	}
	if (optlen < sizeof(int))
		return -EINVAL;
	if (copy_from_sockptr(&val, optval, sizeof(val)))
		return -EFAULT;
	switch (optname) {
	case TONIC_OFFLOAD:
		return tonic_set_offload(sk, ctx, val != 0);
	case TONIC_SEG_SIZE:
		if (val < 0 || val > 60000)
			return -EINVAL;
		err = tonic_reattach(sk, ctx);
		if (!err)
			ctx->cfg_seg = val;
		return err;
	case TONIC_SUB_DELAY:
		if (val < 0 || val > 10 * USEC_PER_SEC)
			return -EINVAL;
		ctx->sub_delay_us = val;
		return 0;
	default:
		return -ENOPROTOOPT;
	}
}

int tonic_setsockopt(struct sock *sk, int level, int optname, sockptr_t optval,
		     unsigned int optlen)
{
	struct tonic_sk *ctx = tonic_sk(sk);
	int err;

	if (level != SOL_TONIC || !ctx) {
		/*
		 * Repair mode (CRIU) reads and rebuilds TCP's own queues: they
		 * must hold every byte first, and the socket stays TCP's.
		 */
		if (ctx && level == SOL_TCP && optname == TCP_REPAIR) {
			lock_sock(sk);
			if (ctx->attached || ctx->state != TONIC_SK_FALLBACK) {
				ctx->want = false;
				TONIC_INC(fallback_repair);
				tonic_handback(sk, ctx, TONIC_SK_FALLBACK);
			}
			release_sock(sk);
		}
		err = tcp_setsockopt(sk, level, optname, optval, optlen);
		/* A new congestion control is the socket's own; ours stands in again. */
		if (ctx && level == SOL_TCP && optname == TCP_CONGESTION) {
			lock_sock(sk);
			if (ctx->attached && inet_csk(sk)->icsk_ca_ops != &tonic_ca_ops)
				tonic_ca_take(sk, ctx);
			release_sock(sk);
		}
		return err;
	}
	lock_sock(sk);
	err = tonic_do_setsockopt(sk, ctx, optname, optval, optlen);
	release_sock(sk);
	return err;
}

void tonic_fill_info(struct sock *sk, struct tonic_sk *ctx, struct tonic_sock_info *info)
{
	struct tonic_flow_stats st;

	memset(info, 0, sizeof(*info));
	info->state = ctx->state;
	info->flow_id = ctx->attached ? ctx->flow : ~0U;
	info->seg_size = ctx->seg;
	info->sub_delay_us = ctx->sub_delay_us;
	if (ctx->prog)
		strscpy(info->program, ctx->prog->name, sizeof(info->program));
	info->bytes_queued = ctx->bytes_queued;
	info->bytes_acked = ctx->bytes_acked;
	info->segs_sent = ctx->segs_sent;
	info->segs_rtx = ctx->segs_rtx;
	info->attaches = ctx->attaches;
	if (ctx->attached && !ctx->dev->ops->flow_stats(ctx->dev, ctx->flow, &st)) {
		info->cwnd = st.cwnd;
		info->timeouts = st.timeouts;
	}
}

int tonic_getsockopt(struct sock *sk, int level, int optname, char __user *optval,
		     int __user *optlen)
{
	struct tonic_sk *ctx = tonic_sk(sk);
	struct tonic_sock_info info;
	int len, val;

	if (ctx && level == SOL_TCP && optname == TCP_CONGESTION) {
		char name[TCP_CA_NAME_MAX] = "";

		/* The application sees its own congestion control, not our stand-in. */
		lock_sock(sk);
		if (ctx->orig_ca)
			strscpy(name, ctx->orig_ca->name, sizeof(name));
		release_sock(sk);
		if (name[0]) {
			if (get_user(len, optlen))
				return -EFAULT;
			len = min_t(unsigned int, max(len, 0), TCP_CA_NAME_MAX);
			if (put_user(len, optlen) || copy_to_user(optval, name, len))
				return -EFAULT;
			return 0;
		}
	}
	if (level != SOL_TONIC || !ctx)
		return tcp_getsockopt(sk, level, optname, optval, optlen);
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	lock_sock(sk);
	switch (optname) {
	case TONIC_INFO:
		tonic_fill_info(sk, ctx, &info);
		release_sock(sk);
		len = min_t(int, len, sizeof(info));
		if (copy_to_user(optval, &info, len))
			return -EFAULT;
		return put_user(len, optlen);
	case TONIC_PROGRAM: {
		char name[16] = {};

		if (ctx->prog)
			strscpy(name, ctx->prog->name, sizeof(name));
		release_sock(sk);
		len = min_t(int, len, sizeof(name));
		if (copy_to_user(optval, name, len))
			return -EFAULT;
		return put_user(len, optlen);
	}
	case TONIC_OFFLOAD:
		val = ctx->want;
		break;
	case TONIC_SEG_SIZE:
		val = ctx->attached ? ctx->seg : ctx->cfg_seg;
		break;
	case TONIC_SUB_DELAY:
		val = ctx->sub_delay_us;
		break;
	default:
		release_sock(sk);
		return -ENOPROTOOPT;
	}
	release_sock(sk);
	if (len < (int)sizeof(int))
		return -EINVAL;
	len = sizeof(int);
	if (copy_to_user(optval, &val, len))
		return -EFAULT;
	return put_user(len, optlen);
}
