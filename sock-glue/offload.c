// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching an established connection to the device, giving it back to
 * TCP, and the per-flow work that ties the device's output to the socket.
 *
 * Attach happens at a send, under lock_sock, when the kernel holds no bytes
 * of its own (its write and retransmit queues are empty): the flow starts
 * at write_seq.  From then on the bytes the application writes are ours
 * ([head, tail), sendbuf.c), and the kernel's snd_nxt follows what we sent.
 *
 * Every way off the device -- toggle-off, close(), shutdown() (once the
 * device has sent what it held and seen it acked), urgent or zerocopy
 * data, a device that fails the flow with no other to take it, a push
 * the device refuses -- goes through tonic_handback(): the bytes
 * TCP has not seen acked become TCP's again, the ones already sent as sent
 * (retransmit queue), the others as not yet sent (write queue).  Then
 * TCP's own retransmission, orphan handling, SO_LINGER and FIN carry on
 * exactly as if TCP had sent everything itself.  Only a connection that
 * is gone (reset) drops the bytes, as TCP does.
 */
#include <net/tcp.h>
#include "glue.h"
#include <trace/events/tonic.h>

bool tonic_drained(const struct tonic_sk *ctx)
{
	return ctx->head == ctx->tail;
}

/*
 * Add the flow to a device: the default one first; when that one cannot
 * take flows at all (a PCIe Tonic that went away answers -ENODEV), the
 * others in turn, never @avoid.  A full table (-ENOSPC) or the namespace's
 * quota (-EDQUOT) is final: the connection stays on software TCP.
 */
static int tonic_dev_attach(struct tonic_sk *ctx, struct tonic_flow_cfg *fcfg, u32 flags,
			    struct tonic_dev *avoid, struct tonic_dev **devp, u32 *flow)
{
	struct tonic_dev *dev = tonic_dev_default(), *d;
	int err = -ENODEV;
	u32 i;

	if (dev && dev != avoid) {
		err = tonic_dev_flow_attach_flags(dev, fcfg, NULL, ctx, flags, flow);
		if (!err || err == -ENOSPC || err == -EDQUOT) {
			*devp = dev;
			return err;
		}
	}
	for (i = 0; (d = tonic_dev_get_nth(i)); i++) {
		if (d == dev || d == avoid)
			continue;
		err = tonic_dev_flow_attach_flags(d, fcfg, NULL, ctx, flags, flow);
		if (!err) {
			*devp = d;
			return 0;
		}
	}
	return err;
}

/* Publish the attached flow to the ACK path (which reads these under ctx->lock). */
static void tonic_publish(struct tonic_sk *ctx, struct tonic_dev *dev, u32 flow)
{
	spin_lock_bh(&ctx->lock);
	ctx->dev = dev;
	ctx->flow = flow;
	ctx->tap_count = 0;
	ctx->xoff = false;
	ctx->credit = 0;
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
	/* What the handshake told TCP: a probe for the first flight lost whole. */
	fcfg->init_rtt_us = tcp_sk(sk)->srtt_us >> 3;
	/* Segment lengths are ours to keep (carve.c): no burst waits for the one before. */
	fcfg->flags = TONIC_FLOW_SHORT_SEGS | (tcp_sk(sk)->rx_opt.sack_ok ? TONIC_FLOW_SACK : 0);
}

