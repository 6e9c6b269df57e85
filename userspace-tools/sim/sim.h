/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tonic-sim: a discrete-event network simulator around the real tonic-core
 * (libtonic-core.a).  Star topology: every host has one NIC port towards
 * a single switch, the switch has one egress port per host.  Time is in
 * picoseconds; the engines run in 10 ns cycles (cycle_ps).
 *
 * One concept per file:
 *   eventq.c    the event heap (time, insertion order: deterministic)
 *   rng.c       seeded random numbers and the hash-based loss pattern
 *   queue.c     switch/NIC queue admission: drop-tail, ECN (RED-style),
 *               IB FECN marking, NDP trimming, random loss
 *   port.c      a port = queue + link (rate, propagation delay)
 *   pfc.c       the switch's priority flow control (PAUSE / RESUME)
 *   host.c      a host's Tonic sender: one tonic_core, its flows, the NIC
 *   refnewreno.c an independent RFC 6582 NewReno sender (the reference)
 *               and the host's round robin of reference senders
 *   refdcqcn.c  an independent DCQCN reaction point (the reference)
 *   receiver.c  receivers: TCP cum+SACK (+delayed ACK), IRN NACK, RoCE
 *               go-back-N + DCQCN CNPs, IB BECNs, NDP acks/NACKs/pulls
 *   config.c    the scenario file
 *   trace.c     CSV traces and the summary
 *   main.c      wiring and the event loop
 */
#ifndef _TONIC_SIM_H
#define _TONIC_SIM_H

#include <stdio.h>
#include "tonic.h"
#include "program.h"

typedef u64 ps_t;
#define PS_PER_NS	1000ULL
#define PS_PER_US	1000000ULL
#define PS_PER_MS	1000000000ULL
#define PS_NONE		(~0ULL)

#define SIM_SWITCH	0xffff	/* node id of the switch */
#define SIM_MAX_HOSTS	1024
#define SIM_PUSH_CHUNK	4096	/* segments announced ahead of the ack */
#define SIM_RX_RING	16384	/* receiver out-of-order bitmap, segments */
#define SIM_TXN_RING	4096	/* per-flow transmission counters, segments */

enum pkt_kind { PK_DATA, PK_ACK, PK_NACK, PK_CNP, PK_GRANT };

struct pkt {
	struct pkt *next;
	u8 kind;
	u8 ce;			/* ECN congestion experienced */
	u8 fecn;		/* IB forward ECN */
	u8 trimmed;		/* NDP: payload cut, header kept */
	u8 rtx;
	u8 txn;			/* transmission number of this segment (0 = first) */
	u16 src, dst;		/* hosts */
	u32 flow;		/* global flow id */
	u32 seg, len;		/* data: segment index and payload bytes */
	u32 wire;		/* bytes on the wire */
	ps_t sent_at;
	struct tonic_pkt ctl;	/* control packets: what the sender's Tonic gets */
};

/* ---- eventq.c ---- */
enum ev_type {
	EV_TX_DONE,		/* p = port: the head packet finished serialisation */
	EV_ARRIVE,		/* arg = node, p = packet */
	EV_HOST_WAKE,		/* arg = host: engine has work at this cycle */
	EV_DELACK,		/* arg = flow: delayed-ACK timer */
	EV_PULL,		/* arg = host: NDP pull pacer */
	EV_REF_RTO,		/* arg = flow: reference sender's RTO */
	EV_FLOW_START,		/* arg = flow */
	EV_FLOW_STOP,		/* arg = flow */
	EV_SAMPLE,		/* trace sampling */
	EV_PARAM,		/* p = struct sim_param: change program parameters */
	EV_REF_ALPHA,		/* arg = flow: DCQCN reference's alpha timer (K) */
	EV_REF_RATE,		/* arg = flow: DCQCN reference's rate-increase timer (T) */
	EV_REF_PACE,		/* arg = flow: DCQCN reference's pacer allows a packet */
	EV_PFC_PAUSE,		/* arg = host: a PFC PAUSE reached its NIC */
	EV_PFC_RESUME,		/* arg = host: ... and the RESUME */
};

