// SPDX-License-Identifier: GPL-2.0
/*
 * The ACK tap: a netfilter NF_INET_LOCAL_IN hook per network namespace,
 * IPv4 and IPv6.  Early demux has usually set skb->sk (else the established
 * table is looked up), so "is this one of ours" is a pointer compare.  The
 * cumulative ack, SACK blocks, ECE and timestamp echo are translated from
 * bytes to the flow's segment indices and fed to the device; the peer's
 * window right edge is recorded for carving.  The packet always continues
 * untouched to TCP, which keeps its own view (snd_una, snd_wnd).
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
#include <net/netns/generic.h>
#include "glue.h"

/* Byte offset of @seq relative to the current burst, or -1 if before it. */
static s64 tonic_seq_off(const struct tonic_sk *ctx, u32 seq)
{
	s32 d = (s32)(seq - (ctx->isn + (u32)ctx->base_off));

	if (d < 0)
		return -1;
	return ctx->base_off + d;
}

static u32 tonic_off_seg(const struct tonic_sk *ctx, u64 off, bool round_up)
{
	u64 rel = off - ctx->base_off;
	u64 q = div_u64(rel + (round_up ? ctx->seg - 1 : 0), ctx->seg);

	if (off >= ctx->ttail)
		return ctx->tail_seg;
	return ctx->base_seg + (u32)q;
}

static void tonic_tap(struct sock *sk, const struct tcphdr *th, const u8 *opt, int optlen,
		      int payload)
{
	struct tonic_sk *ctx = tonic_sk(sk);
	const struct tcp_sock *tp = tcp_sk(sk);
	struct tonic_pkt pkt = { .type = TONIC_PKT_ACK };
	u32 ack = ntohl(th->ack_seq), right, tsecr = 0;
	bool kick = false, has_ts = false, wnd_update;
	u32 sack[TONIC_MAX_SACK][2];
	int nsack = 0, i;
	s64 a;

	if (!ctx || !READ_ONCE(ctx->attached))
		return;
	/* Options: SACK blocks and the timestamp echo. */
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
		if (kind == TCPOPT_SACK && len >= 10) {
			int j;

			for (j = 2; j + 8 <= len && nsack < TONIC_MAX_SACK; j += 8) {
				sack[nsack][0] = get_unaligned_be32(opt + i + j);
				sack[nsack][1] = get_unaligned_be32(opt + i + j + 4);
				nsack++;
			}
		} else if (kind == TCPOPT_TIMESTAMP && len == TCPOLEN_TIMESTAMP) {
			tsecr = get_unaligned_be32(opt + i + 6);
			has_ts = true;
		}
		i += len;
	}

	spin_lock(&ctx->lock);
	if (!ctx->attached)
		goto out;
	right = ack + ((u32)ntohs(th->window) << tp->rx_opt.snd_wscale);
	wnd_update = right != ctx->peer_right;
	if (after(right, ctx->peer_right)) {
		ctx->peer_right = right;
		kick = ctx->wnd_blocked;
	}
	/*
	 * Not a duplicate ack (RFC 5681): data from the peer, or a window
	 * update, without a new ack or SACK information.
	 */
	if ((payload || wnd_update) && ack == ctx->last_ack && !nsack)
		goto out;
	a = tonic_seq_off(ctx, ack);
	if (a > (s64)ctx->ttail) {
		TONIC_INC(acks_dropped);	/* acks bytes we never sent */
		goto out;
	}
	if (a < 0 && !nsack)
		goto out;	/* older than this burst */
	if (a > (s64)READ_ONCE(ctx->flow_sent_hi)) {
		/* Acks what a failed device sent before this flow existed: re-base. */
		if (a > (s64)ctx->rebase_to)
			ctx->rebase_to = a;
		set_bit(TONIC_REBASE, &ctx->bits);
		if (after(ack, ctx->last_ack))
			ctx->last_ack = ack;
		kick = true;
		goto out;
	}
	if (a < 0)
		pkt.flags |= TONIC_PKT_F_NO_CUM;
	else
		pkt.cum_ack = tonic_off_seg(ctx, a, false);
	for (i = 0; i < nsack; i++) {
		s64 s = tonic_seq_off(ctx, sack[i][0]), e = tonic_seq_off(ctx, sack[i][1]);
		u32 ss, es;

		if (e <= 0 || e <= s)
			continue;
		/* D-SACK (RFC 2883): a duplicate below the cumulative ack says nothing new. */
		if (a >= 0 && e <= a)
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
	if (th->ece)
		pkt.flags |= TONIC_PKT_F_ECE;
	if (has_ts && tsecr && after(ack, ctx->last_ack)) {
		u32 ms = tcp_time_stamp_raw() + tp->tsoffset - tsecr;

		if (ms < 60000)
			pkt.rtt = (u32)min_t(u64, div_u64((u64)ms * NSEC_PER_MSEC * 1000,
						  ctx->dev->cycle_ps), U32_MAX);
	}
	if (after(ack, ctx->last_ack))
		ctx->last_ack = ack;
	if (ctx->dev->ops->incoming(ctx->dev, ctx->flow, &pkt))
		TONIC_INC(acks_dropped);
	else
		TONIC_INC(acks_in);
out:
	spin_unlock(&ctx->lock);
	if (kick)
		tonic_flow_kick(ctx);
}

static unsigned int tonic_tap_common(struct sk_buff *skb, struct sock *sk, int thoff,
				     int l4len)
{
	u8 optbuf[40];
	struct tcphdr _th;
	const struct tcphdr *th;
	const u8 *opt = NULL;
	int optlen;

	th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);
	if (!th || !th->ack || th->syn || th->rst || th->doff < 5)
		return NF_ACCEPT;
	optlen = th->doff * 4 - sizeof(*th);
	if (optlen) {
		opt = skb_header_pointer(skb, thoff + sizeof(*th), optlen, optbuf);
		if (!opt)
			return NF_ACCEPT;
	}
	if (l4len < th->doff * 4)
		return NF_ACCEPT;
	/* th may point into _th, which lives on this stack frame only. */
	tonic_tap(sk, th, opt, optlen, l4len - th->doff * 4);
	return NF_ACCEPT;
}

static bool tonic_is_ours(const struct sock *sk)
{
	return sk && sk_fullsock(sk) && sk->sk_protocol == IPPROTO_TCP &&
	       READ_ONCE(inet_csk(sk)->icsk_ulp_ops) == &tonic_ulp_ops;
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
	if (tonic_is_ours(sk))
		tonic_tap_common(skb, sk, thoff, ntohs(iph->tot_len) - iph->ihl * 4);
	else if (sk_fullsock(sk) && sk->sk_protocol == IPPROTO_TCP)
		tonic_auto_offload(sk);
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
	int thoff;

	if (ip6h->nexthdr != IPPROTO_TCP)	/* extension headers: TCP sees it, we do not */
		return NF_ACCEPT;
	thoff = skb_network_offset(skb) + sizeof(*ip6h);
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
	if (tonic_is_ours(sk))
		tonic_tap_common(skb, sk, thoff, ntohs(ip6h->payload_len));
	else if (sk_fullsock(sk) && sk->sk_protocol == IPPROTO_TCP)
		tonic_auto_offload(sk);
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