/* The descriptor ring and the send-time stamps, which only a flow on a device uses. */
void tonic_ring_free(struct tonic_sk *ctx)
{
	struct tonic_desc *ring;

	spin_lock_bh(&ctx->qlock);	/* tonic_client_desc() finds none */
	ring = ctx->ring;
	ctx->ring = NULL;
	spin_unlock_bh(&ctx->qlock);
	kvfree(ring);
	kvfree(ctx->stamps);
	ctx->stamps = NULL;
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
	if (tp->repair) {
		ctx->state = TONIC_SK_FALLBACK;
		TONIC_INC(fallback_repair);
		return -EOPNOTSUPP;
	}
	/*
	 * DCTCP and friends: the stand-in that carries ACKs to the device
	 * (ack.c) would change how TCP echoes and sets ECN for them.
	 */
	if (tcp_ca_needs_ecn(sk)) {
		ctx->state = TONIC_SK_FALLBACK;
		TONIC_INC(fallback_other);
		return -EOPNOTSUPP;
	}
	tonic_flow_cfg(sk, ctx, &fcfg);

	spin_lock_bh(&ctx->lock);
	ctx->isn = tp->write_seq;
	ctx->seg = fcfg.seg_size;
	ctx->base_seg = ctx->tail_seg = 0;
	ctx->base_off = ctx->ttail = 0;
	ctx->nbursts = 0;
	ctx->peer_right = tcp_wnd_end(tp);
	ctx->last_ack = tp->snd_una;
	ctx->wnd_blocked = false;
	ctx->head = ctx->tail = ctx->sml = 0;
	ctx->flow_sent_hi = ctx->rebase_to = 0;
	ctx->sub_pending = false;
	spin_lock(&ctx->qlock);
	ctx->rhead = ctx->rcount = 0;
	ctx->n_acked = ctx->n_failed = false;
	spin_unlock(&ctx->qlock);
	spin_unlock_bh(&ctx->lock);
	/* Device registry lookups may sleep: outside ctx->lock (the ACK path ignores us until published). */
	err = tonic_dev_attach(ctx, &fcfg, 0, NULL, &dev, &flow);
	if (err) {
		ctx->state = TONIC_SK_FALLBACK;
		if (err == -ENOSPC)
			TONIC_INC(fallback_full);
		else if (err == -EDQUOT)
			TONIC_INC(fallback_quota);
		else
			TONIC_INC(fallback_other);
		return err;
	}
	/*
	 * Only a flow on a device has a ring and send times: a full device or
	 * a namespace at its quota (net.tonic.max_flows) then bounds what the
	 * sockets that ask for the offload pin.  Charged to the user's memory
	 * cgroup, as the socket's own buffers are.  Nothing comes to the ring
	 * before the first push.
	 */
	if (!ctx->ring)
		ctx->ring = kvmalloc_array(TONIC_RING, sizeof(*ctx->ring), GFP_KERNEL_ACCOUNT);
	if (!ctx->stamps)
		ctx->stamps = kvmalloc_array(TONIC_STAMPS, sizeof(*ctx->stamps),
					     GFP_KERNEL_ACCOUNT);
	if (!ctx->ring || !ctx->stamps) {
		tonic_dev_flow_detach(dev, flow);
		tonic_ring_free(ctx);
		return -ENOMEM;
	}
	tonic_rtt_reset(ctx);
	clear_bit(TONIC_HANDBACK, &ctx->bits);
	clear_bit(TONIC_T_EXPIRED, &ctx->bits);
	tonic_ca_take(sk, ctx);
	tonic_publish(ctx, dev, flow);
	ctx->t_armed = ctx->t_spent = false;
	ctx->state = TONIC_SK_OFFLOADED;
	ctx->attaches++;
	TONIC_INC(attaches);
	trace_tonic_sock_attach(sk, dev, flow, fcfg.seg_size, ctx->prog ? ctx->prog->name : "");
	/* No kernel sndbuf autotuning happens for bytes it never holds: size it here. */
	if (!(sk->sk_userlocks & SOCK_SNDBUF_LOCK)) {
		int want = min_t(u64, READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_wmem[2]),
				 2ULL * dev->wnd_bits * fcfg.seg_size);

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
	tonic_timer_cancel(ctx, &ctx->ttimer);
	tonic_timer_cancel(ctx, &ctx->qtimer);
	ctx->t_armed = ctx->t_spent = false;
	ctx->xoff = false;	/* the flow id may be someone else's now */
	ctx->credit = 0;
	spin_lock_bh(&ctx->qlock);
	ctx->rcount = 0;
	ctx->n_acked = ctx->n_failed = false;
	spin_unlock_bh(&ctx->qlock);
	ctx->sub_pending = false;
}

