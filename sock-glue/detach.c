// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching an established connection to the device, and giving it back.
 *
 * Attach happens at a send, under lock_sock, when the kernel holds no bytes
 * of its own (snd_una == snd_nxt == write_seq): the flow starts at
 * write_seq.  Detach removes the flow from the device; after a drain
 * (everything acked) the kernel's sequence state is already consistent and
 * plain TCP carries on.  Detaching with bytes unacked drops them (peer
 * reset, close timeout) and pulls write_seq back to snd_nxt.  A flow the
 * device fails moves to another device with its unacked bytes (failover).
 */
#include <net/tcp.h>
#include "glue.h"

bool tonic_drained(const struct tonic_sk *ctx)
{
	return ctx->head == ctx->tail;
}

/*
 * Add the flow to a device: the default one first; when that one cannot
 * take flows at all (a PCIe Tonic that went away answers -ENODEV), the
 * others in turn, never @avoid.  A full table (-ENOSPC) is final: the
 * connection stays on software TCP, as BRIEF §2 says.
 */
static int tonic_dev_attach(struct tonic_sk *ctx, struct tonic_flow_cfg *fcfg,
			    struct tonic_dev *avoid, struct tonic_dev **devp, u32 *flow)
{
	struct tonic_dev *dev = tonic_dev_default(), *d;
	int err = -ENODEV;
	u32 i;

	if (dev && dev != avoid) {
		err = tonic_dev_flow_attach(dev, fcfg, ctx, flow);
		if (!err || err == -ENOSPC) {
			*devp = dev;
			return err;
		}
	}
	for (i = 0; (d = tonic_dev_get_nth(i)); i++) {
		if (d == dev || d == avoid)
			continue;
		err = tonic_dev_flow_attach(d, fcfg, ctx, flow);
		if (!err) {
			*devp = d;
			return 0;
		}
	}
	return err;
}

/* Publish the attached flow to the ACK tap (which reads these under ctx->lock). */
static void tonic_publish(struct tonic_sk *ctx, struct tonic_dev *dev, u32 flow)
{
	spin_lock_bh(&ctx->lock);
	ctx->dev = dev;
	ctx->flow = flow;
	ctx->attached = true;
	spin_unlock_bh(&ctx->lock);
}

static void tonic_flow_cfg(struct sock *sk, struct tonic_sk *ctx, struct tonic_flow_cfg *fcfg)
{
	u32 mss = tcp_sk(sk)->mss_cache, seg;

	seg = ctx->cfg_seg ? ctx->cfg_seg : mss;
	if (seg > mss && !sk_can_gso(sk))
		seg = mss;
	/* One GSO skb carries at most 64 KB with its headers. */
	seg = clamp_t(u32, seg, 1, 60000);
	memset(fcfg, 0, sizeof(*fcfg));
	fcfg->prog = ctx->prog;
	fcfg->seg_size = seg;
	fcfg->ack_notify = TONIC_ACK_NOTIFY;
	fcfg->start_seg = 0;
}

int tonic_attach(struct sock *sk, struct tonic_sk *ctx)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct tonic_flow_cfg fcfg;
	struct tonic_dev *dev;
	u32 flow;
	int err;

#ifdef CONFIG_TCP_MD5SIG
	if (rcu_access_pointer(tp->md5sig_info)) {
		ctx->state = TONIC_SK_FALLBACK;
		TONIC_INC(fallback_md5);
		return -EOPNOTSUPP;
	}