struct event {
	ps_t t;
	u64 seq;
	u32 type, arg;
	void *p;
};

struct eventq {
	struct event *h;
	u32 n, cap;
	u64 seq;
};

void evq_init(struct eventq *q);
void evq_free(struct eventq *q);
void evq_push(struct eventq *q, ps_t t, u32 type, u32 arg, void *p);
bool evq_pop(struct eventq *q, struct event *e);

/* ---- rng.c ---- */
struct rng {
	u64 s;
};

void rng_seed(struct rng *r, u64 seed);
u64 rng_next(struct rng *r);
double rng_unit(struct rng *r);				/* [0, 1) */
double hash_unit(u64 seed, u64 a, u64 b, u64 c);	/* deterministic [0, 1) */

/* ---- queue.c ---- */
struct aqm {
	u64 cap_bytes;		/* drop-tail limit (0 = unlimited) */
	u64 ecn_kmin, ecn_kmax;	/* RED-style ECN marking, bytes (kmax 0 = off) */
	double ecn_pmax;
	u64 fecn_thresh;	/* IB FECN: mark above this many bytes (0 = off) */
	double fecn_prob;	/* marking rate above the threshold */
	u32 trim;		/* NDP: trim instead of drop, to this many bytes */
	double loss;		/* random loss probability of data packets */
	u32 loss_hash;		/* loss decided by hash(seed, flow, seg, txn): same
				 * pattern for any sender */
};

enum { Q_ACCEPT, Q_DROP, Q_TRIM };

struct port;
int queue_admit(struct port *pt, struct pkt *p);
bool queue_lose(struct port *pt, const struct pkt *p);
struct flow;
int loss_list_load(struct flow *f, const char *path);

/* ---- port.c ---- */
struct port {
	char name[24];
	u64 rate_bps;
	ps_t delay;
	ps_t jitter;		/* extra delay, uniform in [0, jitter), order kept */
	ps_t last_arrival;
	struct aqm aqm;
	u16 to;			/* node at the far end */
	int host;		/* >= 0: this is host's NIC (backpressure to it) */
	struct pkt *head, *tail;	/* data */
	struct pkt *hhead, *htail;	/* control packets and trimmed headers */
	u32 qlen, hqlen;
	u64 qbytes;
	struct pkt *cur;	/* on the wire */
	bool paused;		/* PFC: no data starts until resumed */
	/* statistics */
	u64 tx_pkts, tx_bytes, drops, ecn_marks, fecn_marks, trims, losses;
	u64 busy_ps, max_qbytes;
};

void port_init(struct port *pt, const char *name, u64 rate_bps, ps_t delay, u16 to, int host);
/* Queue @p; false if the queue dropped it (and freed it). */
bool port_send(struct port *pt, struct pkt *p);
void port_pause(struct port *pt, bool pause);
void port_tx_done(struct port *pt);

/* ---- flows ---- */
enum rx_mode { RX_TCP = 1, RX_IRN, RX_GBN, RX_NDP };
enum impl { IMPL_TONIC, IMPL_REF };

struct rx {
	u8 mode;
	u8 sack;		/* TCP: SACK blocks */
	u8 nak_sent;		/* GBN: NAK for the current gap sent */
	u8 delack_armed;
	u32 delack;		/* TCP: ack every this many segments (1 = off) */
	ps_t delack_to, delack_at;
	u32 ack_every;		/* GBN/IRN: coalesce in-order acks */
	u32 cum;		/* next expected segment */
	u32 pending;		/* in-order segments not yet acked */
	u32 hi;			/* one past the highest segment received */
	u8 *got;		/* SIM_RX_RING bits, index seg % ring */
	ps_t cnp_gap;		/* RoCE NP: at most one CNP per flow per this */
	ps_t last_cnp;
	u8 cnp_on_ce, becn_on_fecn;
	/* statistics */
	u64 bytes, pkts, dups, ooo, ce, fecn, cnps, trims;
	ps_t done_at;
};

