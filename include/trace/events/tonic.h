/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tonic tracepoints: flows coming and going, segments out, control packets
 * in, loss marked, timeouts (perf list 'tonic:*', bpftrace -l 'tracepoint:tonic:*').
 * Defined in driver/trace.c.
 *
 * The tonic_flow_*, tonic_segment_out, tonic_ack_in, tonic_loss and
 * tonic_timeout events are the device's: they fire where the device works
 * (the soft device's worker, the PCIe driver's interrupt path) and name the
 * flow by device and id, and by the 4-tuple its owner (a socket, an RDMA
 * QP's UDP flow) had when it was attached: src= and dest= as tcp:tcp_probe
 * prints them (0.0.0.0:0 for a device's own flow).  The tonic_sock_*
 * events are the socket's, fired
 * by sock-glue where the socket event happens (the application's call,
 * TCP's receive path for an ACK, the flow's work for what the device
 * asked), with the 4-tuple as tcp:tcp_probe carries it.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tonic

#if !defined(_TRACE_TONIC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TONIC_H

#include <linux/tracepoint.h>
#include <linux/ipv6.h>
#include <net/sock.h>
#include <net/inet_sock.h>
#include <trace/events/net_probe_common.h>
#include <tonic.h>	/* tonic-core */
#include <program.h>

struct tonic_dev;

/* Copy @flow's addresses, two struct sockaddr_in6-sized buffers (device.c). */
void tonic_dev_trace_addr(const struct tonic_dev *dev, u32 flow, void *src, void *dst);

#define TONIC_FLOW_ENTRY						\
	__array(__u8, saddr, sizeof(struct sockaddr_in6))		\
	__array(__u8, daddr, sizeof(struct sockaddr_in6))
#define TONIC_FLOW_ASSIGN(dev, flow)					\
	tonic_dev_trace_addr(dev, flow, __entry->saddr, __entry->daddr)

TRACE_EVENT(tonic_flow_add,
	TP_PROTO(const struct tonic_dev *dev, u32 flow, const struct tonic_flow_cfg *cfg),
	TP_ARGS(dev, flow, cfg),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		TONIC_FLOW_ENTRY
		__field(u32, seg_size)
		__array(char, prog, 16)
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		TONIC_FLOW_ASSIGN(dev, flow);
		__entry->seg_size = cfg->seg_size;
		strscpy(__entry->prog, cfg->prog ? cfg->prog->name : "", 16);
	),
	TP_printk("dev=%s flow=%u src=%pISpc dest=%pISpc prog=%s seg_size=%u",
		  __get_str(dev), __entry->flow, __entry->saddr, __entry->daddr,
		  __entry->prog, __entry->seg_size)
);

DECLARE_EVENT_CLASS(tonic_flow_class,
	TP_PROTO(const struct tonic_dev *dev, u32 flow, u32 value),
	TP_ARGS(dev, flow, value),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		TONIC_FLOW_ENTRY
		__field(u32, value)
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		TONIC_FLOW_ASSIGN(dev, flow);
		__entry->value = value;
	),
	TP_printk("dev=%s flow=%u src=%pISpc dest=%pISpc value=%u",
		  __get_str(dev), __entry->flow, __entry->saddr, __entry->daddr, __entry->value)
);

DEFINE_EVENT(tonic_flow_class, tonic_flow_fail,
	TP_PROTO(const struct tonic_dev *dev, u32 flow, u32 value),
	TP_ARGS(dev, flow, value));

TRACE_EVENT(tonic_flow_remove,
	TP_PROTO(const struct tonic_dev *dev, u32 flow),
	TP_ARGS(dev, flow),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		TONIC_FLOW_ENTRY
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		TONIC_FLOW_ASSIGN(dev, flow);
	),
	TP_printk("dev=%s flow=%u src=%pISpc dest=%pISpc",
		  __get_str(dev), __entry->flow, __entry->saddr, __entry->daddr)
);

