/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tonic-core internals shared by the engine files: the flow table entry,
 * the engine instance, and the entry points of each module.
 */
#ifndef _TONIC_CORE_H
#define _TONIC_CORE_H

#include "compat.h"
#include "tonic.h"
#include "program.h"
#include "bitmap.h"
#include "fifo.h"
#include "timer.h"
#include "rate.h"

/* struct tonic_flow.flags */
#define TF_USED		0x01
#define TF_FAILED	0x02
#define TF_SUB		0x04	/* a sub-segment burst is outstanding */
#define TF_CWR		0x08	/* flag the next descriptor CWR */
#define TF_CWND_CAP	0x10	/* enforce cwnd (window scheme or prog->cwnd_cap) */
#define TF_XOFF		0x20	/* tonic_flow_xoff(): the host takes none of its descriptors */

/* Bitmaps per flow, in the order they sit in the flow's bitmap block. */
enum { TONIC_BM_ACKED, TONIC_BM_MARKED, TONIC_BM_RTX_DONE, TONIC_BM_NUM };

struct tonic_flow_counters {
	u64 segs_sent, segs_rtx, segs_acked, bytes_sent;
	u64 timeouts, nacks, cnps, grants;
	u32 last_rtt;
};

struct tonic_flow {
	struct tonic_flow_cfg cfg;	/* effective: defaults applied */
	/* Data-delivery engine. */
	u32 wnd_start;			/* first unacked segment */
	u32 highest_sent;		/* next new segment to generate */
	u32 tail;			/* segments announced: [.., tail) */
	u32 last_len;			/* bytes of segment tail - 1 */
	u32 cwnd, rto, period;
	u32 acked_since_note;
	u32 bytes_since_periodic;
	/*
	 * Bits set in the MARKED bitmap, kept where they change (marks,
	 * generation, the window's slide), so the per-segment path needs no
	 * scan of the bitmap to learn there is no retransmission to send.
	 */
	u16 marked;
	u64 rto_at, periodic_at;	/* cycles, TONIC_IDLE = disarmed */
	u16 gen;			/* incarnation, for queued input */
	u8 flags;			/* TF_* */
	u8 scheme;			/* enum tonic_credit_scheme */
	/* Credit engine. */
	u8 ring_head, ring_cnt;		/* ring of addresses; cnt = outstanding */
	u16 host_credit;		/* tonic_flow_xoff(): descriptors until held, 0 = no limit */
	u64 ring_rtx;			/* ring slots holding retransmissions */
	u32 credit;			/* grant scheme: tokens - bytes sent */
	u32 rate_kbps;
	struct tonic_rate rate;		/* rate scheme */
};

struct tonic_in_ent {
	u32 flow;
	u16 gen;
	struct tonic_pkt pkt;
};

struct tonic_core {
	struct tonic_core_cfg cfg;
	u64 now;			/* next cycle to execute */
	struct tonic_core_stats st;
	struct tonic_out *out;		/* during tonic_run() */
	bool tx_stalled;		/* tonic_tx_stall(): downstream is full */

	struct tonic_flow *flows;
	struct tonic_flow_counters *ctr;
	u64 *bm;			/* TONIC_BM_NUM bitmaps per flow */
	u32 bm_words;			/* u64 words per bitmap */
	u32 *ring;			/* ring_depth addresses per flow */
	u8 *user;			/* user_stride bytes per flow */
	u32 user_stride;
	u8 *scratch;			/* two user_stride buffers for merging */

	struct tonic_fifo active;	/* DD: flows with a segment to generate */
	struct tonic_fifo ready;	/* CR: flows with an address and credit */
	struct tonic_timers dd_timers;	/* rtx timer / periodic deadline */
	struct tonic_timers cr_timers;	/* rate eligibility */

	struct tonic_in_ent *inq;
	u32 in_head, in_cnt;

	/* One allocation holding the arrays above. */
	void *mem;
};

