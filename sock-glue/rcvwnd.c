// SPDX-License-Identifier: GPL-2.0
/*
 * What a segment the device sends tells the peer about our receive side.
 *
 * Each one acks all received (ack = rcv_nxt), as TCP's own segments do.
 * When it carries all an ACK of the kernel's would -- no SACK blocks owed,
 * no ECE, no data of the segment being received still to queue -- it is
 * that ACK: its window is chosen as tcp_select_window() chooses it
 * (rcv_wnd and rcv_wup follow, so timestamps echo the latest segment and
 * the window opens as the reader drains), and the socket no longer owes
 * the ACK (tcp_event_ack_sent(), tcp_event_data_sent()).  All three are
 * static to tcp_output.c; these mirror Linux 6.1's.  Otherwise the
 * segment offers the window last advertised, never more, and the kernel
 * sends its own ACK as before.
 *
 * Before, no segment was an ACK sent, for the socket: an offloaded client
 * of a request/response exchange sent each request and then the ACK it
 * had already carried, alone -- two packets per round trip where TCP
 * sends one.
 */
#include <net/tcp.h>
#include "glue.h"

/* A segment without options but timestamps: SACK blocks and ECE need TCP's own ACK. */
static bool tonic_acks_all(const struct tcp_sock *tp)
{
	return !tp->rx_opt.num_sacks && !tp->rx_opt.dsack &&
	       !(tp->ecn_flags & TCP_ECN_DEMAND_CWR);
}

/*
 * __tcp_select_window() for a socket that never shrinks its window (the
 * default, net.ipv4.tcp_shrink_window 0; with it set the offload still
 * never shrinks one): the free receive space, capped by rcv_ssthresh,
 * zero when nearly full, rounded as TCP rounds it.
 */
static u32 tonic_free_window(struct sock *sk)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	int mss = icsk->icsk_ack.rcv_mss;
	int free_space = tcp_space(sk);
	int allowed_space = tcp_full_space(sk);
	int full_space = min_t(int, tp->window_clamp, allowed_space);
	int window;

	if (unlikely(mss > full_space)) {
		mss = full_space;
		if (mss <= 0)
			return 0;
	}
	if (free_space < (full_space >> 1)) {
		icsk->icsk_ack.quick = 0;
		if (tcp_under_memory_pressure(sk))
			tcp_adjust_rcv_ssthresh(sk);
		free_space = round_down(free_space, 1 << tp->rx_opt.rcv_wscale);
		if (free_space < (allowed_space >> 4) || free_space < mss)
			return 0;
	}
	if (free_space > tp->rcv_ssthresh)
		free_space = tp->rcv_ssthresh;
	if (tp->rx_opt.rcv_wscale)
		return ALIGN(free_space, 1 << tp->rx_opt.rcv_wscale);
	/* Unscaled: a multiple of the MSS, kept while within one MSS of the space. */
	window = tp->rcv_wnd;
	if (window <= free_space - mss || window > free_space)
		window = rounddown(free_space, mss);
	else if (mss == full_space && free_space > window + (full_space >> 1))
		window = free_space;
	return window;
}

/* tcp_select_window(): the window to offer now, for th->window. */
static u16 tonic_select_window(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct net *net = sock_net(sk);
	u32 old_win = tp->rcv_wnd;
	u32 cur_win = tcp_receive_window(tp);
	u32 new_win = tonic_free_window(sk);

	if (new_win < cur_win) {
		/* Never shrink the offered window. */
		if (new_win == 0)
			NET_INC_STATS(net, LINUX_MIB_TCPWANTZEROWINDOWADV);
		new_win = ALIGN(cur_win, 1 << tp->rx_opt.rcv_wscale);
	}
	tp->rcv_wnd = new_win;
	tp->rcv_wup = tp->rcv_nxt;
	if (!tp->rx_opt.rcv_wscale && READ_ONCE(net->ipv4.sysctl_tcp_workaround_signed_windows))
		new_win = min(new_win, MAX_TCP_WINDOW);
	else
		new_win = min(new_win, 65535U << tp->rx_opt.rcv_wscale);
	new_win >>= tp->rx_opt.rcv_wscale;
	if (new_win == 0) {
		tp->pred_flags = 0;	/* the fast path assumes an open window */
		if (old_win)
			NET_INC_STATS(net, LINUX_MIB_TCPTOZEROWINDOWADV);
	} else if (old_win == 0) {
		NET_INC_STATS(net, LINUX_MIB_TCPFROMZEROWINDOWADV);
	}
	return new_win;
}

/*
 * The window field of a segment about to leave, which from here on is the
 * socket's ACK when it says all the kernel's would: not sent from inside
 * an ACK whose data TCP queues after it (@rcv_behind), which the
 * kernel's own ACK must cover.
 */
u16 tonic_rcv_window(struct sock *sk, bool rcv_behind)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	u16 win;

	if (rcv_behind || !tonic_acks_all(tp))
		return min_t(u32, tcp_receive_window(tp) >> tp->rx_opt.rcv_wscale, 65535U);
	win = tonic_select_window(sk);
	if (unlikely(tp->compressed_ack)) {
		NET_ADD_STATS(sock_net(sk), LINUX_MIB_TCPACKCOMPRESSED, tp->compressed_ack);
		tp->compressed_ack = 0;
		if (hrtimer_try_to_cancel(&tp->compressed_ack_timer) == 1)
			__sock_put(sk);
	}
	tcp_dec_quickack_mode(sk);
	inet_csk_clear_xmit_timer(sk, ICSK_TIME_DACK);
	/* Data sent within ato of the last received: an interactive session. */
	if ((u32)(tcp_jiffies32 - icsk->icsk_ack.lrcvtime) < icsk->icsk_ack.ato)
		inet_csk_enter_pingpong_mode(sk);
	return win;
}
