// SPDX-License-Identifier: GPL-2.0
/*
 * The round trip of the device's segments.
 *
 * Kernel TCP measures the RTT on its retransmit queue (the send time of
 * each skb, tcp_clean_rtx_queue()), which is empty while the device sends:
 * srtt, rttvar, min_rtt and the RTO of an offloaded socket stayed the
 * handshake's, for ss -ti, for the pacing rate and TSO sizing (tx.c), and
 * for TCP after a handback.  So the glue stamps every segment it transmits
 * with its send time (a slot per segment number, modulo the ring; a slot
 * taken over by a later segment only costs that sample), and an ACK takes
 * its sample much as tcp_ack_update_rtt() does: from the newest segment it
 * newly acks, else from the newest it newly SACKs, else from the
 * timestamp echo (whole ms); from the echo at once when it acks a
 * retransmission (Karn).  The sample feeds the socket's own estimator
 * fields and the device's program (ack.c).
 *
 * Under the socket's lock or ownership: tonic_xmit() and the ACK commit,
 * both only for an attached flow, whose stamps tonic_attach() allocated.
 */
#include <net/tcp.h>
#include "glue.h"

/*
 * A slot's time is odd when it holds one; else its sample was taken (or it
 * never held one: zeroed), or the segment was resent.
 */
#define TONIC_STAMP_TAKEN	0
#define TONIC_STAMP_RTX		2

void tonic_rtt_reset(struct tonic_sk *ctx)
{
	memset(ctx->stamps, 0, TONIC_STAMPS * sizeof(*ctx->stamps));
}

/* Segments @seg .. @seg + @n - 1 go out at @now_us; a retransmission gives no sample. */
void tonic_rtt_stamp(struct tonic_sk *ctx, u32 seg, u32 n, bool rtx, u64 now_us)
{
	u32 us = rtx ? TONIC_STAMP_RTX : (u32)now_us | 1;

	while (n--) {
		struct tonic_stamp *s = &ctx->stamps[seg % TONIC_STAMPS];

		s->seg = seg++;
		s->us = us;
	}
}

static struct tonic_stamp *tonic_rtt_slot(struct tonic_sk *ctx, u32 seg)
{
	struct tonic_stamp *s = &ctx->stamps[seg % TONIC_STAMPS];

	return s->seg == seg ? s : NULL;
}

/* The time since segment @seg was sent, taken (one sample per transmission); -1: none. */
static long tonic_rtt_take(struct tonic_sk *ctx, u32 seg, u32 now)
{
	struct tonic_stamp *s = tonic_rtt_slot(ctx, seg);
	long us;

	if (!s || !(s->us & 1))
		return -1;
	us = (u32)(now - s->us);
	s->us = TONIC_STAMP_TAKEN;
	/* The clock wraps in 71 minutes; TCP's fixed point holds 8 x 60 s. */
	return us < 60 * USEC_PER_SEC ? us : -1;
}

/*
 * min_rtt over tcp_min_rtt_wlen, as tcp_update_rtt_min() keeps it.  Its
 * windowed filter, minmax_running_min(), is not exported: a new minimum,
 * or a window past its age, restarts the filter at this sample (the
 * filter's second-best candidates are not kept).
 */
static void tonic_rtt_min(struct sock *sk, u32 us)
{
	u32 wlen = READ_ONCE(sock_net(sk)->ipv4.sysctl_tcp_min_rtt_wlen) * HZ;
	struct minmax *m = &tcp_sk(sk)->rtt_min;
	u32 now = tcp_jiffies32;

	if (us <= minmax_get(m) || now - m->s[0].t > wlen)
		minmax_reset(m, now, us);
}

/*
 * RFC 6298 in kernel TCP's fixed point (srtt_us x 8, mdev_us x 4), so that
 * tcp_info and TCP after a handback read them as their own; rttvar no
 * lower than the RTO floor and the RTO as tcp_set_rto() makes them.
 */
static void tonic_rtt_estimate(struct sock *sk, long us)
{
	struct tcp_sock *tp = tcp_sk(sk);
	long m = us;

	tonic_rtt_min(sk, us ? : jiffies_to_usecs(1));
	if (tp->srtt_us) {
		m -= tp->srtt_us >> 3;
		tp->srtt_us = max_t(long, 1, (long)tp->srtt_us + m);
		m = abs(m) - (tp->mdev_us >> 2);
		tp->mdev_us += m;
	} else {
		tp->srtt_us = max_t(long, 1, m << 3);
		tp->mdev_us = m << 1;
	}
	tp->rttvar_us = max(tp->mdev_us, tcp_rto_min_us(sk));
	inet_csk(sk)->icsk_rto = __tcp_set_rto(tp);
	tcp_bound_rto(sk);
}

/*
 * The RTT sample of the ACK TCP accepted, @pkt as the device will see it
 * (cumulative ack and SACK blocks in segments), taken into the socket: in
 * us, -1 for none.  @first: the first segment it newly acks, if it newly
 * acks any; @ts_ms: its timestamp echo's age, or -1.  An ACK that covers
 * a retransmission gives the echo's age first: Karn's rule, and the
 * program's undo test (RFC 3522, sack.c) asks which transmission of the
 * resent hole it answers, which only the echo tells.
 */
long tonic_rtt_sample(struct sock *sk, struct tonic_sk *ctx, const struct tonic_pkt *pkt,
		      const u32 *first, long ts_ms)
{
	struct tonic_stamp *s = first ? tonic_rtt_slot(ctx, *first) : NULL;
	bool echo = s && s->us == TONIC_STAMP_RTX;
	u32 now = (u32)tcp_sk(sk)->tcp_mstamp;	/* TCP's receive path has just read the clock */
	u32 b = tonic_pkt_sack0(pkt);	/* the newest SACK block (RFC 2018) */
	long us = -1;

	if (!echo) {
		if (first)
			us = tonic_rtt_take(ctx, pkt->cum_ack - 1, now);
		if (us < 0 && pkt->nsack > b)
			us = tonic_rtt_take(ctx, pkt->sack[b].end - 1, now);
		echo = us < 0 && first;
	}
	if (echo && ts_ms >= 0)
		us = (ts_ms ? : 1) * USEC_PER_MSEC;
	if (us >= 0)
		tonic_rtt_estimate(sk, us);
	return us;
}
