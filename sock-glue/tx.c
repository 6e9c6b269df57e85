// SPDX-License-Identifier: GPL-2.0
/*
 * From descriptors to TCP segments.
 *
 * The device hands each flow's descriptors and notifications to
 * tonic_client (under the device lock: just queue them and kick the
 * flow's work, offload.c).  Whoever owns the socket while the device
 * decides in its context transmits at once, as TCP does: the sender after
 * its push (carve.c, tcp_sendmsg()), the softirq or backlog that took an
 * ACK (ack.c, tcp_data_snd_check()); the flow's work transmits the rest
 * (timeouts, rate credit, a device that runs apart).  With the socket
 * owned, tonic_tx_ring() builds a TCP
 * segment per descriptor (consecutive full-MSS ones merged into one GSO skb) -- seq
 * from the segment's offset, ack = rcv_nxt and the window as TCP's own
 * segments carry them (rcvwnd.c), timestamps -- and hands it to
 * icsk_af_ops->queue_xmit, advancing snd_nxt first so the kernel's tcp_ack
 * accepts the peer's acks.  The kernel's retransmit queue stays empty, so
 * its RTO/TLP timers stay idle: Tonic owns retransmission.
 */
#include <linux/module.h>
#include <net/tcp.h>
#include <net/inet_ecn.h>
#include "glue.h"
#include <trace/events/tonic.h>

void tonic_client_desc(void *priv, const struct tonic_desc *d)
{
	struct tonic_sk *ctx = priv;
	bool kick = false;

	spin_lock(&ctx->qlock);
	if (ctx->ring && ctx->rcount < TONIC_RING) {
		ctx->ring[(ctx->rhead + ctx->rcount) % TONIC_RING] = *d;
		ctx->rcount++;
		kick = !ctx->inline_desc;
	} else {
		TONIC_INC(ring_drops);	/* the device's RTO will resend it */
	}
	/* Dropped or not, as the device counted it: both must agree it is held. */
	if (ctx->credit && !--ctx->credit)
		ctx->xoff = true;	/* spent: the device holds the flow again */
	spin_unlock(&ctx->qlock);
	if (kick)
		tonic_flow_kick(ctx);
}

void tonic_client_note(void *priv, const struct tonic_note *n)
{
	struct tonic_sk *ctx = priv;
	bool kick = true;

	spin_lock(&ctx->qlock);
	switch (n->type) {
	case TONIC_NOTE_ACKED:
		if (!ctx->n_acked || tonic_after(n->value, ctx->n_acked_seg))
			ctx->n_acked_seg = n->value;
		ctx->n_acked = true;
		kick = !ctx->inline_notes;
		break;
	case TONIC_NOTE_FAILED:
		ctx->n_failed = true;
		break;
	}
	spin_unlock(&ctx->qlock);
	if (kick)
		tonic_flow_kick(ctx);
}

/* The device lost the flow: its work fails it over. */
void tonic_flow_failed(struct tonic_sk *ctx)
{
	spin_lock_bh(&ctx->qlock);
	ctx->n_failed = true;
	spin_unlock_bh(&ctx->qlock);
	tonic_flow_kick(ctx);
}

static u32 tonic_tcp_hdrlen(const struct tcp_sock *tp)
{
	return sizeof(struct tcphdr) + (tp->rx_opt.tstamp_ok ? TCPOLEN_TSTAMP_ALIGNED : 0);
}

/*
 * Transmit descriptor @d and the @more descriptors merged after it (the
 * segments that directly follow, @len bytes in all) as one skb: with C =
 * MSS, consecutive segments of one device run go down the stack as one
 * GSO skb, cut back into the same MSS-sized packets on the wire.
 */