/* The connection is gone: drop the bytes as TCP drops its queues. */
static void tonic_drop_bytes(struct sock *sk, struct tonic_sk *ctx)
{
	struct tcp_sock *tp = tcp_sk(sk);

	if (!tonic_drained(ctx))
		WRITE_ONCE(tp->write_seq, tp->snd_nxt);
	tonic_sbuf_purge(sk, ctx);
	ctx->fin_pending = false;	/* and no FIN */
	TONIC_INC(detaches);
}

/* Socket destruction, disconnect: any context, must not sleep. */
void tonic_detach(struct sock *sk, struct tonic_sk *ctx)
{
	if (!ctx->attached)
		return;
	tonic_unhook(ctx);
	tonic_ca_restore(sk, ctx);
	tonic_drop_bytes(sk, ctx);
}

/*
 * Offset of sequence number @seq in the send buffer, within [head, tail]:
 * what TCP says is acked or sent never lies outside what we hold.
 */
static u64 tonic_seq_to_off(const struct tonic_sk *ctx, u32 seq)
{
	s32 d = (s32)(seq - (ctx->isn + (u32)ctx->head));

	if (d <= 0)
		return ctx->head;
	return min_t(u64, ctx->head + d, ctx->tail);
}

/*
 * TCP's repair mode makes tcp_write_xmit() account segments as sent
 * without transmitting them (what CRIU uses to restore a send queue): the
 * bytes already on the wire go to the retransmit queue with packets_out,
 * snd_nxt and the RTO as if TCP had sent them.
 */
static int tonic_tcp_take_sent(struct sock *sk, struct tonic_sk *ctx, u64 from, u64 to)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	int mtup = icsk->icsk_mtup.enabled;
	int err;

	tp->repair = 1;
	tp->repair_queue = TCP_SEND_QUEUE;
	/* tcp_write_xmit() probes the path MTU before it looks at repair mode. */
	icsk->icsk_mtup.enabled = 0;
	/* MSG_EOR: no autocorking, the whole range is "sent" now. */
	err = tonic_sbuf_to_tcp(sk, ctx, from, to, MSG_EOR);
	icsk->icsk_mtup.enabled = mtup;
	tp->repair = 0;
	tp->repair_queue = TCP_NO_QUEUE;
	if (!err && tp->snd_nxt != ctx->isn + (u32)to)
		err = -EIO;
	return err;
}

/*
 * The flow is off the device: every byte TCP has not seen acked becomes
 * TCP's.  Under lock_sock, process context.
 */
