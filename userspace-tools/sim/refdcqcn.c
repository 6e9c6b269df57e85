// SPDX-License-Identifier: GPL-2.0
/*
 * The DCQCN reference: a fixed-function reaction point written from the
 * DCQCN paper (Zhu et al., SIGCOMM'15, section 3.1 and its RP pseudocode),
 * sharing no code with tonic-core, as the Tonic paper compared its
 * `dcqcn` program with a hard-coded DCQCN.  Rates and alpha are doubles,
 * timers are events at their exact time, and the rate limiter is the NIC's
 * per-QP pacer:
 *
 *  - CNP: Rt = Rc, Rc = Rc (1 - alpha / 2), alpha = (1 - g) alpha + g;
 *    the alpha timer (K), the rate-increase timer (T) and the byte counter
 *    (B) restart, and so do their event counts T and BC;
 *  - every K without a CNP: alpha = (1 - g) alpha;
 *  - every T, and every B bytes sent, one rate-increase event:
 *      max(T, BC) < F:  fast recovery, Rt unchanged;
 *      min(T, BC) > F:  hyper increase, Rt += i R_HAI, i = min(T, BC) - F;
 *      otherwise:       additive increase, Rt += R_AI;
 *    then Rc = (Rt + Rc) / 2, both at most the line rate;
 *  - pacing: after a packet of L bytes the QP may send again L / Rc later,
 *    at the rate in force now (a rate change moves the next slot at once,
 *    as a rate limiter reprogrammed between packets does).
 *
 * The constants are the ones the `dcqcn` program defaults to (the paper's):
 * g = 1/256, K = T = 55 us, B = 10 MB, F = 5, R_AI = 40 Mb/s, R_HAI =
 * 400 Mb/s, and a 1 Mb/s floor (ConnectX's).  Reliability is RoCE's
 * go-back-N (a NAK or the RTO send everything again from the first
 * unacked packet).
 *
 * The host side is a NIC that pulls: the sender never queues more than
 * sim_nic_q() packets in its NIC, and QPs whose pacer allows a packet wait in
 * the host's round robin (refnewreno.c's ref_queue) until the NIC drains.
 *
 * Three switches exist only to test where Tonic's `dcqcn` differs from
 * this reference (evaluation.rst (3)): `ref_fr_at_f 1` makes max(T, BC) =
 * F a fast-recovery step too, as the program does; `nic_q N` lets every
 * NIC hold N packets (a large N is the unbounded NIC FIFO Tonic's 10 ns
 * engine filled before its transmit module stalled); `ref_pacer_tb 1` makes the pacer a token bucket across
 * rate changes, as Tonic's rate credit is (see dq_retime()).
 */
#include <stdlib.h>
#include "sim.h"

#define DQ_G		(1.0 / 256)
#define DQ_K		(55 * PS_PER_US)
#define DQ_T		(55 * PS_PER_US)
#define DQ_B		(10ULL << 20)
#define DQ_F		5
#define DQ_R_AI		40e6
#define DQ_R_HAI	400e6
#define DQ_R_MIN	1e6
#define DQ_RTO		(4000 * PS_PER_US)

struct refdq {
	double rc, rt, line;	/* b/s */
	double alpha;
	u64 bytes;		/* since the last CNP or byte-counter event */
	u32 t_cnt, bc_cnt;	/* T and BC: increase events since the last CNP */
	ps_t alpha_at, rate_at;	/* pending timer events (stale ones are ignored) */
	ps_t last_tx, next_tx;	/* pacer */
	ps_t pace_at;		/* pending EV_REF_PACE (PS_NONE: none) */
	double old_rc, credit;	/* ref_pacer_tb: token bucket since t_ref */
	ps_t t_ref;
	u32 una, nxt, high;	/* go-back-N, segments */
	ps_t rto, rto_at;
	u64 cnps;
};

double refdq_rate_mbps(const struct flow *f)
{
	return f->refdq ? f->refdq->rc / 1e6 : 0;
}