struct refnr;
struct refdq;

struct flow {
	u32 id;
	u16 src, dst;
	u32 local;		/* flow id inside the source host's tonic_core */
	u8 impl;
	u8 active, done, failed;
	u32 group;		/* tenant / class, for summaries */
	const struct tonic_prog_ops *prog;
	struct tonic_flow_cfg cfg;
	u32 seg_size, hdr;
	u64 size;		/* segments, 0 = unlimited */
	ps_t start, stop;
	u32 tail;		/* announced to Tonic */
	u32 acked;		/* last TONIC_NOTE_ACKED */
	u32 trace;		/* write seq.csv lines */
	u8 ref_queued;		/* in the host's reference round-robin queue */
	u32 lkey;		/* key of the hashed loss pattern (default: flow id) */
	u32 *txn_seg;		/* transmission counts per segment (loss pattern) */
	u8 *txn_cnt;
	u64 *loss_list;		/* replayed losses, sorted (seg << 8 | txn): when set,
				 * only these are lost, at the switch port */
	u32 nloss;
	struct rx rx;
	struct refnr *ref;	/* reference NewReno state */
	struct refdq *refdq;	/* reference DCQCN state (impl=ref prog=dcqcn) */
	/* statistics */
	u64 tx_pkts, rtx_pkts, ctl_drops;
	u64 ref_timeouts;	/* reference sender's RTOs (Tonic's are in its stats) */
	/* Tonic's stats of the flow when it left the engine (left: it did). */
	struct tonic_flow_stats final;
	bool left;
	u64 rx_mark;		/* rx.bytes at the start of the measurement */
	ps_t fct;
};

/* ---- host.c ---- */
struct host {
	u16 id;
	struct port nic;
	struct tonic_core *tc;
	u32 nlocal, max_local;
	struct flow **local;
	ps_t wake_at;
	ps_t phase;		/* where this host's cycle grid starts: hosts are not phase-locked */
	s32 ppm;		/* this host's clock: cycle = cycle_ps * (1 + ppm / 10^6) */
	/* NDP receiver pull pacer */
	u32 *pullq;
	u32 pull_head, pull_cnt, pull_cap;
	ps_t pull_next;
	u8 pull_armed;
	u64 in_drops;		/* control packets refused by a full incoming queue */
	bool tx_stalled;	/* the NIC is full: Tonic's transmit module waits */
	/* PFC, kept at the switch for this host's ingress port */
	u64 pfc_bytes;		/* its data in the switch's buffer */
	bool pfc_paused;	/* PAUSE sent, RESUME not yet */
	u64 pfc_pauses;
	/* reference senders: flows with window open, served round robin by the NIC */
	u32 *refq;
	u32 ref_head, ref_cnt, ref_cap;
};

struct sim;
int host_setup(struct sim *s, struct host *h);
void host_flow_start(struct sim *s, struct flow *f);
void host_flow_stop(struct sim *s, struct flow *f);

/* A `param` directive: new program parameters for one flow or a group. */
struct sim_param {
	u32 flow;		/* ~0u: every flow of @group */
	u32 group;
	u8 mask;		/* which of v[] to set */
	u32 v[TONIC_PROG_PARAMS];
};
void host_set_param(struct sim *s, const struct sim_param *sp);
void host_wake(struct sim *s, struct host *h, ps_t t);
void host_incoming(struct sim *s, struct host *h, struct flow *f, struct pkt *p);
void host_nic_drained(struct sim *s, struct host *h);
u32 host_next_txn(struct flow *f, u32 seg);

