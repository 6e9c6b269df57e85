// SPDX-License-Identifier: GPL-2.0
/*
 * Where ACKs enter: the device learns only what kernel TCP accepted.
 *
 * tcp_ack() tells the congestion control about every ACK it accepts
 * (in_ack_event), after the checksum, PAWS, the RFC 5961 sequence and ack
 * checks, ack <= snd_nxt, the RST/SYN rules and MD5 all passed, and with
 * snd_una, the send window and the timestamp echo already updated from it.
 * That call is the only one that moves the device (tonic_ack_commit).  So
 * that every offloaded socket makes it, the congestion control "tonic"
 * stands in for the socket's own while the flow is attached (tonic_ca_take,
 * restored on the way back to TCP; the kernel sends nothing then, so its
 * algorithm has nothing to do).
 *
 * What TCP does not keep from an ACK -- its SACK blocks, and whether it
 * carried data (then it is no duplicate ACK, RFC 5681) -- is read by a tap
 * at netfilter LOCAL_IN (IPv4, and IPv6 behind any extension headers)
 * into a few slots, only from segments whose checksum is right; the commit
 * uses a slot only when it matches the accepted ACK (cumulative ack and
 * timestamp value), and checks the SACK blocks as tcp_sacktag does.  An ACK
 * TCP rejects is never committed; its slot ages out.
 */
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/tcp.h>
#include <net/inet_hashtables.h>
#include <net/inet6_hashtables.h>
#include "glue.h"
#include <trace/events/tonic.h>

/* Byte offset of @seq, or -1 if before the oldest burst not all acked. */
static s64 tonic_seq_off(const struct tonic_sk *ctx, u32 seq)
{
	s32 d = (s32)(seq - (ctx->isn + (u32)ctx->base_off));

	if (d < 0)
		return -1;
	return ctx->base_off + d;
}

/*
 * RFC 2883 (tcp_check_dsack()): a first block below the cumulative ack, or
 * inside the second, reports a segment that arrived twice.
 */
static bool tonic_is_dsack(const struct tonic_tap_slot *t, u32 ack)
{
	if (before(t->sack[0][0], ack))
		return true;
	return t->nsack > 1 && !after(t->sack[0][1], t->sack[1][1]) &&
	       !before(t->sack[0][0], t->sack[1][0]);
}

/*
 * A D-SACK goes to the device as @pkt's first block (TONIC_PKT_F_DSACK):
 * the segments it covers whole, within what the bursts not acked sent.  The
 * programs undo a recovery whose every resend is reported so (sack.c).
 */
static void tonic_dsack(const struct tonic_sk *ctx, const struct tcp_sock *tp,
			struct tonic_pkt *pkt, u32 sseq, u32 eseq)
{
	s64 s = tonic_seq_off(ctx, sseq), e = tonic_seq_off(ctx, eseq);
	u32 ss, es;

	/* As tcp_is_sackblock_valid(): one below the ack lies wholly below it. */
	if (!after(eseq, sseq) || after(eseq, tp->snd_nxt) || s < 0 || e > (s64)ctx->ttail ||
	    (before(sseq, tp->snd_una) && after(eseq, tp->snd_una)))
		return;
	ss = tonic_off_seg(ctx, s, true);
	es = tonic_off_seg(ctx, e, false);
	if (!tonic_before(ss, es))
		return;
	pkt->flags |= TONIC_PKT_F_DSACK;
	pkt->sack[0].start = ss;
	pkt->sack[0].end = es;
	pkt->nsack = 1;
}

/*
 * The congestion control "tonic" stands in for the socket's own while the
 * flow is attached.  Under the socket lock (owned), so no ACK is in
 * tcp_ack() meanwhile.  The module reference mirrors what
 * tcp_set_congestion_control() takes; tonic_ca_release() gives the
 * socket's own back if the socket dies first.
 */
void tonic_ca_take(struct sock *sk, struct tonic_sk *ctx)
{
	struct inet_connection_sock *icsk = inet_csk(sk);

	if (icsk->icsk_ca_ops == &tonic_ca_ops || !try_module_get(THIS_MODULE))
		return;
	/* tonic_attach() keeps ECN-driven algorithms (DCTCP) on TCP. */
	ctx->orig_ca = icsk->icsk_ca_ops;
	icsk->icsk_ca_ops = &tonic_ca_ops;
}

void tonic_ca_restore(struct sock *sk, struct tonic_sk *ctx)
{
	struct inet_connection_sock *icsk = inet_csk(sk);

	if (!ctx->orig_ca)
		return;
	if (icsk->icsk_ca_ops == &tonic_ca_ops) {
		icsk->icsk_ca_ops = ctx->orig_ca;
		module_put(THIS_MODULE);
	}
	ctx->orig_ca = NULL;
}