static int tonic_return_bytes(struct sock *sk, struct tonic_sk *ctx)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 lowat = tp->notsent_lowat;
	int sndbuf = sk->sk_sndbuf, soft_err;
	u8 shutdown = sk->sk_shutdown;
	u64 una, nxt, n;
	int err = 0;

	tonic_ca_restore(sk, ctx);
	if (!((1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT))) {
		tonic_drop_bytes(sk, ctx);	/* reset: TCP has dropped its queues too */
		return 0;
	}
	una = tonic_seq_to_off(ctx, tp->snd_una);
	nxt = max(una, tonic_seq_to_off(ctx, tp->snd_nxt));
	tonic_sbuf_free_to(sk, ctx, una);
	n = ctx->tail - una;
	TONIC_INC(handbacks);
	atomic64_add(n, &tonic_gstats.handback_bytes);
	if (n) {
		/*
		 * The bytes move from our accounting to TCP's: nothing new is
		 * queued, so neither SO_SNDBUF nor TCP_NOTSENT_LOWAT may refuse.
		 */
		tonic_sbuf_uncharge(sk, ctx);
		WRITE_ONCE(sk->sk_sndbuf, INT_MAX / 2);
		tp->notsent_lowat = UINT_MAX;
		/*
		 * An error the application has not read yet is still its own,
		 * and shutdown() marks the socket before it calls us.
		 */
		soft_err = xchg(&sk->sk_err, 0);
		WRITE_ONCE(sk->sk_shutdown, shutdown & ~SEND_SHUTDOWN);
		WRITE_ONCE(tp->write_seq, tp->snd_una);
		WRITE_ONCE(tp->snd_nxt, tp->snd_una);
		if (nxt > una)
			err = tonic_tcp_take_sent(sk, ctx, una, nxt);
		if (!err && ctx->tail > nxt)
			err = tonic_sbuf_to_tcp(sk, ctx, nxt, ctx->tail, 0);
		tp->notsent_lowat = lowat;
		WRITE_ONCE(sk->sk_sndbuf, sndbuf);
		/* Only our own changes are undone: TCP may have set bits meanwhile. */
		WRITE_ONCE(sk->sk_shutdown, sk->sk_shutdown | (shutdown & SEND_SHUTDOWN));
		if (soft_err && !sk->sk_err)
			WRITE_ONCE(sk->sk_err, soft_err);
	}
	tonic_sbuf_release(ctx);
	TONIC_INC(detaches);
	/* shutdown(SHUT_WR) waited for the device: the FIN goes after these bytes. */
	if (ctx->fin_pending) {
		ctx->fin_pending = false;
		if (!err)
			tcp_shutdown(sk, SEND_SHUTDOWN);
	}
	if (err) {
		/*
		 * TCP could not take every byte (memory): reset now, before
		 * any FIN could tell the peer the shorter stream is complete.
		 */
		pr_info_ratelimited("tonic: TCP did not take %llu bytes back (%d): reset\n", n, err);
		TONIC_INC(aborted);
		tcp_disconnect(sk, 0);
		sk_error_report(sk);
	}
	return err;
}

/*
 * Give the socket back to TCP; @state: what the socket is afterwards.  An
 * error means the connection was reset (TCP could not take the bytes).
 */
