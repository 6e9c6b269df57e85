/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tonic tracepoints: flows coming and going, segments out, control packets
 * in, loss marked, timeouts (perf list 'tonic:*', bpftrace -l 'tracepoint:tonic:*').
 * Defined in driver/trace.c.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tonic

#if !defined(_TRACE_TONIC_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_TONIC_H

#include <linux/tracepoint.h>
#include <tonic.h>	/* tonic-core */
#include <program.h>

struct tonic_dev;

TRACE_EVENT(tonic_flow_add,
	TP_PROTO(const struct tonic_dev *dev, u32 flow, const struct tonic_flow_cfg *cfg),
	TP_ARGS(dev, flow, cfg),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		__field(u32, seg_size)
		__array(char, prog, 16)
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		__entry->seg_size = cfg->seg_size;
		strscpy(__entry->prog, cfg->prog ? cfg->prog->name : "", 16);
	),
	TP_printk("dev=%s flow=%u prog=%s seg_size=%u", __get_str(dev), __entry->flow,
		  __entry->prog, __entry->seg_size)
);

DECLARE_EVENT_CLASS(tonic_flow_class,
	TP_PROTO(const struct tonic_dev *dev, u32 flow, u32 value),
	TP_ARGS(dev, flow, value),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		__field(u32, value)
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		__entry->value = value;
	),
	TP_printk("dev=%s flow=%u value=%u", __get_str(dev), __entry->flow, __entry->value)
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
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = flow;
	),
	TP_printk("dev=%s flow=%u", __get_str(dev), __entry->flow)
);

/* A descriptor handed to the flow's client: one segment to transmit. */
TRACE_EVENT(tonic_segment_out,
	TP_PROTO(const struct tonic_dev *dev, const struct tonic_desc *d),
	TP_ARGS(dev, d),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		__field(u32, seg)
		__field(u32, len)
		__field(u32, flags)
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = d->flow;
		__entry->seg = d->seg;
		__entry->len = d->len;
		__entry->flags = d->flags;
	),
	TP_printk("dev=%s flow=%u seg=%u len=%u flags=%s%s%s", __get_str(dev), __entry->flow,
		  __entry->seg, __entry->len,
		  __entry->flags & TONIC_DESC_RTX ? "R" : "-",
		  __entry->flags & TONIC_DESC_LAST ? "L" : "-",
		  __entry->flags & TONIC_DESC_CWR ? "C" : "-")
);

/* A control packet (ACK, NACK, CNP, grant) fed to the device. */
TRACE_EVENT(tonic_ack_in,
	TP_PROTO(const struct tonic_dev *dev, u32 flow, const struct tonic_pkt *pkt, int err),
	TP_ARGS(dev, flow, pkt, err),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
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
		__entry->type = pkt->type;
		__entry->flags = pkt->flags;
		__entry->cum_ack = pkt->cum_ack;
		__entry->nsack = pkt->nsack;
		__entry->rtt = pkt->rtt;
		__entry->err = err;
	),
	TP_printk("dev=%s flow=%u type=%u flags=0x%x cum_ack=%u nsack=%u rtt=%u err=%d",
		  __get_str(dev), __entry->flow, __entry->type, __entry->flags,
		  __entry->cum_ack, __entry->nsack, __entry->rtt, __entry->err)
);

/* The program marked @count segments lost, the first at or after @start. */
TRACE_EVENT(tonic_loss,
	TP_PROTO(const struct tonic_dev *dev, u32 flow, u32 start, u32 count),
	TP_ARGS(dev, flow, start, count),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		__field(u32, start)
		__field(u32, count)
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		__entry->start = start;
		__entry->count = count;
	),
	TP_printk("dev=%s flow=%u start=%u count=%u", __get_str(dev), __entry->flow,
		  __entry->start, __entry->count)
);

/* The flow's retransmission timer fired (wnd_start: first unacked segment). */
TRACE_EVENT(tonic_timeout,
	TP_PROTO(const struct tonic_dev *dev, u32 flow, u32 wnd_start, u32 rto),
	TP_ARGS(dev, flow, wnd_start, rto),
	TP_STRUCT__entry(
		__string(dev, dev->name)
		__field(u32, flow)
		__field(u32, wnd_start)
		__field(u32, rto)
	),
	TP_fast_assign(
		__assign_str(dev, dev->name);
		__entry->flow = flow;
		__entry->wnd_start = wnd_start;
		__entry->rto = rto;
	),
	TP_printk("dev=%s flow=%u wnd_start=%u rto_cycles=%u", __get_str(dev), __entry->flow,
		  __entry->wnd_start, __entry->rto)
);

#endif /* _TRACE_TONIC_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH trace/events
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE tonic
#include <trace/define_trace.h>