/* Oldest slot matching the accepted ACK; it and every older one are consumed. */
static bool tonic_tap_match(struct tonic_sk *ctx, u32 ack, bool has_ts, u32 tsval,
			    struct tonic_tap_slot *out)
{
	u32 i;

	for (i = 0; i < ctx->tap_count; i++) {
		struct tonic_tap_slot *t = &ctx->tap[(ctx->tap_head + i) % TONIC_TAP_SLOTS];

		if (t->ack != ack || t->has_ts != has_ts || (has_ts && t->tsval != tsval))
			continue;
		*out = *t;
		ctx->tap_head = (ctx->tap_head + i + 1) % TONIC_TAP_SLOTS;
		ctx->tap_count -= i + 1;
		return true;
	}
	return false;
}

/*
 * From the congestion control's in_ack_event: @sk's lock is held (softirq,
 * or the backlog at release_sock), and tcp_ack() has accepted the ACK:
 * snd_una is its cumulative ack, never beyond snd_nxt.
 */
void tonic_ack_commit(struct sock *sk, u32 ca_flags)
{
	struct tonic_sk *ctx = tonic_sk(sk);
	const struct tcp_sock *tp = tcp_sk(sk);
	struct tonic_pkt pkt = { .type = TONIC_PKT_ACK };
	u32 ack = tp->snd_una, right = tcp_wnd_end(tp);
	bool has_ts = tp->rx_opt.saw_tstamp, kick = false, decided = false, opened = false;
	bool advanced, wnd_update, found = false;
	struct tonic_tap_slot t;
	long ts_ms = -1, us;
	u32 first;
	s64 a, from;
	int i, err;

	if (!ctx)
		return;
	spin_lock_bh(&ctx->lock);
	if (!ctx->attached)
		goto out;
	found = tonic_tap_match(ctx, ack, has_ts, tp->rx_opt.rcv_tsval, &t);
	if (!found || !tp->rx_opt.sack_ok)
		t.nsack = 0;	/* SACK blocks count only when SACK was negotiated */
	wnd_update = right != ctx->peer_right;
	if (after(right, ctx->peer_right)) {
		ctx->peer_right = right;
		opened = ctx->wnd_blocked;
	}
	/*
	 * A duplicate ack (RFC 5681) is a pure ACK that neither moves the
	 * cumulative ack nor the window; without the tap's word on the
	 * payload it is not counted as one.
	 */
	if (ack == ctx->last_ack && !t.nsack && (!found || t.payload || wnd_update))
		goto out;
	a = tonic_seq_off(ctx, ack);
	if (a > (s64)READ_ONCE(ctx->flow_sent_hi)) {
		/* Acks what a failed device sent before this flow existed: re-base. */
		if (a > (s64)ctx->rebase_to)
			ctx->rebase_to = a;
		set_bit(TONIC_REBASE, &ctx->bits);
		ctx->last_ack = ack;
		kick = true;
		goto out;
	}
	if (a < 0 && !t.nsack)
		goto out;	/* older than every burst not acked */
	if (a < 0)
		pkt.flags |= TONIC_PKT_F_NO_CUM;
	else
		pkt.cum_ack = tonic_off_seg(ctx, a, false);
	for (i = 0; i < t.nsack; i++) {
		u32 ss, es, sseq = t.sack[i][0], eseq = t.sack[i][1];
		s64 s, e;

		if (!i && tonic_is_dsack(&t, ack)) {
			tonic_dsack(ctx, tp, &pkt, sseq, eseq);
			continue;
		}
		/*
		 * As tcp_is_sackblock_valid(), minus D-SACKs: above the ack (the
		 * byte at the ack is missing, or the ack would be past it),
		 * ordered, nothing beyond what was sent.
		 */
		if (!after(sseq, ack) || !after(eseq, sseq) || after(eseq, tp->snd_nxt))
			continue;
		s = tonic_seq_off(ctx, sseq);
		e = tonic_seq_off(ctx, eseq);
		if (e <= 0)
			continue;
		if (s < 0)
			s = ctx->base_off;
		if (e > (s64)ctx->ttail)
			e = ctx->ttail;
		ss = tonic_off_seg(ctx, s, true);
		es = tonic_off_seg(ctx, e, false);
		if (tonic_before(ss, es) && pkt.nsack < TONIC_MAX_SACK) {
			pkt.sack[pkt.nsack].start = ss;
			pkt.sack[pkt.nsack].end = es;
			pkt.nsack++;
		}
	}
	if (ca_flags & CA_ACK_ECE)
		pkt.flags |= TONIC_PKT_F_ECE;
	advanced = a >= 0 && after(ack, ctx->last_ack);
	if (advanced) {
		/* The first segment it newly acks, for Karn's rule (rtt.c). */
		from = tonic_seq_off(ctx, ctx->last_ack);
		first = from < 0 ? ctx->base_seg : tonic_off_seg(ctx, from, false);
		if (has_ts && tp->rx_opt.rcv_tsecr) {
			/* TCP has taken the socket's tsoffset off the echo already. */
			u32 ms = tcp_time_stamp(tp) - tp->rx_opt.rcv_tsecr;

			if (ms < 60000)
				ts_ms = ms;
		}
	}
	us = tonic_rtt_sample(sk, ctx, &pkt, advanced ? &first : NULL, ts_ms);
	/* A sample under one cycle is one: to programs 0 means none. */
	if (us >= 0)
		pkt.rtt = (u32)clamp_t(u64, div_u64((u64)us * 1000000, ctx->dev->cycle_ps),
				       1, U32_MAX);
	/*
	 * A device whose input is full drops the ack: last_ack stays, so the
	 * next one (or the peer's answer to a retransmission) carries it.
	 */
	tonic_inline(ctx, true, true);
	err = ctx->dev->ops->incoming(ctx->dev, ctx->flow, &pkt);
	tonic_inline(ctx, false, false);
	decided = true;
	trace_tonic_sock_ack(sk, ctx->flow, ack, &pkt, err);
	if (err) {
		TONIC_INC(acks_dropped);
	} else {
		TONIC_INC(acks_in);
		if (after(ack, ctx->last_ack))
			ctx->last_ack = ack;
	}
out:
	spin_unlock_bh(&ctx->lock);
	if (kick)
		tonic_flow_kick(ctx);
	/*
	 * The device decided on the ACK at once, as TCP does in tcp_ack(): free
	 * what it acked and wake the sender (tcp_clean_rtx_queue(),
	 * tcp_check_space()), then transmit what it released
	 * (tcp_data_snd_check()).  A window the peer opened for bytes it held
	 * back is carved here too, even by a pure window update, as TCP sends
	 * after tcp_ack_update_window(): a work item per update, where the
	 * peer's window binds, is a kworker hop per ACK.  The socket is ours --
	 * its lock in softirq, or owned at release_sock() -- so no sender and
	 * no flow work is in tonic_tx_ring() meanwhile.
	 */
	if (decided || opened) {
		ctx->rcv_behind = (ca_flags & CA_ACK_SLOWPATH) && (!found || t.payload);
		tonic_flow_fast(sk, ctx);
		ctx->rcv_behind = false;
	}
}