/* A descriptor handed to the flow's client: one segment to transmit. */
TRACE_EVENT(tonic_segment_out,
	TP_PROTO(const struct tonic_dev *dev, const struct tonic_desc *d),
	TP_ARGS(dev, d),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		TONIC_FLOW_ENTRY
		__field(u32, seg)
		__field(u32, len)
		__field(u32, flags)
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = d->flow;
		TONIC_FLOW_ASSIGN(dev, d->flow);
		__entry->seg = d->seg;
		__entry->len = d->len;
		__entry->flags = d->flags;
	),
	TP_printk("dev=%s flow=%u src=%pISpc dest=%pISpc seg=%u len=%u flags=%s%s%s%s",
		  __get_str(dev), __entry->flow, __entry->saddr, __entry->daddr,
		  __entry->seg, __entry->len,
		  __entry->flags & TONIC_DESC_RTX ? "R" : "-",
		  __entry->flags & TONIC_DESC_LAST ? "L" : "-",
		  __entry->flags & TONIC_DESC_CWR ? "C" : "-",
		  __entry->flags & TONIC_DESC_WND ? "W" : "-")
);

/* A control packet (ACK, NACK, CNP, grant) fed to the device. */
TRACE_EVENT(tonic_ack_in,
	TP_PROTO(const struct tonic_dev *dev, u32 flow, const struct tonic_pkt *pkt, int err),
	TP_ARGS(dev, flow, pkt, err),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		TONIC_FLOW_ENTRY
		__field(u32, type)
		__field(u32, flags)
		__field(u32, cum_ack)
		__field(u32, nsack)
		__field(u32, rtt)
		__field(int, err)
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		TONIC_FLOW_ASSIGN(dev, flow);
		__entry->type = pkt->type;
		__entry->flags = pkt->flags;
		__entry->cum_ack = pkt->cum_ack;
		__entry->nsack = pkt->nsack;
		__entry->rtt = pkt->rtt;
		__entry->err = err;
	),
	TP_printk("dev=%s flow=%u src=%pISpc dest=%pISpc type=%u flags=0x%x cum_ack=%u "
		  "nsack=%u rtt=%u err=%d", __get_str(dev), __entry->flow, __entry->saddr,
		  __entry->daddr, __entry->type, __entry->flags, __entry->cum_ack, __entry->nsack,
		  __entry->rtt, __entry->err)
);

/* The program marked @count segments lost, the first at or after @start. */
TRACE_EVENT(tonic_loss,
	TP_PROTO(const struct tonic_dev *dev, u32 flow, u32 start, u32 count),
	TP_ARGS(dev, flow, start, count),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		TONIC_FLOW_ENTRY
		__field(u32, start)
		__field(u32, count)
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		TONIC_FLOW_ASSIGN(dev, flow);
		__entry->start = start;
		__entry->count = count;
	),
	TP_printk("dev=%s flow=%u src=%pISpc dest=%pISpc start=%u count=%u",
		  __get_str(dev), __entry->flow, __entry->saddr, __entry->daddr,
		  __entry->start, __entry->count)
);

/* The flow's retransmission timer fired (wnd_start: first unacked segment). */
TRACE_EVENT(tonic_timeout,
	TP_PROTO(const struct tonic_dev *dev, u32 flow, u32 wnd_start, u32 rto),
	TP_ARGS(dev, flow, wnd_start, rto),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		TONIC_FLOW_ENTRY
		__field(u32, wnd_start)
		__field(u32, rto)
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		TONIC_FLOW_ASSIGN(dev, flow);
		__entry->wnd_start = wnd_start;
		__entry->rto = rto;
	),
	TP_printk("dev=%s flow=%u src=%pISpc dest=%pISpc wnd_start=%u rto_cycles=%u",
		  __get_str(dev), __entry->flow, __entry->saddr, __entry->daddr,
		  __entry->wnd_start, __entry->rto)
);