static inline struct tonic_bitmap tonic_flow_bm(struct tonic_core *tc, u32 id, u32 which)
{
	struct tonic_bitmap bm;

	tonic_bm_view(&bm, tc->bm + ((size_t)id * TONIC_BM_NUM + which) * tc->bm_words,
		      tc->cfg.wnd_bits, tc->flows[id].wnd_start);
	return bm;
}

static inline void *tonic_flow_user(struct tonic_core *tc, u32 id)
{
	return tc->user + (size_t)id * tc->user_stride;
}

/* Flow @id for a caller's request if it is in use; else NULL, counted. */
static inline struct tonic_flow *tonic_flow_in_use(struct tonic_core *tc, u32 id)
{
	if (id >= tc->cfg.max_flows || !(tc->flows[id].flags & TF_USED)) {
		tc->st.bad_flow++;
		return NULL;
	}
	return &tc->flows[id];
}

/* core.c */
void tonic_note(struct tonic_core *tc, u32 flow, u32 type, u32 value);
void tonic_flow_fail(struct tonic_core *tc, u32 id, u32 why);

/* delivery.c: segment generation and segment transmitted (DD engine). */

/* The window limit min(K, cwnd): new segments stay below wnd_start + this. */
static inline u32 tonic_dd_limit(const struct tonic_flow *f)
{
	if ((f->flags & TF_CWND_CAP) && f->cwnd < f->cfg.wnd_segs)
		return f->cwnd;
	return f->cfg.wnd_segs;
}

/* Whether the flow belongs in the active set (delivery.c); inline: every segment asks twice. */
static inline bool tonic_dd_can_generate(struct tonic_core *tc, u32 id)
{
	struct tonic_flow *f = &tc->flows[id];

	if ((f->flags & (TF_USED | TF_FAILED)) != TF_USED)
		return false;
	if (f->ring_cnt >= tc->cfg.ring_depth)
		return false;
	if (f->marked)
		return true;
	if (!tonic_before(f->highest_sent, f->tail))
		return false;
	return f->highest_sent - f->wnd_start < tonic_dd_limit(f);
}

void tonic_dd_update(struct tonic_core *tc, u32 id);
void tonic_dd_generate(struct tonic_core *tc);
void tonic_dd_transmitted(struct tonic_core *tc, u32 id);
void tonic_dd_timer_update(struct tonic_core *tc, u32 id);
void tonic_dd_timer_rekey(struct tonic_core *tc, u32 id);

/* credit.c: credit engine. */
void tonic_cr_enqueue(struct tonic_core *tc, u32 id, u32 seg, bool rtx);
void tonic_cr_update(struct tonic_core *tc, u32 id);
void tonic_cr_transmit(struct tonic_core *tc);
void tonic_cr_timer(struct tonic_core *tc);
void tonic_cr_add_credit(struct tonic_core *tc, u32 id, s64 delta);
void tonic_cr_set_rate(struct tonic_core *tc, u32 id, u32 kbps, u32 burst);
u32 tonic_cr_credit(struct tonic_core *tc, u32 id);
void tonic_cr_flush(struct tonic_core *tc, u32 id);

/* incoming.c */
struct tonic_in_info {
	u32 id;
	u32 old_wnd_start;
	u32 new_acked;
	const struct tonic_pkt *pkt;
};
bool tonic_in_stage1(struct tonic_core *tc, struct tonic_in_info *in);
void tonic_in_post(struct tonic_core *tc, const struct tonic_in_info *in);

/* periodic.c */
struct tonic_per_info {
	u32 id;
	bool timeout, periodic;
};
bool tonic_per_due(struct tonic_core *tc, struct tonic_per_info *pi);
void tonic_per_post(struct tonic_core *tc, const struct tonic_per_info *pi);

/* merge.c: calling programs and merging their writes. */
void tonic_prog_init_flow(struct tonic_core *tc, u32 id);
void tonic_prog_cycle(struct tonic_core *tc, const struct tonic_in_info *in,
		      const struct tonic_per_info *pi);

#endif /* _TONIC_CORE_H */