static void tonic_xmit(struct sock *sk, struct tonic_sk *ctx, const struct tonic_desc *d,
		       u32 more, u32 len, u64 now_us)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct inet_sock *inet = inet_sk(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u32 hlen = tonic_tcp_hdrlen(tp), seq, mss, segs;
	struct sk_buff *skb;
	struct tcphdr *th;
	u64 off;
	u16 flags = TCPHDR_ACK;
	bool new_data;
	int err;

	if (tonic_before(d->seg, ctx->base_seg) || !tonic_before(d->seg, ctx->tail_seg))
		return;		/* from before a burst boundary: already acked */
	off = tonic_seg_off(ctx, d->seg);
	if (off + len > ctx->ttail)
		len = ctx->ttail - off;
	if (off + len <= ctx->head)
		return;		/* acked while the descriptor waited */
	if (off < ctx->head) {	/* partly acked */
		len -= ctx->head - off;
		off = ctx->head;
	}
	seq = ctx->isn + (u32)off;

	/* From the ACK's softirq too (ack.c): no sleeping there. */
	skb = alloc_skb(MAX_TCP_HEADER,
			sk_gfp_mask(sk, in_softirq() ? GFP_ATOMIC : sk->sk_allocation));
	if (!skb)
		goto fail;
	skb_reserve(skb, MAX_TCP_HEADER);
	if (tonic_sbuf_fill_skb(ctx, skb, off, len)) {
		kfree_skb(skb);
		goto fail;
	}
	th = skb_push(skb, hlen);
	skb_reset_transport_header(skb);
	memset(th, 0, hlen);
	th->source = inet->inet_sport;
	th->dest = inet->inet_dport;
	th->seq = htonl(seq);
	th->ack_seq = htonl(tp->rcv_nxt);
	if (d->flags & TONIC_DESC_LAST || off + len == ctx->tail || more)
		flags |= TCPHDR_PSH;
	if ((d->flags & TONIC_DESC_CWR) && (tp->ecn_flags & TCP_ECN_OK))
		flags |= TCPHDR_CWR;
	*(((__be16 *)th) + 6) = htons(((hlen >> 2) << 12) | flags);
	th->window = htons(tonic_rcv_window(sk, ctx->rcv_behind));
	if (tp->rx_opt.tstamp_ok) {
		__be32 *ptr = (__be32 *)(th + 1);

		*ptr++ = htonl((TCPOPT_NOP << 24) | (TCPOPT_NOP << 16) |
			       (TCPOPT_TIMESTAMP << 8) | TCPOLEN_TIMESTAMP);
		*ptr++ = htonl((u32)div_u64(now_us, USEC_PER_SEC / TCP_TS_HZ) + tp->tsoffset);
		*ptr = htonl(tp->rx_opt.ts_recent);
	}
	skb->ip_summed = CHECKSUM_PARTIAL;
	skb_set_owner_w(skb, sk);
	skb_set_hash_from_sk(skb, sk);
	/* RFC 3168 6.1.5: new data is ECN-capable, retransmissions are not. */
	if (tp->ecn_flags & TCP_ECN_OK) {
		if (d->flags & TONIC_DESC_RTX)
			INET_ECN_dontxmit(sk);
		else
			INET_ECN_xmit(sk);
	}
	mss = tp->mss_cache;
	if (len > mss) {
		skb_shinfo(skb)->gso_size = mss;
		skb_shinfo(skb)->gso_segs = DIV_ROUND_UP(len, mss);
		skb_shinfo(skb)->gso_type = sk->sk_gso_type;
		/* CWR on the first packet only, as tcp_ecn_send() asks of GSO. */
		if (flags & TCPHDR_CWR)
			skb_shinfo(skb)->gso_type |= SKB_GSO_TCP_ECN;
	}
	icsk->icsk_af_ops->send_check(sk, skb);
	new_data = after(seq + len, tp->snd_nxt);
	if (new_data)
		WRITE_ONCE(tp->snd_nxt, seq + len);
	/* Before queue_xmit: on veth the peer's ack can come back inside it. */
	tonic_rtt_stamp(ctx, d->seg, 1 + more, d->flags & TONIC_DESC_RTX, now_us);
	if (off + len > ctx->flow_sent_hi)
		WRITE_ONCE(ctx->flow_sent_hi, off + len);
	/*
	 * net_xmit_eval() is a macro that evaluates its argument twice: never
	 * wrap the call in it, or a segment that was not NET_XMIT_CN is sent a
	 * second time after the first send already handed it to the peer.
	 */
	err = icsk->icsk_af_ops->queue_xmit(sk, skb, &inet->cork.fl);
	if (err > 0) {
		ctx->congested = true;
		TONIC_INC(tx_congested);
	}
	err = net_xmit_eval(err);
	trace_tonic_sock_xmit(sk, ctx->flow, seq, len, 1 + more, d->flags & TONIC_DESC_RTX, err);
	if (err)
		goto fail;
	ctx->segs_sent += 1 + more;
	atomic64_add(1 + more, &tonic_gstats.segs_tx);
	/*
	 * tcp_info (ss -ti) and the MIB (netstat -s) count what went out on
	 * the wire, whoever sent it: new data as __tcp_transmit_skb() and
	 * tcp_event_new_data_sent() count it, the rest as retransmissions.
	 */
	segs = len > mss ? DIV_ROUND_UP(len, mss) : 1;
	if (new_data) {
		TCP_ADD_STATS(sock_net(sk), TCP_MIB_OUTSEGS, segs);
		NET_ADD_STATS(sock_net(sk), LINUX_MIB_TCPORIGDATASENT, segs);
	}
	tp->segs_out += segs;
	tp->data_segs_out += segs;
	tp->bytes_sent += len;
	tp->lsndtime = tcp_jiffies32;
	if (d->flags & TONIC_DESC_RTX) {
		ctx->segs_rtx += 1 + more;
		atomic64_add(1 + more, &tonic_gstats.segs_rtx);
		TCP_ADD_STATS(sock_net(sk), TCP_MIB_RETRANSSEGS, segs);
		tp->total_retrans += segs;
		tp->bytes_retrans += len;
	}
	return;
fail:
	ctx->tx_errors++;	/* the device's retransmission timer covers it */
	TONIC_INC(tx_errors);
}

