/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The programmable part of Tonic: what a transport program sees and may
 * change.  Modelled on struct tcp_congestion_ops.  A program is pure logic
 * over one flow: integer arithmetic on small operands, the read-only bitmap
 * helpers below, no loops over flows, bounded work per call.
 */
#ifndef _TONIC_PROGRAM_H
#define _TONIC_PROGRAM_H

#include "tonic.h"

enum tonic_credit_scheme {
	TONIC_CREDIT_CWND,	/* at most cwnd segments past wnd_start */
	TONIC_CREDIT_RATE,	/* rate_kbps with burst */
	TONIC_CREDIT_GRANT,	/* tokens received minus bytes sent */
};

/* User-state budgets per credit scheme, bytes (Tonic §3, Table 2). */
#define TONIC_USER_MAX_CWND	448
#define TONIC_USER_MAX_RATE	340
#define TONIC_USER_MAX_GRANT	256

/* A ring bitmap of wnd_bits bits whose bit 0 is segment wnd_start. */
struct tonic_bitmap;

/* Read-only bitmap operations available to programs (offsets from wnd_start). */
bool tonic_bm_test(const struct tonic_bitmap *bm, u32 off);
u32 tonic_bm_ffs(const struct tonic_bitmap *bm, u32 from);	/* first set at >= from, or wnd_bits */
u32 tonic_bm_ffz(const struct tonic_bitmap *bm, u32 from);	/* first clear at >= from, or wnd_bits */
u32 tonic_bm_count(const struct tonic_bitmap *bm, u32 from, u32 to);	/* set bits in [from, to) */

/* Which module's write wins when Incoming and Periodic touch the same variable in one cycle. */
enum tonic_prio {
	TONIC_PRIO_INCOMING,
	TONIC_PRIO_PERIODIC,
};

struct tonic_prog_ctx {
	/* Read-only inputs. */
	u64 now;			/* cycle */
	u32 cycle_ps;			/* length of a cycle: see tonic_time_us() */
	u32 wnd_start;			/* first unacked segment, after stage 1 */
	u32 old_wnd_start;		/* before this event */
	u32 new_acked;			/* segments newly acked by this event */
	u32 highest_sent;		/* next new segment to generate */
	u32 tail;			/* segments announced by the host */
	u32 seg_size;			/* C */
	u32 wnd_bits;
	u32 outstanding;		/* addresses generated but not yet transmitted */
	bool xoff;			/* the host limits them: holds the flow, or its credit is not spent */
	u32 bytes_sent;			/* since the last periodic call (for byte counters) */
	const struct tonic_bitmap *acked;
	const struct tonic_bitmap *rtx_marked;
	const struct tonic_bitmap *rtx_done;	/* retransmitted at least once */
	const struct tonic_pkt *pkt;	/* incoming(): the packet; periodic(): NULL */
	bool timeout;			/* periodic(): the retransmission timer fired */
	const struct tonic_flow_cfg *cfg;

	/* Read-write flow variables; the engine merges them after the call. */
	u32 cwnd;			/* segments (cwnd scheme, or prog->cwnd_cap) */
	u32 rate_kbps;			/* rate scheme */
	u32 burst;			/* rate scheme: max credit, bytes */
	u32 credit;			/* grant scheme: bytes; a change is applied
					 * as a delta (concurrent grants are kept);
					 * rate scheme: current credit, read-only */
	u32 rto;			/* cycles; the engine re-arms the timer with it */
	bool rearm_rto;			/* reset the retransmission timer to now + rto */
	u32 period;			/* cycles between periodic() calls, 0 = only on timeout */
	bool cwr;			/* flag the next descriptor TONIC_DESC_CWR */
	void *user;			/* prog->user_size bytes of program state */

	/*
	 * Loss recovery output: mark segments [mark_start, mark_end) for rtx.
	 * The engine clamps the range to [wnd_start, highest_sent) and skips
	 * segments already acked.
	 */
	u32 mark_start, mark_end;
	bool fail;			/* give up on the flow (TONIC_NOTE_FAILED) */
};