static void dq_arm(struct sim *s, struct flow *f, ps_t *at, ps_t t, u32 type)
{
	*at = t;
	evq_push(&s->q, t, type, f->id, NULL);
}

static void dq_timer_rto(struct sim *s, struct flow *f)
{
	struct refdq *d = f->refdq;

	if (d->una == d->high)
		d->rto_at = PS_NONE;
	else
		dq_arm(s, f, &d->rto_at, s->now + d->rto, EV_REF_RTO);
}

/* One rate-increase event, from the timer or the byte counter. */
static void dq_increase(struct sim *s, struct refdq *d)
{
	u32 lo = d->t_cnt < d->bc_cnt ? d->t_cnt : d->bc_cnt;
	u32 hi = d->t_cnt < d->bc_cnt ? d->bc_cnt : d->t_cnt;

	if (hi < DQ_F || (s->ref_fr_at_f && hi == DQ_F))
		;			/* fast recovery */
	else if (lo > DQ_F)
		d->rt += (lo - DQ_F) * DQ_R_HAI;
	else
		d->rt += DQ_R_AI;
	if (d->rt > d->line)
		d->rt = d->line;
	d->rc = (d->rt + d->rc) / 2;
	if (d->rc > d->line)
		d->rc = d->line;
}

/* The pacer allows a packet now; the window (same bitmap as Tonic's) too. */
bool refdq_can_send(struct sim *s, struct flow *f)
{
	struct refdq *d = f->refdq;

	return f->active && d->next_tx <= s->now && d->nxt - d->una < s->wnd_bits &&
	       (!f->size || d->nxt < f->size);
}

/*
 * The next slot after a rate change.  By default it follows from the last
 * packet at the rate in force now, as ns-3's RDMA model moves m_nextAvail.
 * With ref_pacer_tb, a token bucket one packet deep (Tonic's rate credit):
 * what accrued at the old rate is kept, the rest accrues at the new one.
 */
static void dq_retime(struct sim *s, struct flow *f)
{
	struct refdq *d = f->refdq;
	double bits = f->seg_size * 8.0, have;

	if (d->last_tx == PS_NONE)
		return;
	if (!s->ref_pacer_tb) {
		d->next_tx = d->last_tx + (ps_t)(bits * 1e12 / d->rc);
		return;
	}
	have = d->credit + (s->now - d->t_ref) / 1e12 * d->old_rc;
	if (have > bits)
		have = bits;
	d->credit = have;
	d->t_ref = s->now;
	d->old_rc = d->rc;
	d->next_tx = s->now + (ps_t)((bits - have) * 1e12 / d->rc);
}

static void dq_pace(struct sim *s, struct flow *f)
{
	struct refdq *d = f->refdq;

	if (d->next_tx > s->now) {
		/* An earlier slot (the rate went up) supersedes a pending one. */
		if (d->pace_at == PS_NONE || d->next_tx < d->pace_at) {
			d->pace_at = d->next_tx;
			evq_push(&s->q, d->next_tx, EV_REF_PACE, f->id, NULL);
		}
		return;
	}
	if (refdq_can_send(s, f))
		ref_queue(s, f);
	ref_nic_drained(s, &s->hosts[f->src]);
}

/* Called by the host's round robin when the NIC has room. */
void refdq_send(struct sim *s, struct flow *f)
{
	struct refdq *d = f->refdq;

	ref_data_xmit(s, f, d->nxt++, &d->high);
	if (d->rto_at == PS_NONE)
		dq_arm(s, f, &d->rto_at, s->now + d->rto, EV_REF_RTO);
	d->bytes += f->seg_size;
	if (d->bytes >= DQ_B) {
		d->bytes -= DQ_B;
		d->bc_cnt++;
		dq_increase(s, d);
	}
	d->last_tx = s->now;
	d->t_ref = s->now;
	d->credit = 0;
	d->old_rc = d->rc;
	dq_retime(s, f);
	dq_pace(s, f);
}