void tonic_wake(struct sock *sk)
{
	struct socket_wq *wq;

	rcu_read_lock();
	wq = rcu_dereference(sk->sk_wq);
	if (skwq_has_sleeper(wq))
		wake_up_interruptible_all(&wq->wait);
	rcu_read_unlock();
}

/*
 * The program's ssthresh, when it shows one (the TCP programs' get_info),
 * in the socket's MSS: TCP_INFINITE_SSTHRESH while it is the device's
 * window, the programs' "arbitrarily high" before any congestion.
 */
static u32 tonic_ssthresh(const struct tcp_sock *tp, const struct tonic_sk *ctx,
			  const struct tonic_flow_stats *st)
{
	const char *const *names = ctx->prog->info_names;

	if (!(st->state & TONIC_FLOW_INFO) || !names || !names[0] || strcmp(names[0], "ssthresh"))
		return tp->snd_ssthresh;
	if (st->prog_info[0] >= ctx->dev->wnd_bits)
		return TCP_INFINITE_SSTHRESH;
	return clamp_t(u64, div_u64((u64)st->prog_info[0] * ctx->seg, tp->mss_cache), 2,
		       tp->snd_cwnd_clamp);
}

/*
 * The device decides the window; the qdisc and the socket's own
 * accounting must see it.  Kernel TCP updates snd_cwnd and sk_pacing_rate
 * only for ACKs of data in its own retransmit queue, which is empty while
 * the device sends, so both would stay at their values of the handshake:
 * sch_fq would pace the flow at ten segments per RTT.  Mirror the device's
 * window into snd_cwnd and the program's ssthresh into snd_ssthresh (ss
 * shows them; TCP starts from them after a handback; with ssthresh left
 * infinite the flow paced at the slow-start ratio, 200 %, all its life)
 * and set the pacing rate as tcp_update_pacing_rate() does, from the RTT
 * of the device's segments (rtt.c), or from the program's rate when it
 * sends by rate.
 */