int tonic_handback(struct sock *sk, struct tonic_sk *ctx, u8 state)
{
	ctx->state = state;
	if (!ctx->attached)
		return 0;
	tonic_unhook(ctx);
	trace_tonic_sock_handback(sk, ctx->flow, state,
				  ctx->tail - tonic_seq_to_off(ctx, tcp_sk(sk)->snd_una));
	return tonic_return_bytes(sk, ctx);
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
	struct tonic_flow_cfg fcfg;
	u64 to;
	u32 flow;
	int err;

	if (!ctx->attached)
		return -ENOENT;
	tonic_unhook(ctx);
	/*
	 * A failing device stops turning acks into notes: head may lag what
	 * TCP has accepted.  The new flow must not start below that, or the
	 * peer's acks would be beyond anything it sent.
	 */
	tonic_sbuf_free_to(sk, ctx, tonic_seq_to_off(ctx, tcp_sk(sk)->snd_una));
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
	ctx->nbursts = 0;
	tonic_rtt_reset(ctx);
	ctx->wnd_blocked = false;
	/* What earlier devices sent stays sent: acks up to it re-base again. */
	ctx->flow_sent_hi = ctx->head;
	spin_unlock_bh(&ctx->lock);
	err = -ENODEV;
	/* A flow that moves keeps its place in the namespace's quota. */
	if (same_dev) {
		err = tonic_dev_flow_attach_flags(old, &fcfg, NULL, ctx, TONIC_DEV_FLOW_MOVE, &flow);
		dev = old;
	}
	if (err)
		err = tonic_dev_attach(ctx, &fcfg, TONIC_DEV_FLOW_MOVE, same_dev ? NULL : old,
				       &dev, &flow);
	if (err) {
		/* No device takes it: TCP does, with every byte. */
		ctx->state = TONIC_SK_FALLBACK;
		trace_tonic_sock_handback(sk, ctx->flow, ctx->state,
					  ctx->tail - tonic_seq_to_off(ctx, tcp_sk(sk)->snd_una));
		tonic_return_bytes(sk, ctx);
		return err;
	}
	tonic_publish(ctx, dev, flow);
	trace_tonic_sock_attach(sk, dev, flow, fcfg.seg_size, ctx->prog ? ctx->prog->name : "");
	clear_bit(TONIC_T_EXPIRED, &ctx->bits);
	ctx->attaches++;
	if (!same_dev)
		TONIC_INC(failovers);
	tonic_carve(sk, ctx);
	return 0;
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

/* Under lock_sock: offload on (attaches at the next send) or off (at once). */
int tonic_set_offload(struct sock *sk, struct tonic_sk *ctx, bool on)
{
	ctx->want = on;
	if (on) {
		if (!ctx->attached)	/* an explicit request retries a fallback too */
			ctx->state = TONIC_SK_PENDING;
		return 0;
	}
	tonic_handback(sk, ctx, TONIC_SK_SOFTWARE);
	return 0;
}

/*
 * With the socket owned, in any context (the flow's work, the ACK's
 * softirq): the device saw segments before @acked_seg acked.  Free those
 * bytes and the bursts they end, mirror window and pacing rate, and wake
 * the sender.
 */
static void tonic_flow_acked(struct sock *sk, struct tonic_sk *ctx, u32 acked_seg)
{
	if (!tonic_before(acked_seg, ctx->base_seg) && !tonic_after(acked_seg, ctx->tail_seg)) {
		u64 off = tonic_seg_off(ctx, acked_seg);

		tonic_sbuf_free_to(sk, ctx, off);
		tonic_bursts_acked(ctx, acked_seg, off);
	}
	tonic_pace(sk, ctx);
	tonic_wake(sk);
}

/*
 * The socket ours (its lock in softirq, or owned): the notes of the
 * device's inline decision (tonic_inline kept them from kicking the
 * flow's work), then carving what the sender added meanwhile.  A
 * connection that is no longer established, a failure, a re-base or a
 * handback is the flow's work's, with the notes and the descriptors:
 * false then, and the caller transmits nothing.
 */
static bool tonic_flow_notes(struct sock *sk, struct tonic_sk *ctx)
{
	bool acked;
	u32 acked_seg;

	if (!ctx->attached || !((1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT)) ||
	    test_bit(TONIC_REBASE, &ctx->bits) || test_bit(TONIC_HANDBACK, &ctx->bits)) {
		tonic_flow_kick(ctx);
		return false;
	}
	spin_lock_bh(&ctx->qlock);
	if (ctx->n_failed) {
		spin_unlock_bh(&ctx->qlock);
		tonic_flow_kick(ctx);
		return false;
	}
	acked = ctx->n_acked;
	acked_seg = ctx->n_acked_seg;
	ctx->n_acked = false;
	spin_unlock_bh(&ctx->qlock);
	if (acked)
		tonic_flow_acked(sk, ctx, acked_seg);
	/*
	 * As tcp_data_snd_check() after an ACK: bytes the device was not told
	 * of yet (held back by the window, T or a full bursts' table) go now,
	 * with no work item (issue 12).  The FIN's handback may sleep: the
	 * flow's work's.
	 */
	tonic_carve(sk, ctx);
	if (ctx->fin_pending && tonic_drained(ctx))
		tonic_flow_kick(ctx);
	return true;
}

/*
 * The socket ours, in any context: what an ACK, T or TSQ's timer asks of
 * the flow -- the device's notes, carving, the ring -- as tcp_ack() and
 * tcp_tsq_write() transmit.
 */
void tonic_flow_fast(struct sock *sk, struct tonic_sk *ctx)
{
	if (tonic_flow_notes(sk, ctx))
		tonic_tx_ring(sk, ctx);
}

/*
 * Softirq (a timer): the fast path now, or, with the socket owned by the
 * user, when it releases the socket -- as tcp_tsq_handler() does -- not a
 * work item that would preempt the owner only to wait for its lock.
 */
void tonic_flow_poke(struct tonic_sk *ctx)
{
	struct sock *sk = ctx->sk;

	bh_lock_sock(sk);
	/* Not for a socket released meanwhile (tonic_ulp_release()). */
	if (!ctx->dead) {
		if (!sock_owned_by_user(sk))
			tonic_flow_fast(sk, ctx);
		else
			set_bit(TONIC_DEFERRED, &ctx->bits);
	}
	bh_unlock_sock(sk);
}

/* release_sock(), BH off: what a timer left for the owner, then TCP's own. */
void tonic_release_cb(struct sock *sk)
{
	struct tonic_sk *ctx = tonic_sk(sk);

	if (ctx && !ctx->dead && test_and_clear_bit(TONIC_DEFERRED, &ctx->bits))
		tonic_flow_fast(sk, ctx);
	tcp_release_cb(sk);
}

/* Under lock_sock. */
static void tonic_flow_process(struct sock *sk, struct tonic_sk *ctx)
{
	bool acked, failed;
	u32 acked_seg;

	if (!ctx->attached)
		return;
	if (!((1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT))) {
		/* Reset by the peer (or aborted): the bytes have nowhere to go. */
		tonic_detach(sk, ctx);
		ctx->state = TONIC_SK_SOFTWARE;
		tonic_wake(sk);
		return;
	}
	/* Someone changed the congestion control under us (TCP_CONGESTION, BPF). */
	if (inet_csk(sk)->icsk_ca_ops != &tonic_ca_ops)
		tonic_ca_take(sk, ctx);
	spin_lock_bh(&ctx->qlock);
	acked = ctx->n_acked;
	acked_seg = ctx->n_acked_seg;
	failed = ctx->n_failed;
	ctx->n_acked = ctx->n_failed = false;
	spin_unlock_bh(&ctx->qlock);

	if (!failed && test_and_clear_bit(TONIC_REBASE, &ctx->bits)) {
		TONIC_INC(rebases);
		if (ctx->attached)
			trace_tonic_sock_fail(sk, ctx->dev, ctx->flow, true);
		if (tonic_failover(sk, ctx, true))
			failed = true;	/* not even its own device takes it back */
	}
	if (failed) {
		TONIC_INC(failed);
		if (ctx->attached)
			trace_tonic_sock_fail(sk, ctx->dev, ctx->flow, false);
		if (!ctx->attached || tonic_failover(sk, ctx, false)) {
			tonic_handback(sk, ctx, TONIC_SK_FALLBACK);
			tonic_wake(sk);
		}
		return;
	}
	if (test_and_clear_bit(TONIC_HANDBACK, &ctx->bits)) {
		tonic_handback(sk, ctx, TONIC_SK_FALLBACK);
		tonic_wake(sk);
		return;
	}
	if (acked)
		tonic_flow_acked(sk, ctx, acked_seg);
	tonic_tx_ring(sk, ctx);
	tonic_carve(sk, ctx);
	if (ctx->fin_pending && tonic_drained(ctx))
		tonic_handback(sk, ctx, TONIC_SK_SOFTWARE);	/* and the FIN */
}

void tonic_flow_work(struct work_struct *w)
{
	struct tonic_sk *ctx = container_of(w, struct tonic_sk, work);
	struct sock *sk = ctx->sk;

	clear_bit(TONIC_WORK_QUEUED, &ctx->bits);
	lock_sock(sk);
	if (!ctx->dead)
		tonic_flow_process(sk, ctx);
	release_sock(sk);
	sock_put(sk);
	tonic_sk_put(ctx);
}