/*
 * The socket's part of the tonic_sock_* events, as tcp:tcp_probe: the
 * addresses as struct sockaddr_in or sockaddr_in6 with the ports in them
 * (printed with %pISpc), the ports and family again for filters.
 */
#define TONIC_SK_ENTRY							\
	__field(const void *, skaddr)					\
	__field(__u16, family)						\
	__field(__u16, sport)						\
	__field(__u16, dport)						\
	__array(__u8, saddr, sizeof(struct sockaddr_in6))		\
	__array(__u8, daddr, sizeof(struct sockaddr_in6))

#define TONIC_SK_ASSIGN(sk)						\
	do {								\
		const struct inet_sock *inet = inet_sk(sk);		\
									\
		__entry->skaddr = sk;					\
		__entry->family = sk->sk_family;			\
		__entry->sport = ntohs(inet->inet_sport);		\
		__entry->dport = ntohs(inet->inet_dport);		\
		memset(__entry->saddr, 0, sizeof(struct sockaddr_in6));	\
		memset(__entry->daddr, 0, sizeof(struct sockaddr_in6));	\
		TP_STORE_ADDR_PORTS(__entry, inet, sk);			\
	} while (0)

#define TONIC_SK_FMT	"src=%pISpc dest=%pISpc "
#define TONIC_SK_ARGS	__entry->saddr, __entry->daddr

/* The socket's flow was added to a device (offload starts or resumes). */
TRACE_EVENT(tonic_sock_attach,
	TP_PROTO(const struct sock *sk, const struct tonic_dev *dev, u32 flow, u32 seg_size,
		 const char *prog_name),
	TP_ARGS(sk, dev, flow, seg_size, prog_name),
	TP_STRUCT__entry(
		TONIC_SK_ENTRY
		__string(dev, dev->name)
		__field(u32, flow)
		__field(u32, seg_size)
		__array(char, prog, 16)
	),
	TP_fast_assign(
		TONIC_SK_ASSIGN(sk);
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		__entry->seg_size = seg_size;
		strscpy(__entry->prog, prog_name, 16);
	),
	TP_printk(TONIC_SK_FMT "dev=%s flow=%u prog=%s seg_size=%u", TONIC_SK_ARGS,
		  __get_str(dev), __entry->flow, __entry->prog, __entry->seg_size)
);

/*
 * The socket went back to software TCP: @state is what it is now
 * (TONIC_SK_*), @bytes what TCP took over (sent or not, not yet acked).
 */
TRACE_EVENT(tonic_sock_handback,
	TP_PROTO(const struct sock *sk, u32 flow, u32 state, u64 bytes),
	TP_ARGS(sk, flow, state, bytes),
	TP_STRUCT__entry(
		TONIC_SK_ENTRY
		__field(u32, flow)
		__field(u32, state)
		__field(u64, bytes)
	),
	TP_fast_assign(
		TONIC_SK_ASSIGN(sk);
		__entry->flow = flow;
		__entry->state = state;
		__entry->bytes = bytes;
	),
	TP_printk(TONIC_SK_FMT "flow=%u state=%u bytes=%llu", TONIC_SK_ARGS,
		  __entry->flow, __entry->state, __entry->bytes)
);

/*
 * The socket's flow failed on its device (@rebase 0: the device's failed
 * note; 1: an ACK beyond what the device sent, after a failover), in the
 * flow's work: a tonic_sock_attach (another device, or the same one
 * again) or a tonic_sock_handback (software TCP) follows.
 */
TRACE_EVENT(tonic_sock_fail,
	TP_PROTO(const struct sock *sk, const struct tonic_dev *dev, u32 flow, bool rebase),
	TP_ARGS(sk, dev, flow, rebase),
	TP_STRUCT__entry(
		TONIC_SK_ENTRY
		__string(dev, dev->name)
		__field(u32, flow)
		__field(bool, rebase)
	),
	TP_fast_assign(
		TONIC_SK_ASSIGN(sk);
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		__entry->rebase = rebase;
	),
	TP_printk(TONIC_SK_FMT "dev=%s flow=%u rebase=%d", TONIC_SK_ARGS, __get_str(dev),
		  __entry->flow, __entry->rebase)
);