void tonic_pace(struct sock *sk, struct tonic_sk *ctx)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct tonic_flow_stats st;
	u32 cwnd, srtt;
	u64 rate;

	if (!ctx->attached || ctx->dev->ops->flow_stats(ctx->dev, ctx->flow, &st))
		return;
	cwnd = clamp_t(u64, div_u64((u64)st.cwnd * ctx->seg, tp->mss_cache), 1,
		       tp->snd_cwnd_clamp);
	tcp_snd_cwnd_set(tp, cwnd);
	tp->snd_ssthresh = tonic_ssthresh(tp, ctx, &st);
	if (ctx->prog->credit == TONIC_CREDIT_RATE) {
		rate = (u64)st.rate_kbps * 1000 / 8;
	} else {
		srtt = tp->srtt_us;
		rate = (u64)tp->mss_cache * ((USEC_PER_SEC / 100) << 3);
		rate *= cwnd < tp->snd_ssthresh / 2 ?
			READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_pacing_ss_ratio) :
			READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_pacing_ca_ratio);
		rate *= cwnd;
		if (srtt)
			rate = div_u64(rate, srtt);
	}
	WRITE_ONCE(sk->sk_pacing_rate, min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate)));
}

/*
 * Bytes one GSO skb may carry, as tcp_tso_autosize() sizes kernel TCP's:
 * about 1 ms of data at the pacing rate (sk_pacing_shift), plus a share of
 * the GSO limit on paths shorter than 2^tcp_tso_rtt_log us, at least
 * tcp_min_tso_segs, at most sk_gso_max_segs.  A qdisc, netem or a switch
 * takes an skb as one packet: merged whole windows were lost whole and
 * rarely (test 57: 44-segment skbs where reno's were 8 on a 20 Mbit/s path).
 */
static u32 tonic_gso_bytes(struct sock *sk, u32 mss)
{
	const struct net *net = sock_net(sk);
	u32 gso_max = READ_ONCE(sk->sk_gso_max_size);
	u32 r = tcp_min_rtt(tcp_sk(sk)) >> READ_ONCE(net->ipv4.sysctl_tcp_tso_rtt_log);
	u64 bytes = READ_ONCE(sk->sk_pacing_rate) >> READ_ONCE(sk->sk_pacing_shift);
	u32 segs;

	if (r < BITS_PER_TYPE(gso_max))
		bytes += gso_max >> r;
	bytes = min_t(u64, bytes, gso_max);
	segs = max_t(u32, (u32)bytes / mss, READ_ONCE(net->ipv4.sysctl_tcp_min_tso_segs));
	/* ... and never more than the route allows (tcp_tso_segs()). */
	return min_t(u32, segs, READ_ONCE(sk->sk_gso_max_segs)) * mss;
}

static enum hrtimer_restart tonic_qtimer_fn(struct hrtimer *t)
{
	struct tonic_sk *ctx = container_of(t, struct tonic_sk, qtimer);

	tonic_flow_poke(ctx);
	tonic_timer_put(ctx);
	return HRTIMER_NORESTART;
}

void tonic_tx_init(struct tonic_sk *ctx)
{
	hrtimer_init(&ctx->qtimer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_SOFT);
	ctx->qtimer.function = tonic_qtimer_fn;
}

