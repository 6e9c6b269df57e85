/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The transport programs shipped with tonic-core, and the few helpers they
 * share (common.c).  Every helper is as hardware-like as the programs that
 * call it: integer arithmetic on small operands, read-only bitmap lookups,
 * constant work per call.
 */
#ifndef _TONIC_PROGRAMS_H
#define _TONIC_PROGRAMS_H

#include "../program.h"

extern const struct tonic_prog_ops tonic_prog_reno;
extern const struct tonic_prog_ops tonic_prog_newreno;
extern const struct tonic_prog_ops tonic_prog_sack;
extern const struct tonic_prog_ops tonic_prog_ndp;
extern const struct tonic_prog_ops tonic_prog_dcqcn;
extern const struct tonic_prog_ops tonic_prog_irn;
extern const struct tonic_prog_ops tonic_prog_irn_dcqcn;
extern const struct tonic_prog_ops tonic_prog_ibcc;
extern const struct tonic_prog_ops tonic_prog_cubic;
extern const struct tonic_prog_ops tonic_prog_dctcp;
extern const struct tonic_prog_ops tonic_prog_rc;

/* Loss is inferred once this many segments were acked above a hole (RFC 5681/6675). */
#define TONIC_DUPTHRESH		3
/* Consecutive timeouts before the flow is given up (Linux tcp_retries2 is 15). */
#define TONIC_RTX_LIMIT		15
/* Exponential RTO backoff stops at base << this. */
#define TONIC_RTO_MAX_SHIFT	6

/* Retransmission timer shared by every program: base value and backoff. */
struct tonic_rto {
	u32 base;		/* cycles, before backoff */
	u8 backoff;		/* consecutive timeouts */
	u8 tlp;			/* TONIC_TLP_*: RFC 6675 recovery's probe timeout (sack.c) */
	u16 srtt;		/* smoothed RTT, 16 us units, with TONIC_TLP_RTT */
};

#define TONIC_TLP_RTT		0x1	/* srtt holds a sample */
#define TONIC_TLP_ARMED		0x2	/* the timer runs at the probe timeout, not the RTO */
#define TONIC_TLP_OUT		0x4	/* a probe (segment rtx_hi) is out */
#define TONIC_TLP_REO		0x8	/* ... at RACK's reordering window instead (sack.c) */

/*
 * State shared by the window-based TCP programs (reno, newreno, sack, cubic,
 * dctcp): the
 * first member of their user state, so the helpers below can work on it.
 */
struct tonic_tcp {
	u16 ssthresh;		/* segments (at most wnd_bits) */
	u16 rtx_hi;		/* low bits of highest_sent at the last retransmission, or the probe */
	u32 recover;		/* highest_sent when recovery began or the last RTO hit */
	u32 rtx_next;		/* segments below were retransmitted in this episode */
	struct tonic_rto rto;
	union {
		u16 cwnd_cnt;	/* open: acked segments towards the next +1 in congestion avoidance */
		u16 rtx_ms;	/* RFC 6675 recovery: its first retransmission, ms (sack.c) */
	};
	u8 dupacks:4;		/* saturates: DupThresh is 3 */
	u8 reord:4;		/* sack.c: recoveries left with the wider reordering window */
	u8 in_recovery:2;	/* 0, or TONIC_REC_* */
	u8 sack:1;		/* the peer SACKs: RFC 6675 recovery (tonic_tcp_incoming()) */
	u8 undo_ss:1;		/* that recovery began in slow start, which its undo resumes */
	u8 cwr:1;		/* `recover` ends a window an ECE cut: a loss in it is repaired, not cut */
	u8 remarked:1;		/* sack.c: holes resent again out of order in this recovery */
	/*
	 * sack.c's undo (Linux's prior_cwnd, undo_retrans): the flight and
	 * the window the last recovery began with, and 1 + its
	 * retransmissions not yet reported as duplicates (0: nothing to undo).
	 */
	u16 prior;
	u16 prior_cwnd;
	u16 undo_rtx;
};

/* How far `recover` may trail wnd_start (tonic_tcp_new_ack()). */
#define TONIC_RECOVER_LAG	(1u << 30)

/* struct tonic_tcp.in_recovery: in fast recovery ... */
#define TONIC_REC_FAST		1
/*
 * ... and a partial ack came: newreno has reset the RTO once (RFC 6582 3.2
 * (5)); RFC 6675 allows its rescue (HighACK > RescueRxt) ...
 */
#define TONIC_REC_PARTIAL	2
/* ... which was sent (RescueRxt = RecoveryPoint) */
#define TONIC_REC_RESCUED	3

/* What a congestion event is, for tonic_tcp_cc.ssthresh. */
enum tonic_cong_event {
	TONIC_CE_LOSS,		/* fast retransmit */
	TONIC_CE_ECN,		/* ECE, once per window */
	TONIC_CE_RTO,		/* retransmission timeout */
};

/*
 * The window-growth half of a TCP program, as tcp_congestion_ops is to
 * tcp_input.c: the loss-recovery helpers below ask it for the new ssthresh
 * at every congestion event and let it grow cwnd on new acks outside
 * recovery.  @t is the first member of the program's user state.
 * tonic_reno_cc is RFC 5681 (ssthresh = cwnd / 2 as Linux's, +1 per window).
 */
struct tonic_tcp_cc {
	void (*cong_avoid)(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, u32 acked);
	u32 (*ssthresh)(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, enum tonic_cong_event ev);
};

extern const struct tonic_tcp_cc tonic_reno_cc;

/*
 * What a TCP program shows (ss -ti shows it of kernel TCP): ssthresh, in
 * segments, the window before any congestion.  The glue mirrors it into
 * the socket with cwnd.  Every TCP program's state begins with its
 * struct tonic_tcp.
 */