/* The device refused new segments up to @tail (the socket goes back to TCP). */
TRACE_EVENT(tonic_sock_push_refused,
	TP_PROTO(const struct sock *sk, u32 flow, u32 tail, int err),
	TP_ARGS(sk, flow, tail, err),
	TP_STRUCT__entry(
		TONIC_SK_ENTRY
		__field(u32, flow)
		__field(u32, tail)
		__field(int, err)
	),
	TP_fast_assign(
		TONIC_SK_ASSIGN(sk);
		__entry->flow = flow;
		__entry->tail = tail;
		__entry->err = err;
	),
	TP_printk(TONIC_SK_FMT "flow=%u tail=%u err=%d", TONIC_SK_ARGS,
		  __entry->flow, __entry->tail, __entry->err)
);

/*
 * A segment the device asked for went to IP for the socket (in the flow's
 * work, under lock_sock): @seq and @len its bytes (@segs descriptors
 * merged into one GSO skb), @rtx a retransmission, @err IP's verdict
 * (nonzero: lost, the device's timer resends it).
 */
TRACE_EVENT(tonic_sock_xmit,
	TP_PROTO(const struct sock *sk, u32 flow, u32 seq, u32 len, u32 segs, bool rtx, int err),
	TP_ARGS(sk, flow, seq, len, segs, rtx, err),
	TP_STRUCT__entry(
		TONIC_SK_ENTRY
		__field(u32, flow)
		__field(u32, seq)
		__field(u32, len)
		__field(u32, segs)
		__field(bool, rtx)
		__field(int, err)
	),
	TP_fast_assign(
		TONIC_SK_ASSIGN(sk);
		__entry->flow = flow;
		__entry->seq = seq;
		__entry->len = len;
		__entry->segs = segs;
		__entry->rtx = rtx;
		__entry->err = err;
	),
	TP_printk(TONIC_SK_FMT "flow=%u seq=%u len=%u segs=%u rtx=%d err=%d", TONIC_SK_ARGS,
		  __entry->flow, __entry->seq, __entry->len, __entry->segs, __entry->rtx,
		  __entry->err)
);

/*
 * An ACK TCP accepted, handed to the device (in TCP's receive path):
 * @snd_una its cumulative ack, @pkt what the device got (segments), @err
 * the device's answer (nonzero: dropped, the next ACK carries it).
 */
TRACE_EVENT(tonic_sock_ack,
	TP_PROTO(const struct sock *sk, u32 flow, u32 snd_una, const struct tonic_pkt *pkt,
		 int err),
	TP_ARGS(sk, flow, snd_una, pkt, err),
	TP_STRUCT__entry(
		TONIC_SK_ENTRY
		__field(u32, flow)
		__field(u32, snd_una)
		__field(u32, cum_ack)
		__field(u32, flags)
		__field(u32, nsack)
		__field(int, err)
	),
	TP_fast_assign(
		TONIC_SK_ASSIGN(sk);
		__entry->flow = flow;
		__entry->snd_una = snd_una;
		__entry->cum_ack = pkt->cum_ack;
		__entry->flags = pkt->flags;
		__entry->nsack = pkt->nsack;
		__entry->err = err;
	),
	TP_printk(TONIC_SK_FMT "flow=%u snd_una=%u cum_ack=%u flags=0x%x nsack=%u err=%d",
		  TONIC_SK_ARGS, __entry->flow, __entry->snd_una, __entry->cum_ack,
		  __entry->flags, __entry->nsack, __entry->err)
);

#endif /* _TRACE_TONIC_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH trace/events
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tonic
#include <trace/define_trace.h>