/*
 * TCP Small Queues (tcp_small_queue_check()): what waits below the socket
 * in qdiscs and device queues stays under about 1 ms of data at the
 * pacing rate, two skbs at least -- and, here, TONIC_TSQ_SKBS skbs of the
 * next one's size at most.  sch_fq holds 100 packets of a flow and drops
 * the rest: with a window of 2048 segments and no such limit, a slow
 * (debug) kernel queued more there and lost them.  Kernel TCP's skbs are
 * about that 1 ms each (tcp_tso_autosize(), and tcp_tso_should_defer()
 * waits for them), so its limit is a few packets; ours, ACK-clocked, are
 * often one segment each, and the same bytes were 40 of them (test 57's
 * fq, whose flow_limit is 20, dropped one in 7 runs of 17 at the window
 * of 2048).  Held, the ring fills, and the next skb is bigger.  The descriptors
 * stay in the ring until a timer, set to when the queue has drained half
 * way at the pacing rate, transmits them (TCP's own skbs wake it at TX
 * completion, tcp_wfree(), which a module cannot use).  Qdiscs that
 * hold packets for a delay (netem) orphan them: they do not count.
 */
static u64 tonic_tsq_limit(struct sock *sk, u32 len)
{
	u64 skb = SKB_TRUESIZE(len);
	u64 ms = READ_ONCE(sk->sk_pacing_rate) >> READ_ONCE(sk->sk_pacing_shift);
	u64 limit = max_t(u64, 2 * skb, min_t(u64, ms, TONIC_TSQ_SKBS * skb));

	if (READ_ONCE(sk->sk_pacing_status) == SK_PACING_NONE)
		limit = min_t(u64, limit,
			      READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_limit_output_bytes));
	return limit;
}

/* @len: the bytes the next skb carries. */
static bool tonic_tsq_full(struct sock *sk, struct tonic_sk *ctx, u32 len)
{
	u64 rate = READ_ONCE(sk->sk_pacing_rate), queued, limit, ns;

	limit = tonic_tsq_limit(sk, len);
	queued = refcount_read(&sk->sk_wmem_alloc);
	/*
	 * Nothing below the socket (its count never goes under 1): send,
	 * whatever the limit, as kernel TCP always sends with no more than
	 * one skb unacked (tcp_small_queue_check()).  A limit of 0
	 * (tcp_limit_output_bytes) held the flow until its RTOs failed it.
	 */
	if (queued <= limit || queued <= 1)
		return false;
	ns = rate ? div64_u64((queued - limit / 2) * NSEC_PER_SEC, rate) : NSEC_PER_MSEC;
	tonic_timer_start(ctx, &ctx->qtimer,
			  ktime_add_ns(ktime_get(), clamp_t(u64, ns, 20 * NSEC_PER_USEC,
							    10 * NSEC_PER_MSEC)));
	return true;
}

/*
 * Hold the device's output while TSQ holds ours (@on), or let it go.  The
 * ring would otherwise take everything the device decides, and the device
 * count all of it as sent: in the guest 240 of a cubic flow's 342
 * segments waited here, its cwnd grew to twice the 342, and the pacing
 * rate and TSQ allowance made of that cwnd took most of a bottleneck from
 * kernel TCP, whose cwnd TSQ does not grow (tcp_is_cwnd_limited()).
 * Releasing runs the device's decision here: its descriptors are ours to
 * send now.
 */
static void tonic_xoff(struct sock *sk, struct tonic_sk *ctx, bool on, u32 max_len)
{
	u16 credit = 0;

	if (!ctx->dev->ops->flow_xoff)
		return;
	/* Let go of what TSQ takes: the device holds the flow again after it. */
	if (!on)
		credit = clamp_t(u64, div_u64(tonic_tsq_limit(sk, max_len), ctx->seg),
				 2, TONIC_TX_BUDGET / 2);
	spin_lock_bh(&ctx->qlock);
	ctx->xoff = on;
	ctx->credit = credit;
	spin_unlock_bh(&ctx->qlock);
	tonic_inline(ctx, true, false);
	ctx->dev->ops->flow_xoff(ctx->dev, ctx->flow, on, credit);
	tonic_inline(ctx, false, false);
}

/*
 * The qdisc refused a segment, or took it and said it is congested
 * (NET_XMIT_DROP, _CN): kernel TCP enters CWR then (tcp_transmit_skb()),
 * so the device's program cuts its window as for an ECE, once per window.
 * Without it a flow whose qdisc drops grew on as if the segments had left
 * the host.  A dropped segment is lost to the device, which recovers it as
 * any loss (kernel TCP would send the same skb again later).
 */
