/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ConWeave (seed 004: Song et al., SIGCOMM'23), host-side: the source
 * ToR's rerouting and the destination ToR's reordering, as per-flow state
 * machines fed with packets and time.  The glue owns the packets: the
 * source asks what to stamp on the next data packet (cw_src_tx), the
 * destination says what to do with one that arrived (cw_dst_rx) and when
 * held packets go (cw_dst_poll).
 *
 * Source, per flow: an RTT_REQUEST about once per probe interval on the
 * current path; no RTT_REPLY by the cutoff, or a NOTIFY, marks the path
 * congested.  A reroute needs (i) the current path congested, (ii)
 * another path not known to be congested, (iii) the previous reroute
 * complete (its CLEAR came back), so a flow has packets on at most two
 * paths.  The reroute's first packet is the old path's last: TAIL; the
 * packets after it carry the next epoch, on the new path, REROUTED until
 * the CLEAR.
 *
 * Destination, per flow: a REROUTED packet of an epoch whose TAIL has not
 * come is held (one queue per flow: at most two paths), released by the
 * TAIL or, if the TAIL is lost, by the resume timer; either answers with
 * a CLEAR.
 */
#ifndef _TONIC_CONWEAVE_H
#define _TONIC_CONWEAVE_H

#include "compat.h"

#define CW_PATHS_MAX	16
#define CW_EPOCH_MASK	3	/* 2 bits on the wire */

enum cw_op {
	CW_OP_NORMAL,
	CW_OP_RTT_REQUEST,
	CW_OP_RTT_REPLY,
	CW_OP_CLEAR,
	CW_OP_NOTIFY,
};

/* What a packet carries (the seed's fields; timestamps in us, 16 bits). */
struct cw_mark {
	u8 path;
	u8 op;		/* enum cw_op */
	u8 epoch;
	bool rerouted;
	bool tail;
	u16 tx_ts;
	u16 tail_tx_ts;
};

struct cw_src_cfg {
	u8 npaths;		/* 2 .. CW_PATHS_MAX */
	u32 probe_us;		/* an RTT_REQUEST at most this often */
	u32 cutoff_us;		/* no RTT_REPLY within it: congested */
	u32 busy_us;		/* a congested path is avoided this long */
	u32 seed;
};

struct cw_src {
	struct cw_src_cfg cfg;
	u8 path, epoch;
	bool await_clear;	/* (iii): the last reroute's CLEAR not back */
	bool congested;		/* the current path: reroute when allowed */
	bool probing;		/* an RTT_REQUEST without its reply */
	u16 probe_ts;
	u64 probe_sent, last_probe;
	u16 tail_ts;
	u64 busy_until[CW_PATHS_MAX];
	u32 rng;
	u32 reroutes, probes, late_replies, notifies;
};

void cw_src_init(struct cw_src *s, const struct cw_src_cfg *cfg, u8 path);
/*
 * The marks of the next data packet, sent at @now (us); @resend: the
 * packet was sent before, and never makes the reroute (its TAIL mark
 * would go where the lost one went).
 */
void cw_src_tx(struct cw_src *s, u64 now, bool resend, struct cw_mark *m);
/* A control packet from the destination (RTT_REPLY, NOTIFY, CLEAR). */
void cw_src_rx(struct cw_src *s, u64 now, const struct cw_mark *m);

enum cw_verdict {
	CW_PASS,	/* deliver it */
	CW_HOLD,	/* queue it: a REROUTED packet ahead of its TAIL */
	CW_PASS_RELEASE,	/* deliver it, then what was held (the TAIL) */
};

struct cw_dst {
	u32 resume_us;		/* a hold lasts at most this long */
	u8 open;		/* the epoch whose TAIL came (or was given up on) */
	u8 hold_epoch;		/* the epoch of what is held */
	bool holding;
	u64 resume_at;
	u32 held, tails, resumed;
};

void cw_dst_init(struct cw_dst *d, u32 resume_us, u8 epoch);
/*
 * A data packet arrived at @now; *@reply gets the control packet to send
 * back (CW_OP_NORMAL: none): RTT_REPLY for an RTT_REQUEST, CLEAR with a
 * TAIL.
 */
enum cw_verdict cw_dst_rx(struct cw_dst *d, u64 now, const struct cw_mark *m,
			  struct cw_mark *reply);
/* true: release what is held now (the TAIL is lost); *@reply is the CLEAR. */
bool cw_dst_poll(struct cw_dst *d, u64 now, struct cw_mark *reply);

#endif