/* Softirq, RCU: record what only the segment itself says, for the commit. */
static void tonic_tap(struct tonic_sk *ctx, struct sk_buff *skb, const struct nf_hook_state *state,
		      int thoff, int l4len)
{
	u8 optbuf[40];
	struct tcphdr _th;
	const struct tcphdr *th;
	const u8 *opt = NULL;
	struct tonic_tap_slot t = { };
	int optlen, i;

	if (!READ_ONCE(ctx->attached))
		return;
	th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);
	if (!th || !th->ack || th->syn || th->rst || th->doff < 5 || l4len < th->doff * 4)
		return;
	optlen = th->doff * 4 - sizeof(*th);
	if (optlen) {
		opt = skb_header_pointer(skb, thoff + sizeof(*th), optlen, optbuf);
		if (!opt)
			return;
	}
	t.ack = ntohl(th->ack_seq);
	t.payload = l4len > th->doff * 4;
	for (i = 0; i < optlen;) {
		u8 kind = opt[i], len;

		if (kind == TCPOPT_EOL)
			break;
		if (kind == TCPOPT_NOP) {
			i++;
			continue;
		}
		if (i + 1 >= optlen)
			break;
		len = opt[i + 1];
		if (len < 2 || i + len > optlen)
			break;
		if (kind == TCPOPT_SACK && len >= 10 && !((len - 2) % 8)) {
			int j;

			for (j = 2; j + 8 <= len && t.nsack < TONIC_MAX_SACK; j += 8) {
				t.sack[t.nsack][0] = get_unaligned_be32(opt + i + j);
				t.sack[t.nsack][1] = get_unaligned_be32(opt + i + j + 4);
				t.nsack++;
			}
		} else if (kind == TCPOPT_TIMESTAMP && len == TCPOLEN_TIMESTAMP) {
			t.tsval = get_unaligned_be32(opt + i + 2);
			t.has_ts = true;
		}
		i += len;
	}
	/*
	 * A slot decides something only for a SACK or a pure ACK: those must
	 * carry a right checksum (TCP reuses the verdict, nothing is lost).
	 */
	if ((t.nsack || !t.payload) &&
	    nf_checksum(skb, state->hook, thoff, IPPROTO_TCP, state->pf)) {
		TONIC_INC(acks_bad_csum);
		return;
	}
	spin_lock(&ctx->lock);
	if (ctx->tap_count == TONIC_TAP_SLOTS) {
		ctx->tap_head = (ctx->tap_head + 1) % TONIC_TAP_SLOTS;
		ctx->tap_count--;
	}
	ctx->tap[(ctx->tap_head + ctx->tap_count) % TONIC_TAP_SLOTS] = t;
	ctx->tap_count++;
	spin_unlock(&ctx->lock);
}