static void tonic_tx_congested(struct tonic_sk *ctx)
{
	struct tonic_pkt pkt = { .type = TONIC_PKT_CNP };

	ctx->congested = false;
	spin_lock_bh(&ctx->lock);
	/* A device whose input is full drops it: the next refusal says it again. */
	if (ctx->attached)
		ctx->dev->ops->incoming(ctx->dev, ctx->flow, &pkt);
	spin_unlock_bh(&ctx->lock);
}

/*
 * With the socket owned: transmit the descriptors the device handed over.
 * One clock read stamps the whole run (send times, TS values), as
 * tcp_write_xmit() stamps its skbs from one tcp_mstamp_refresh().
 */
static void tonic_tx_ring_send(struct sock *sk, struct tonic_sk *ctx)
{
	u32 mss = tcp_sk(sk)->mss_cache, more, len, max_len, n;
	u64 now_us = tcp_clock_us(), start;
	struct tonic_desc d;
	int budget = TONIC_TX_BUDGET;
	bool merge;

	/*
	 * Merge only full MSS segments, as far as TCP would put in one skb;
	 * else each segment is an skb, which is what TSQ counts.
	 */
	merge = ctx->seg == mss && sk_can_gso(sk);
	max_len = min3(READ_ONCE(sk->sk_gso_max_size) - 1 - MAX_TCP_HEADER, 65000U,
		       merge ? tonic_gso_bytes(sk, mss) : ctx->seg);
	while (budget-- > 0) {
		n = READ_ONCE(ctx->rcount);
		if (n && tonic_tsq_full(sk, ctx, min(n * ctx->seg, max_len))) {
			if (!READ_ONCE(ctx->xoff))
				tonic_xoff(sk, ctx, true, max_len);
			return;
		}
		spin_lock_bh(&ctx->qlock);
		if (!ctx->rcount) {
			bool held = ctx->xoff;

			spin_unlock_bh(&ctx->qlock);
			if (!held)
				break;
			if (tonic_tsq_full(sk, ctx, max_len))
				return;		/* the qtimer comes back */
			tonic_xoff(sk, ctx, false, max_len);
			continue;
		}
		/* The device's run on another CPU filled the ring after the check. */
		if (!n) {
			spin_unlock_bh(&ctx->qlock);
			continue;
		}
		d = ctx->ring[ctx->rhead];
		ctx->rhead = (ctx->rhead + 1) % TONIC_RING;
		ctx->rcount--;
		more = 0;
		/* Ours, not the descriptor's: a sub-segment may lie mid-window (carve.c). */
		len = tonic_seg_len(ctx, d.seg);
		start = len ? tonic_seg_off(ctx, d.seg) : 0;
		/* A GSO skb's segments are full but for its last one. */
		while (merge && ctx->rcount && budget > 0 && len && !(len % mss)) {
			const struct tonic_desc *e = &ctx->ring[ctx->rhead];
			u32 elen = tonic_seg_len(ctx, e->seg);

			if (e->seg != d.seg + more + 1 || e->flags != d.flags || !elen ||
			    len + elen > max_len ||
			    ((start + len + elen - 1) >> PAGE_SHIFT) - (start >> PAGE_SHIFT) >=
			    MAX_SKB_FRAGS)
				break;
			len += elen;
			more++;
			budget--;
			ctx->rhead = (ctx->rhead + 1) % TONIC_RING;
			ctx->rcount--;
		}
		spin_unlock_bh(&ctx->qlock);
		tonic_xmit(sk, ctx, &d, more, len, now_us);
	}
	if (budget < 0)
		tonic_flow_kick(ctx);
}

void tonic_tx_ring(struct sock *sk, struct tonic_sk *ctx)
{
	tonic_tx_ring_send(sk, ctx);
	if (ctx->congested)
		tonic_tx_congested(ctx);
}