extern const char *const tonic_tcp_info_names[];
void tonic_tcp_get_info(const void *user, u32 *vals);
void tonic_reno_cong_avoid(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, u32 acked);

u32 tonic_flight(const struct tonic_prog_ctx *ctx);
u64 tonic_cycles_us(const struct tonic_prog_ctx *ctx, u64 cycles);
u64 tonic_time_us(const struct tonic_prog_ctx *ctx);
u64 tonic_us_cycles(const struct tonic_prog_ctx *ctx, u64 us);
u32 tonic_prog_param(const struct tonic_prog_ctx *ctx, u32 i, u32 def, u32 max);
u32 tonic_hole_end(const struct tonic_prog_ctx *ctx, u32 off);
void tonic_gbn_mark(struct tonic_prog_ctx *ctx);

void tonic_rto_init(struct tonic_prog_ctx *ctx, struct tonic_rto *r);
void tonic_rto_progress(struct tonic_prog_ctx *ctx, struct tonic_rto *r);
void tonic_rto_backoff(struct tonic_prog_ctx *ctx, struct tonic_rto *r);

bool tonic_gbn_incoming(struct tonic_prog_ctx *ctx, struct tonic_rto *r);
void tonic_gbn_timeout(struct tonic_prog_ctx *ctx, struct tonic_rto *r);

void tonic_tcp_init(struct tonic_prog_ctx *ctx, struct tonic_tcp *t);
void tonic_tcp_init_sack(struct tonic_prog_ctx *ctx, struct tonic_tcp *t);
void tonic_tcp_new_ack(struct tonic_prog_ctx *ctx, struct tonic_tcp *t);
u8 tonic_tcp_dupack(struct tonic_tcp *t);
u32 tonic_tcp_slow_start(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, u32 acked);
void tonic_tcp_open(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, u32 acked,
		    const struct tonic_tcp_cc *cc);
/* An ECE cut this window of data, and nothing has been lost in it yet. */
static inline bool tonic_tcp_in_cwr(const struct tonic_prog_ctx *ctx, const struct tonic_tcp *t)
{
	return t->cwr && tonic_before(ctx->wnd_start, t->recover);
}

/*
 * Whether a loss may start a recovery: not for data sent before the last
 * recovery or RTO (RFC 6582 3.2 (2): echoes of losses already handled),
 * but after an ECE's cut, which repaired nothing.
 */
static inline bool tonic_tcp_may_enter(const struct tonic_prog_ctx *ctx, const struct tonic_tcp *t)
{
	return !tonic_before(ctx->wnd_start, t->recover) || tonic_tcp_in_cwr(ctx, t);
}

void tonic_tcp_enter_recovery(struct tonic_prog_ctx *ctx, struct tonic_tcp *t,
			      const struct tonic_tcp_cc *cc, enum tonic_cong_event ev);
void tonic_tcp_dupack_event(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, bool may_enter,
			    const struct tonic_tcp_cc *cc);
bool tonic_tcp_ecn(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, const struct tonic_tcp_cc *cc);
void tonic_tcp_timeout(struct tonic_prog_ctx *ctx, struct tonic_tcp *t, const struct tonic_tcp_cc *cc);
void tonic_tcp_periodic(struct tonic_prog_ctx *ctx);

/*
 * DCQCN's reaction point (dcqcn.c): rate control on CNPs, for a program
 * that brings its own reliability (dcqcn: go-back-N; irn-dcqcn: IRN).
 */
struct tonic_dcqcn {
	u32 rt;			/* target rate, kbps */
	u32 alpha;		/* Q16 */
	u32 bytes;		/* byte counter since the last CNP or B */
	u32 alpha_due;		/* us (low 32 bits) of the next alpha decay */
	u32 rate_due;		/* us of the next rate-increase timer event */
	u8 t_stage;		/* timer events since the last CNP */
	u8 bc_stage;		/* byte-counter events since the last CNP */
	u8 limited;		/* below line rate: increase machinery runs */
	u8 pad;
};

void tonic_dcqcn_init(struct tonic_prog_ctx *ctx, struct tonic_dcqcn *d);
void tonic_dcqcn_cnp(struct tonic_prog_ctx *ctx, struct tonic_dcqcn *d);
void tonic_dcqcn_periodic(struct tonic_prog_ctx *ctx, struct tonic_dcqcn *d);
extern const char *const tonic_dcqcn_info_names[];
void tonic_dcqcn_get_info(const struct tonic_dcqcn *d, u32 *vals);

/* NewReno's (newreno.c) and RFC 6675's (sack.c) loss recovery around the window growth of @cc. */
void tonic_newreno_incoming(struct tonic_prog_ctx *ctx, const struct tonic_tcp_cc *cc);
void tonic_sack_incoming(struct tonic_prog_ctx *ctx, const struct tonic_tcp_cc *cc);
void tonic_sack_probe_timeout(struct tonic_prog_ctx *ctx, const struct tonic_tcp_cc *cc);
void tonic_sack_start(struct tonic_prog_ctx *ctx, struct tonic_tcp *t);
/* The one of the two Linux's TCP would use: RFC 6675 once the peer SACKs. */
void tonic_tcp_incoming(struct tonic_prog_ctx *ctx, const struct tonic_tcp_cc *cc);

/* cubic.c's arithmetic, for its unit test: K (ms) and W_cubic(t) (segments). */
u32 tonic_cubic_k_ms(u32 dw);
u32 tonic_cubic_w(u32 w_max, u32 k_ms, u32 t_ms);

#endif /* _TONIC_PROGRAMS_H */