void refdq_start(struct sim *s, struct flow *f)
{
	struct refdq *d = calloc(1, sizeof(*d));

	if (!d)
		abort();
	f->refdq = d;
	d->line = f->cfg.init_rate_kbps ? f->cfg.init_rate_kbps * 1e3 : 40e9;
	d->rc = d->line;
	d->rt = d->line;
	d->alpha = 1.0;
	d->rto = f->cfg.rto_cycles ? (ps_t)f->cfg.rto_cycles * s->cycle_ps : DQ_RTO;
	d->rto_at = PS_NONE;
	d->last_tx = PS_NONE;
	d->next_tx = s->now;
	d->pace_at = PS_NONE;
	dq_arm(s, f, &d->alpha_at, s->now + DQ_K, EV_REF_ALPHA);
	dq_arm(s, f, &d->rate_at, s->now + DQ_T, EV_REF_RATE);
	dq_pace(s, f);
}

static void dq_cnp(struct sim *s, struct flow *f)
{
	struct refdq *d = f->refdq;

	d->cnps++;
	d->rt = d->rc;
	d->rc *= 1 - d->alpha / 2;
	if (d->rc < DQ_R_MIN)
		d->rc = DQ_R_MIN;
	d->alpha = (1 - DQ_G) * d->alpha + DQ_G;
	d->bytes = 0;
	d->t_cnt = 0;
	d->bc_cnt = 0;
	dq_arm(s, f, &d->alpha_at, s->now + DQ_K, EV_REF_ALPHA);
	dq_arm(s, f, &d->rate_at, s->now + DQ_T, EV_REF_RATE);
	dq_retime(s, f);
}

void refdq_incoming(struct sim *s, struct flow *f, struct pkt *p)
{
	struct refdq *d = f->refdq;
	u32 a = p->ctl.cum_ack;

	if (!f->active || !d)
		return;
	if (p->ctl.type == TONIC_PKT_CNP) {
		dq_cnp(s, f);
	} else if (!tonic_after(a, d->high) && !tonic_before(a, d->una)) {
		if (tonic_after(a, d->una)) {
			d->una = a;
			if (tonic_before(d->nxt, a))
				d->nxt = a;
			dq_timer_rto(s, f);
		}
		if (p->ctl.type == TONIC_PKT_NACK)
			d->nxt = d->una;	/* go back N */
		if (f->size && d->una == f->size) {
			f->active = 0;
			return;
		}
	}
	dq_pace(s, f);
}

/* EV_REF_ALPHA, EV_REF_RATE, EV_REF_PACE, EV_REF_RTO of a DCQCN reference flow. */
void refdq_event(struct sim *s, struct flow *f, u32 type, ps_t t)
{
	struct refdq *d = f->refdq;

	if (!d || !f->active)
		return;
	switch (type) {
	case EV_REF_ALPHA:
		if (t != d->alpha_at)
			return;
		d->alpha *= 1 - DQ_G;
		dq_arm(s, f, &d->alpha_at, t + DQ_K, EV_REF_ALPHA);
		return;
	case EV_REF_RATE:
		if (t != d->rate_at)
			return;
		d->t_cnt++;
		dq_increase(s, d);
		dq_arm(s, f, &d->rate_at, t + DQ_T, EV_REF_RATE);
		dq_retime(s, f);
		dq_pace(s, f);
		return;
	case EV_REF_PACE:
		if (t != d->pace_at)
			return;		/* superseded by an earlier slot */
		d->pace_at = PS_NONE;
		dq_pace(s, f);
		return;
	case EV_REF_RTO:
		if (t != d->rto_at)
			return;
		d->rto_at = PS_NONE;
		if (d->una == d->high)
			return;
		f->ref_timeouts++;
		d->nxt = d->una;
		dq_timer_rto(s, f);
		dq_pace(s, f);
		return;
	}
}