#endif
	if (!ctx->ring) {
		ctx->ring = kvmalloc_array(TONIC_RING, sizeof(*ctx->ring), GFP_KERNEL);
		if (!ctx->ring)
			return -ENOMEM;
	}
	tonic_flow_cfg(sk, ctx, &fcfg);

	spin_lock_bh(&ctx->lock);
	ctx->isn = tp->write_seq;
	ctx->seg = fcfg.seg_size;
	ctx->base_seg = ctx->tail_seg = 0;
	ctx->base_off = ctx->ttail = 0;
	ctx->peer_right = tp->snd_una + tp->snd_wnd;
	ctx->last_ack = tp->snd_una;
	ctx->wnd_blocked = false;
	ctx->head = ctx->tail = 0;
	ctx->flow_sent_hi = ctx->rebase_to = 0;
	ctx->sub_pending = false;
	ctx->fin_pending = false;
	spin_lock(&ctx->qlock);
	ctx->rhead = ctx->rcount = 0;
	ctx->n_acked = ctx->n_burst = ctx->n_failed = false;
	spin_unlock(&ctx->qlock);
	spin_unlock_bh(&ctx->lock);
	/* Device registry lookups may sleep: outside ctx->lock (the tap ignores us until published). */
	err = tonic_dev_attach(ctx, &fcfg, NULL, &dev, &flow);
	if (!err)
		tonic_publish(ctx, dev, flow);
	if (err) {
		ctx->state = TONIC_SK_FALLBACK;
		if (err == -ENOSPC)
			TONIC_INC(fallback_full);
		else
			TONIC_INC(fallback_other);
		return err;
	}
	clear_bit(TONIC_T_EXPIRED, &ctx->bits);
	ctx->t_armed = false;
	ctx->state = TONIC_SK_OFFLOADED;
	ctx->attaches++;
	TONIC_INC(attaches);
	/* No kernel sndbuf autotuning happens for bytes it never holds: size it here. */
	if (!(sk->sk_userlocks & SOCK_SNDBUF_LOCK)) {
		int want = min_t(u64, READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_wmem[2]),
				 2ULL * 256 * fcfg.seg_size);

		if (want > READ_ONCE(sk->sk_sndbuf))
			WRITE_ONCE(sk->sk_sndbuf, want);
	}
	return 0;
}

/* Take the flow off its device; the send buffer stays as it is. */
static void tonic_unhook(struct tonic_sk *ctx)
{
	u32 flow;

	spin_lock_bh(&ctx->lock);
	ctx->attached = false;
	flow = ctx->flow;
	spin_unlock_bh(&ctx->lock);
	tonic_dev_flow_detach(ctx->dev, flow);
	hrtimer_try_to_cancel(&ctx->ttimer);
	ctx->t_armed = false;
	spin_lock_bh(&ctx->qlock);
	ctx->rcount = 0;
	ctx->n_acked = ctx->n_burst = ctx->n_failed = false;
	spin_unlock_bh(&ctx->qlock);
	ctx->sub_pending = false;
}

/* Any context (socket destruction may be in softirq): must not sleep. */
void tonic_detach(struct sock *sk, struct tonic_sk *ctx)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!ctx->attached)
		return;
	tonic_unhook(ctx);
	if (!tonic_drained(ctx)) {
		/* Bytes that will never be sent: the kernel must not think they were queued. */
		WRITE_ONCE(tp->write_seq, tp->snd_nxt);
	}
	tonic_sbuf_purge(sk, ctx);
	TONIC_INC(detaches);
}

/*
 * The device failed the flow (a PCIe Tonic unbound or broken): move it to
 * another device.  Everything not acked yet, [head, tail), becomes a new
 * burst there and is sent again (the peer drops what it already has), so
 * no byte is lost and the kernel's sequence state does not change.
 */
