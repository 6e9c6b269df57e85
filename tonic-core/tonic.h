/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tonic-core: the Tonic transport engines (NSDI'20) as a cycle-faithful model.
 *
 * Events in (flow add/remove, segments announced, control packets, time),
 * descriptors and notifications out.  Sequence space is in *segments*:
 * the caller maps segment indices to bytes.  All segments of a burst are
 * seg_size bytes except possibly the last one (a sub-segment); while a
 * sub-segment is outstanding no new segment may be announced, and the
 * engine emits TONIC_NOTE_BURST_DONE once it is acked -- unless the flow
 * has TONIC_FLOW_SHORT_SEGS: then a burst may follow its sub-segment at
 * once.
 *
 * One tonic_run() cycle lets every module handle at most one event, as the
 * hardware does; idle cycles are skipped.
 */
#ifndef _TONIC_H
#define _TONIC_H

#include "compat.h"
#include "counters.h"

#define TONIC_MAX_FLOWS		2048	/* compile-time bound; runtime count in cfg */
#define TONIC_WND_MAX		2048	/* segment window bitmap, bits */
#define TONIC_RING_MAX		64	/* per-flow ring of segment addresses */
#define TONIC_RING_DEFAULT	16
#define TONIC_MAX_SACK		4	/* SACK blocks per incoming packet */
#define TONIC_IDLE		(~0ULL)	/* tonic_next_cycle(): nothing to do */
#define TONIC_NOTES_PER_CYCLE	4	/* most notifications one cycle can emit */
#define TONIC_IN_QUEUE_DEFAULT	256	/* incoming-event queue depth */
#define TONIC_PROG_PARAMS	8	/* per-flow program parameters */
#define TONIC_PROG_INFO		2	/* values of a program's state a flow shows */

struct tonic_core;
struct tonic_prog_ops;

struct tonic_core_cfg {
	u32 max_flows;		/* 1 .. TONIC_MAX_FLOWS */
	u32 wnd_bits;		/* power of two, 128 .. TONIC_WND_MAX */
	u32 ring_depth;		/* N, power of two, <= TONIC_RING_MAX */
	u32 cycle_ps;		/* length of one cycle in picoseconds (10000 = 10 ns) */
	u32 in_queue;		/* depth of the incoming-event queue (0 = default) */
	u32 user_max;		/* user-state bytes reserved per flow (0 = 448) */
	/*
	 * Optional observer of events that produce no output (tracing):
	 * called from tonic_run() with TONIC_TRACE_* and two values.  NULL
	 * (the default) costs one predictable branch per such event.
	 */
	void (*trace)(void *arg, u32 event, u32 flow, u32 a, u32 b);
	void *trace_arg;
};

enum tonic_trace_event {
	TONIC_TRACE_LOSS,	/* a: first segment newly marked lost, b: how many */
	TONIC_TRACE_TIMEOUT,	/* a: wnd_start, b: rto (cycles) */
};

/* struct tonic_flow_cfg.flags */
#define TONIC_FLOW_SACK		0x1	/* the peer SACKs (a TCP handshake said so) */
/*
 * The host keeps each segment's length (sock-glue: a table of its bursts),
 * so a push may follow a sub-segment at once, no burst waits for the ack
 * of the one before, and there is no TONIC_NOTE_BURST_DONE.  A sub-segment
 * that is no longer the last announced is charged as seg_size bytes of
 * credit (the rate and grant schemes) and its descriptor says seg_size:
 * the host sends its real length.
 */
#define TONIC_FLOW_SHORT_SEGS	0x2

/* Per-flow parameters given at flow add; zero means "program default". */
struct tonic_flow_cfg {
	const struct tonic_prog_ops *prog;
	u32 seg_size;		/* C, bytes */
	u32 wnd_segs;		/* K: window limit in segments, <= wnd_bits */
	u32 init_cwnd;		/* segments, cwnd scheme */
	u32 init_rate_kbps;	/* rate scheme */
	u32 init_credit;	/* bytes, grant scheme */
	u32 rto_cycles;		/* retransmission timeout */
	u32 ack_notify;		/* emit TONIC_NOTE_ACKED every this many acked segments */
	u32 start_seg;		/* first segment index (wnd_start at add) */
	u32 init_rtt_us;	/* an RTT measured before the flow (a TCP handshake's), 0 = none */
	u32 flags;		/* TONIC_FLOW_* */
	/*
	 * Program parameters: their meaning is defined by each program
	 * (Documentation/programs.rst), 0 = the program's default.  Programs
	 * read them through ctx->cfg on every call, so a change made with
	 * tonic_flow_set_param() takes effect at the flow's next
	 * init/incoming/periodic call.
	 */
	u32 param[TONIC_PROG_PARAMS];
};

enum tonic_pkt_type {
	TONIC_PKT_ACK,		/* cumulative ack, optional SACK blocks, optional ECE */
	TONIC_PKT_NACK,		/* IRN NACK / NDP trimmed-header NACK for seg `nack` */
	TONIC_PKT_CNP,		/* RoCE CNP or IB BECN: congestion notification */
	TONIC_PKT_GRANT,	/* NDP pull / grant of `grant` bytes of credit */
};

#define TONIC_PKT_F_ECE		0x1	/* ACK echoes a congestion mark */
#define TONIC_PKT_F_NO_CUM	0x2	/* ACK/NACK: cum_ack not valid, ignore it */
/* NACK from a go-back-N receiver (RoCE): it kept nothing from cum_ack on. */
#define TONIC_PKT_F_GBN		0x4
/*
 * ACK whose sack[0] is a D-SACK (RFC 2883): segments that arrived twice,
 * below cum_ack or inside another block.  Stage 1 leaves it out of the
 * acked bitmap; programs read it to undo a needless recovery.
 */
#define TONIC_PKT_F_DSACK	0x8

/*
 * Incoming stage 1 (fixed) applies cum_ack and the SACK blocks of ACK and
 * NACK packets (CNP and GRANT packets carry neither).  A cum_ack behind
 * wnd_start is ignored (stale_ack); one beyond highest_sent rejects the
 * whole packet (bad_ack).  SACK blocks are clipped to
 * [wnd_start, highest_sent) (bad_sack counts clipped or dropped blocks);
 * a D-SACK block (TONIC_PKT_F_DSACK) is not applied.
 * A GRANT adds @grant bytes of credit to a grant-scheme flow.
 */

struct tonic_sack {
	u32 start, end;		/* acked segments [start, end) */
};

struct tonic_pkt {
	u32 type;		/* enum tonic_pkt_type */
	u32 flags;		/* TONIC_PKT_F_* */
	u32 cum_ack;		/* every segment before this one is acked */
	u32 nsack;
	struct tonic_sack sack[TONIC_MAX_SACK];
	u32 nack;		/* segment a NACK names */
	u32 grant;		/* bytes granted */
	u32 rtt;		/* RTT sample in cycles, 0 if none */
};

/* Index of @p's first SACK block that reports new arrivals (after any D-SACK). */
static inline u32 tonic_pkt_sack0(const struct tonic_pkt *p)
{
	return !!(p->flags & TONIC_PKT_F_DSACK);
}

#define TONIC_DESC_RTX		0x1	/* a retransmission */
#define TONIC_DESC_LAST		0x2	/* last segment announced (end of burst) */
#define TONIC_DESC_CWR		0x4	/* window was reduced: set CWR on the wire */
#define TONIC_DESC_WND		0x8	/* new data at the window limit: the flow waits for an ACK */

/* A segment address for the downstream DMA/packet builder. */
struct tonic_desc {
	u32 flow;
	u32 seg;
	u32 len;
	u32 flags;
};

enum tonic_note_type {
	TONIC_NOTE_ACKED,	/* value: cumulative ack (segments) */
	TONIC_NOTE_BURST_DONE,	/* value: segment after the acked sub-segment */
	TONIC_NOTE_FAILED,	/* value: enum tonic_fail */
};

enum tonic_fail {
	TONIC_FAIL_RTX_LIMIT = 1,	/* too many timeouts in a row */
};

struct tonic_note {
	u32 flow;
	u32 type;
	u32 value;
};

struct tonic_out {
	struct tonic_desc *desc;
	u32 ndesc, max_desc;
	struct tonic_note *note;
	u32 nnote, max_note;
};

/* Counters: per flow, and engine-wide for rejected input. */
struct tonic_flow_stats {
	u64 segs_sent, segs_rtx, segs_acked, bytes_sent;
	u64 timeouts, nacks, cnps, grants;
	u32 wnd_start, highest_sent, tail;
	u32 cwnd, rate_kbps, credit, outstanding;
	u32 last_rtt;
	u32 state;		/* TONIC_FLOW_* */
	u32 prog_info[TONIC_PROG_INFO];	/* TONIC_FLOW_INFO: the program's get_info() */
};

#define TONIC_FLOW_FAILED	0x1	/* stopped after TONIC_NOTE_FAILED */
#define TONIC_FLOW_SUB_BURST	0x2	/* pushes refused until the sub-segment is acked */
#define TONIC_FLOW_INFO		0x4	/* prog_info[] holds the program's values */

/* The engine's counters: one u64 per entry of TONIC_CORE_COUNTERS. */
struct tonic_core_stats {
#define TONIC_CORE_COUNTER_FIELD(name, NAME, doc)	u64 name;
	TONIC_CORE_COUNTERS(TONIC_CORE_COUNTER_FIELD)
#undef TONIC_CORE_COUNTER_FIELD
};

struct tonic_core *tonic_core_create(const struct tonic_core_cfg *cfg);
void tonic_core_destroy(struct tonic_core *tc);

int tonic_flow_add(struct tonic_core *tc, u32 flow, const struct tonic_flow_cfg *cfg);
int tonic_flow_remove(struct tonic_core *tc, u32 flow);

/*
 * Change program parameter @idx (< TONIC_PROG_PARAMS) of a live flow, as a
 * management write to the flow's configuration would: the program sees the
 * new value from its next call on (nothing runs now).  -ENOENT for no such
 * flow, -EINVAL for a bad @idx.
 */
int tonic_flow_set_param(struct tonic_core *tc, u32 flow, u32 idx, u32 value);

/*
 * Announce segments up to (not including) @tail; @last_len is the length of
 * segment tail - 1 (seg_size for a full one, less for a sub-segment).
 * -EBUSY while a sub-segment burst is still outstanding (not with
 * TONIC_FLOW_SHORT_SEGS).
 */
int tonic_push(struct tonic_core *tc, u32 flow, u32 tail, u32 last_len);

/* Queue a control packet for the Incoming module; -ENOBUFS when full. */
int tonic_incoming(struct tonic_core *tc, u32 flow, const struct tonic_pkt *pkt);

/* Earliest cycle at which the engine has work, TONIC_IDLE if none. */
u64 tonic_next_cycle(const struct tonic_core *tc);

/*
 * Run cycles up to and including @until, skipping idle ones, and stop early
 * when @out is full.  Returns the number of cycles executed.
 *
 * A cycle only starts with room for one descriptor and
 * TONIC_NOTES_PER_CYCLE notifications in @out; with out->max_note == 0
 * notifications are dropped (counted).  tonic_now() is the next cycle to
 * execute; after a run that was not cut short it is @until + 1.
 */
u64 tonic_run(struct tonic_core *tc, u64 until, struct tonic_out *out);

/*
 * Back-pressure from downstream (the NIC's queue is full): while @stalled
 * the transmit module sends nothing, and flows waiting only for it do not
 * make a cycle busy.  Every other module runs: control packets are taken,
 * timers fire, programs run, addresses are generated until a flow's ring
 * or window is full, rate credit accrues up to its burst.  A stalled run
 * needs no room for a descriptor in @out.
 */
void tonic_tx_stall(struct tonic_core *tc, bool stalled);

/*
 * The same for one flow (@on), whose own queue in the host is full (TCP
 * Small Queues), and no longer (!@on): then the host takes @credit more
 * descriptors of it (0: any number) before the flow is held again.  A
 * held flow's descriptors wait in its ring, and generation stops when
 * that is full: what the engine counts as sent is what the host took, and
 * programs see ctx->xoff.
 */
int tonic_flow_xoff(struct tonic_core *tc, u32 flow, bool on, u16 credit);

u64 tonic_now(const struct tonic_core *tc);
int tonic_flow_stats(const struct tonic_core *tc, u32 flow, struct tonic_flow_stats *st);
void tonic_core_stats(const struct tonic_core *tc, struct tonic_core_stats *st);

/*
 * Bytes of state per flow for @cfg: *engine is the fixed-function state
 * (flow variables, bitmaps, ring, set links, timers); the return value adds
 * the reserved user state and the statistics counters.
 */
u32 tonic_core_flow_bytes(const struct tonic_core_cfg *cfg, u32 *engine);

/* Program registry. */
const struct tonic_prog_ops *tonic_prog_find(const char *name);
const struct tonic_prog_ops *const *tonic_prog_list(u32 *n);

#endif /* _TONIC_H */