static void tonic_tap_sk(struct sock *sk, struct sk_buff *skb, const struct nf_hook_state *state,
			 int thoff, int l4len)
{
	if (!sk_fullsock(sk) || sk->sk_protocol != IPPROTO_TCP)
		return;
	if (READ_ONCE(inet_csk(sk)->icsk_ulp_ops) == &tonic_ulp_ops) {
		struct tonic_sk *ctx = tonic_sk(sk);

		if (ctx)
			tonic_tap(ctx, skb, state, thoff, l4len);
	} else {
		tonic_auto_offload(sk);
	}
}

static unsigned int tonic_nf_in4(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	const struct iphdr *iph = ip_hdr(skb);
	struct sock *sk = skb->sk;
	const struct tcphdr *th;
	struct tcphdr _th;
	bool ref = false;
	int thoff;

	if (iph->protocol != IPPROTO_TCP || ip_is_fragment(iph))
		return NF_ACCEPT;
	thoff = skb_network_offset(skb) + iph->ihl * 4;
	if (!sk) {
		/* No early demux (e.g. loopback keeps the dst): look it up. */
		th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);
		if (!th)
			return NF_ACCEPT;
		sk = __inet_lookup_established(state->net, state->net->ipv4.tcp_death_row.hashinfo,
					       iph->saddr, th->source, iph->daddr,
					       ntohs(th->dest), inet_iif(skb), inet_sdif(skb));
		if (!sk)
			return NF_ACCEPT;
		ref = true;
	}
	tonic_tap_sk(sk, skb, state, thoff, ntohs(iph->tot_len) - iph->ihl * 4);
	if (ref)
		sock_gen_put(sk);
	return NF_ACCEPT;
}

#if IS_ENABLED(CONFIG_IPV6)
static unsigned int tonic_nf_in6(void *priv, struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	const struct ipv6hdr *ip6h = ipv6_hdr(skb);
	struct sock *sk = skb->sk;
	const struct tcphdr *th;
	struct tcphdr _th;
	bool ref = false;
	__be16 frag_off;
	u8 nexthdr = ip6h->nexthdr;
	int thoff;

	/* Extension headers (hop-by-hop, destination options, ...) come first. */
	thoff = ipv6_skip_exthdr(skb, skb_network_offset(skb) + sizeof(*ip6h), &nexthdr,
				 &frag_off);
	if (thoff < 0 || nexthdr != IPPROTO_TCP || (frag_off & htons(~0x7)))
		return NF_ACCEPT;
	if (!sk) {
		th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);
		if (!th)
			return NF_ACCEPT;
		sk = __inet6_lookup_established(state->net,
						state->net->ipv4.tcp_death_row.hashinfo,
						&ip6h->saddr, th->source, &ip6h->daddr,
						ntohs(th->dest), inet6_iif(skb), inet6_sdif(skb));
		if (!sk)
			return NF_ACCEPT;
		ref = true;
	}
	tonic_tap_sk(sk, skb, state, thoff,
		     ntohs(ip6h->payload_len) + sizeof(*ip6h) - (thoff - skb_network_offset(skb)));
	if (ref)
		sock_gen_put(sk);
	return NF_ACCEPT;
}
#endif

static const struct nf_hook_ops tonic_nf_ops[] = {
	{
		.hook		= tonic_nf_in4,
		.pf		= NFPROTO_IPV4,
		.hooknum	= NF_INET_LOCAL_IN,
		.priority	= NF_IP_PRI_LAST,
	},
#if IS_ENABLED(CONFIG_IPV6)
	{
		.hook		= tonic_nf_in6,
		.pf		= NFPROTO_IPV6,
		.hooknum	= NF_INET_LOCAL_IN,
		.priority	= NF_IP6_PRI_LAST,
	},
#endif
};

static int __net_init tonic_net_init(struct net *net)
{
	return nf_register_net_hooks(net, tonic_nf_ops, ARRAY_SIZE(tonic_nf_ops));
}

static void __net_exit tonic_net_exit(struct net *net)
{
	nf_unregister_net_hooks(net, tonic_nf_ops, ARRAY_SIZE(tonic_nf_ops));
}

static struct pernet_operations tonic_net_ops = {
	.init = tonic_net_init,
	.exit = tonic_net_exit,
};

int tonic_acktap_register(void)
{
	return register_pernet_subsys(&tonic_net_ops);
}

void tonic_acktap_unregister(void)
{
	unregister_pernet_subsys(&tonic_net_ops);
}