int tonic_failover(struct sock *sk, struct tonic_sk *ctx, bool same_dev)
{
	struct tonic_dev *old = ctx->dev, *dev;
	u64 to;
	struct tonic_flow_cfg fcfg;
	u32 flow;
	s32 acked;
	int err;

	if (!ctx->attached)
		return -ENOENT;
	tonic_unhook(ctx);
	/*
	 * A failing device stops turning acks into notes: head may lag what
	 * the peer has acked (the tap saw it).  The new flow must not start
	 * below that, or the peer's acks would be beyond anything it sent.
	 */
	acked = (s32)(READ_ONCE(ctx->last_ack) - (ctx->isn + (u32)ctx->head));
	if (acked > 0)
		tonic_sbuf_free_to(sk, ctx, min_t(u64, ctx->head + acked, ctx->ttail));
	spin_lock_bh(&ctx->lock);
	to = ctx->rebase_to;
	spin_unlock_bh(&ctx->lock);
	if (to > ctx->head)
		tonic_sbuf_free_to(sk, ctx, min_t(u64, to, ctx->ttail));
	tonic_flow_cfg(sk, ctx, &fcfg);
	/* Keep C: the buffer's offsets do not depend on it, but the carving does. */
	fcfg.seg_size = ctx->seg;
	spin_lock_bh(&ctx->lock);
	ctx->base_off = ctx->ttail = ctx->head;
	ctx->base_seg = ctx->tail_seg = 0;
	ctx->wnd_blocked = false;
	/* What earlier devices sent stays sent: acks up to it re-base again. */
	ctx->flow_sent_hi = ctx->head;
	spin_unlock_bh(&ctx->lock);
	err = -ENODEV;
	if (same_dev) {
		err = tonic_dev_flow_attach(old, &fcfg, ctx, &flow);
		dev = old;
	}
	if (err)
		err = tonic_dev_attach(ctx, &fcfg, same_dev ? NULL : old, &dev, &flow);
	if (err)
		return err;
	tonic_publish(ctx, dev, flow);
	clear_bit(TONIC_T_EXPIRED, &ctx->bits);
	ctx->attaches++;
	if (!same_dev)
		TONIC_INC(failovers);
	tonic_carve(sk, ctx);
	return 0;
}

/* Wait until every offloaded byte is acked (or the flow went away). */
int tonic_wait_drained(struct sock *sk, struct tonic_sk *ctx, long timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (ctx->attached && !tonic_drained(ctx)) {
		if (sk->sk_err) {
			err = -sk->sk_err;
			break;
		}
		if (!timeo) {
			err = -EAGAIN;
			break;
		}
		if (signal_pending(current)) {
			err = sock_intr_errno(timeo);
			break;
		}
		tonic_flow_kick(ctx);
		sk_wait_event(sk, &timeo, !ctx->attached || tonic_drained(ctx) || sk->sk_err,
			      &wait);
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/* Wait until the kernel's own write and retransmit queues are empty. */
int tonic_wait_kernel_idle(struct sock *sk, long timeo)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int err = 0;

	add_wait_queue(sk_sleep(sk), &wait);
	while (!tcp_rtx_and_write_queues_empty(sk)) {
		long chunk, used;

		if (sk->sk_err || timeo <= 0 || signal_pending(current)) {
			err = -EAGAIN;
			break;
		}
		/* Woken by TCP's write-space callback as acks free its queue. */
		chunk = min_t(long, timeo, HZ / 50 + 1);
		used = chunk;
		if (sk->sk_socket)
			set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		sk_wait_event(sk, &chunk, tcp_rtx_and_write_queues_empty(sk), &wait);
		if (timeo != MAX_SCHEDULE_TIMEOUT)
			timeo -= used - chunk;
	}
	remove_wait_queue(sk_sleep(sk), &wait);
	return err;
}

/* Toggle off without waiting: the flow's work detaches once everything is acked. */
int tonic_start_drain(struct sock *sk, struct tonic_sk *ctx)
{
	ctx->want = false;
	if (ctx->attached && tonic_drained(ctx))
		tonic_detach(sk, ctx);
	if (!ctx->attached) {
		ctx->state = TONIC_SK_SOFTWARE;
		return 0;
	}
	ctx->state = TONIC_SK_DRAINING;
	tonic_flow_kick(ctx);
	return 0;
}

int tonic_set_offload(struct sock *sk, struct tonic_sk *ctx, bool on)
{
	int err = 0;

	if (on) {
		ctx->want = true;
		if (!ctx->attached)	/* an explicit request retries a fallback too */
			ctx->state = TONIC_SK_PENDING;
		else
			ctx->state = TONIC_SK_OFFLOADED;	/* a drain in progress is called off */
		return 0;
	}
	ctx->want = false;
	if (ctx->attached) {
		ctx->state = TONIC_SK_DRAINING;
		err = tonic_wait_drained(sk, ctx, sock_sndtimeo(sk, 0));
		if (ctx->attached && tonic_drained(ctx))
			tonic_detach(sk, ctx);
		if (ctx->attached)
			return err ? err : -EAGAIN;
	}
	ctx->state = TONIC_SK_SOFTWARE;
	return 0;
}