/*
 * Engine rules programs can rely on:
 * - the retransmission timer is armed (now + rto) when a segment is
 *   transmitted and none is running, disarmed when every generated segment
 *   is acked, re-armed with ctx->rto after a timeout while data is unacked,
 *   and reset whenever ctx->rearm_rto is set;
 * - periodic() runs every ctx->period cycles, and with ctx->timeout when the
 *   timer fires (a timeout is dropped if an ACK for the flow is handled in
 *   the same cycle; the timer then stays expired unless the ACK re-armed it);
 * - incoming() and periodic() of one flow in the same cycle both see the
 *   state from before the cycle; a variable written by only one of them
 *   takes that value, one written by both takes prog->prio's.  User state
 *   is merged in 32-bit words, so keep variables both handlers write in
 *   separate words;  marks, cwr, rearm_rto and fail are or-ed, credit
 *   deltas added.
 */
struct tonic_prog_ops {
	const char *name;
	/*
	 * The kernel module that provides the program (THIS_MODULE), held
	 * while a flow or socket uses it; NULL for the built-ins.
	 */
	struct module *owner;
	enum tonic_credit_scheme credit;
	u16 user_size;			/* bytes of user state, within the scheme's budget */
	enum tonic_prio prio;
	/*
	 * Rate and grant schemes: also enforce cwnd as a window limit (at
	 * most cwnd segments past wnd_start, e.g. IRN's BDP-FC).  The window
	 * scheme always does.
	 */
	bool cwnd_cap;
	/*
	 * Reacts to congestion notifications (TONIC_PKT_CNP): a glue marks
	 * the flow's packets ECN-capable so that queues mark, not drop, them.
	 */
	bool cnp;
	/*
	 * Recovers selectively (IRN): a NACK names the packet whose arrival
	 * triggered it (nack, one SACK block).  A glue whose receiver keeps
	 * packets out of order may say so; toward a receiver that drops them
	 * its NACKs carry TONIC_PKT_F_GBN.
	 */
	bool selective;
	/*
	 * 1 + the index of the parameter by which a flow's share of a
	 * bottleneck divides (ibcc: CCTI_Increase), which the device sets
	 * for the flows of a tenant (Documentation/rdma.rst); 0: none.
	 */
	u8 tenant_param;
	/*
	 * Optional, as tcp_congestion_ops' get_info() for ss -ti: values of
	 * a flow's state worth showing (ibcc: its CCTI), at most
	 * TONIC_PROG_INFO, named by info_names (NULL-terminated), read from
	 * the flow's user state between calls.
	 */
	const char *const *info_names;
	void (*get_info)(const void *user, u32 *vals);
	/*
	 * Defaults for the flow cfg fields that are zero at flow add.  The
	 * RTO is a time: the engine converts it to its own cycles.
	 */
	u32 def_cwnd, def_rate_kbps, def_credit, def_rto_us;

	void (*init)(struct tonic_prog_ctx *ctx);
	/* Incoming stage 2: loss detection/recovery and CC updates. */
	void (*incoming)(struct tonic_prog_ctx *ctx);
	/* Periodic module: timeouts (ctx->timeout) and periodic CC updates. */
	void (*periodic)(struct tonic_prog_ctx *ctx);
};

/*
 * @us microseconds in cycles of @cycle_ps picoseconds, at least one: the
 * engine's conversion of a program's default RTO, and programs' own timers
 * (tonic_us_cycles()).
 */
static inline u64 tonic_us_to_cycles(u32 cycle_ps, u64 us)
{
	u64 c = tonic_div64(us * 1000000, cycle_ps ? cycle_ps : 1);

	return c ? c : 1;
}

/* Mark segments [start, end) (absolute indices) for retransmission. */
static inline void tonic_mark_rtx(struct tonic_prog_ctx *ctx, u32 start, u32 end)
{
	ctx->mark_start = start;
	ctx->mark_end = end;
}

#endif /* _TONIC_PROGRAM_H */