/* ---- refnewreno.c ---- */
void ref_start(struct sim *s, struct flow *f);
void ref_data_xmit(struct sim *s, struct flow *f, u32 seg, u32 *high);
void ref_incoming(struct sim *s, struct flow *f, struct pkt *p);
void ref_rto(struct sim *s, struct flow *f, ps_t t);
u32 ref_cwnd(const struct flow *f);
u32 ref_una(const struct flow *f);
u32 ref_nxt(const struct flow *f);
void ref_nic_drained(struct sim *s, struct host *h);
void ref_queue(struct sim *s, struct flow *f);

/* ---- refdcqcn.c ---- */
void refdq_start(struct sim *s, struct flow *f);
void refdq_incoming(struct sim *s, struct flow *f, struct pkt *p);
void refdq_event(struct sim *s, struct flow *f, u32 type, ps_t t);
bool refdq_can_send(struct sim *s, struct flow *f);
void refdq_send(struct sim *s, struct flow *f);
double refdq_rate_mbps(const struct flow *f);

/* ---- receiver.c ---- */
void rx_init(struct flow *f);
void rx_data(struct sim *s, struct flow *f, struct pkt *p);
void rx_delack(struct sim *s, struct flow *f, ps_t t);
void rx_pull(struct sim *s, struct host *h, ps_t t);

/* ---- trace.c ---- */
void trace_open(struct sim *s);
void trace_close(struct sim *s);
void trace_seq(struct sim *s, const struct flow *f, u32 seg, int rtx);
void trace_sample(struct sim *s);
void trace_summary(struct sim *s);

/* ---- pfc.c ---- */
void pfc_in(struct sim *s, const struct pkt *p);
void pfc_out(struct sim *s, const struct pkt *p);
void pfc_event(struct sim *s, struct host *h, bool pause);

/* ---- config.c ---- */
int config_load(struct sim *s, const char *path);

/* ---- the simulation ---- */
struct sim {
	u64 seed;
	u8 seed_fixed;		/* -s given: the file's seed directive is ignored */
	struct rng rng;
	struct eventq q;
	ps_t now, end, measure_from, sample_every;
	u32 cycle_ps;
	u32 clock_ppm;		/* host clocks drift by up to +-this many ppm */
	u32 nic_q;		/* packets a host's NIC queue holds (0 = SIM_NIC_Q) */
	u8 ref_fr_at_f;		/* DCQCN reference: fast recovery also at max(T, BC) = F */
	u8 ref_pacer_tb;	/* DCQCN reference: token-bucket pacer across rate changes */
	u64 pfc_xoff, pfc_xon;	/* PFC thresholds per ingress port, bytes (0 = no PFC) */
	u32 wnd_bits;
	u32 nhosts;
	struct host *hosts;
	struct port *down;	/* switch egress port towards host i */
	struct aqm sw_aqm;	/* defaults for switch ports */
	u32 nflows, cap_flows;
	struct flow **flows;
	const char *outdir;
	FILE *f_seq, *f_samples;
	struct pkt *freelist;
	u64 events;
	char name[64];
};

extern struct sim *sim_g;

struct pkt *pkt_alloc(struct sim *s);
void pkt_free(struct sim *s, struct pkt *p);
void sim_deliver(struct sim *s, u16 node, struct pkt *p);
/* Send a packet from host @h out of its NIC. */
void sim_host_send(struct sim *s, struct host *h, struct pkt *p);

/*
 * A NIC queues a couple of packets behind the one on the wire: senders stop
 * (the reference's round robin, Tonic's transmit module) while it is full.
 */
#define SIM_NIC_Q	2

static inline u32 sim_nic_q(const struct sim *s)
{
	return s->nic_q ? s->nic_q : SIM_NIC_Q;
}

static inline ps_t ser_ps(u64 bytes, u64 rate_bps)
{
	return bytes * 8ULL * 1000000000000ULL / rate_bps;
}

#endif /* _TONIC_SIM_H */
