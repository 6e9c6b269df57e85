// SPDX-License-Identifier: GPL-2.0
/*
 * A host's sender: one real tonic_core (libtonic-core.a) holding every
 * Tonic flow that starts at this host, and the NIC port it feeds.
 *
 * The engine is driven exactly as a NIC would: control packets go in with
 * tonic_incoming() at the cycle they arrive (the engine is first run up to
 * the cycle before, so nothing is handled early); the host wakes at
 * tonic_next_cycle() and runs that one cycle; each descriptor that comes
 * out becomes a packet (payload + header) in the NIC queue at that
 * instant.  While the NIC queue is full (sim_nic_q()) the transmit module
 * is stalled (tonic_tx_stall()), as a NIC's back-pressure stalls it; the
 * rest of the engine runs on.  Idle cycles cost nothing.  Segments are announced to Tonic in
 * chunks of SIM_PUSH_CHUNK ahead of the cumulative ack, which the engine
 * reports with TONIC_NOTE_ACKED.
 */
#include <stdlib.h>
#include <string.h>
#include "sim.h"

int host_setup(struct sim *s, struct host *h)
{
	struct tonic_core_cfg cfg = {
		.wnd_bits = s->wnd_bits,
		.ring_depth = TONIC_RING_DEFAULT,
		.cycle_ps = s->cycle_ps,
	};
	u32 i, n = 0;

	for (i = 0; i < s->nflows; i++)
		if (s->flows[i]->src == h->id && s->flows[i]->impl == IMPL_TONIC)
			n++;
	h->wake_at = PS_NONE;
	/*
	 * Each host's clock starts at a random phase within a cycle: with
	 * every engine on one global grid, packets from different hosts
	 * would tie at the switch on every cycle and the tie-break (event
	 * order) would decide drop-tail losses -- a classic phase effect.
	 */
	h->phase = rng_next(&s->rng) % s->cycle_ps;
	/*
	 * ... and runs at its own frequency: crystal oscillators differ by
	 * tens of ppm, so no sender keeps a fixed phase against the switch's
	 * serialisation (or another sender) for long.  Drawn only when asked
	 * for, so the random stream of other scenarios is unchanged.
	 */
	if (s->clock_ppm)
		h->ppm = (s32)(rng_next(&s->rng) % (2 * s->clock_ppm + 1)) - (s32)s->clock_ppm;
	if (!n)
		return 0;
	if (n > TONIC_MAX_FLOWS) {
		fprintf(stderr, "host %u: %u Tonic flows, at most %u\n", h->id, n, TONIC_MAX_FLOWS);
		return -1;
	}
	cfg.max_flows = n;
	h->tc = tonic_core_create(&cfg);
	h->local = calloc(n, sizeof(*h->local));
	if (!h->tc || !h->local)
		return -1;
	h->max_local = n;
	for (i = 0; i < s->nflows; i++) {
		struct flow *f = s->flows[i];

		if (f->src == h->id && f->impl == IMPL_TONIC) {
			f->local = h->nlocal++;
			h->local[f->local] = f;
		}
	}
	return 0;
}

/* Transmission number of @seg: the loss pattern is keyed on it. */
u32 host_next_txn(struct flow *f, u32 seg)
{
	u32 i = seg % SIM_TXN_RING;

	if (f->txn_seg[i] != seg) {
		f->txn_seg[i] = seg;
		f->txn_cnt[i] = 0;
	} else if (f->txn_cnt[i] < 255) {
		f->txn_cnt[i]++;
	}
	return f->txn_cnt[i];
}

/* The cycle the host's engine is in at the current time. */
static u64 host_cycle(struct sim *s, struct host *h)
{
	unsigned __int128 t;

	if (s->now <= h->phase)
		return 0;
	if (!h->ppm)
		return (s->now - h->phase) / s->cycle_ps;
	t = (unsigned __int128)(s->now - h->phase) * 1000000;
	return (u64)(t / ((u64)s->cycle_ps * (u64)(1000000 + h->ppm)));
}

/* When cycle @c starts on this host's clock (the inverse of host_cycle()). */
static ps_t host_cycle_time(struct sim *s, struct host *h, u64 c)
{
	unsigned __int128 t;

	if (!h->ppm)
		return c * s->cycle_ps + h->phase;
	t = (unsigned __int128)c * s->cycle_ps * (u64)(1000000 + h->ppm);
	return (ps_t)((t + 999999) / 1000000) + h->phase;
}

static void host_schedule(struct sim *s, struct host *h)
{
	u64 nc = tonic_next_cycle(h->tc);
	ps_t t;

	if (nc == TONIC_IDLE)
		return;
	t = host_cycle_time(s, h, nc);
	if (t < s->now)
		t = s->now;
	if (t < h->wake_at) {
		h->wake_at = t;
		evq_push(&s->q, t, EV_HOST_WAKE, h->id, NULL);
	}
}

static void host_push(struct sim *s, struct flow *f, u32 acked)
{
	struct host *h = &s->hosts[f->src];
	u64 want = (u64)acked + SIM_PUSH_CHUNK;
	int err;

	if (f->size && want > f->size)
		want = f->size;
	if (!tonic_after((u32)want, f->tail))
		return;
	/* Half a chunk of slack: one push per half chunk of acked data. */
	if (f->tail - acked > SIM_PUSH_CHUNK / 2 && (u32)want != (u32)f->size)
		return;
	err = tonic_push(h->tc, f->local, (u32)want, f->seg_size);
	if (!err)
		f->tail = (u32)want;
}

static void host_emit(struct sim *s, struct host *h, const struct tonic_desc *d)
{
	struct flow *f = h->local[d->flow];
	struct pkt *p = pkt_alloc(s);

	p->kind = PK_DATA;
	p->src = f->src;
	p->dst = f->dst;
	p->flow = f->id;
	p->seg = d->seg;
	p->len = d->len;
	p->wire = d->len + f->hdr;
	p->rtx = !!(d->flags & TONIC_DESC_RTX);
	p->txn = host_next_txn(f, d->seg);
	p->sent_at = s->now;
	f->tx_pkts++;
	if (p->rtx)
		f->rtx_pkts++;
	if (f->trace)
		trace_seq(s, f, d->seg, p->rtx);
	port_send(&h->nic, p);
	if (h->nic.qlen >= sim_nic_q(s)) {
		h->tx_stalled = true;
		tonic_tx_stall(h->tc, true);
	}
}

/*
 * The flow leaves the engine: keep its statistics first, as its id may be
 * reused (the next message of a count= flow).
 */
static void host_flow_leave(struct host *h, struct flow *f)
{
	tonic_flow_stats(h->tc, f->local, &f->final);
	f->left = true;
	tonic_flow_remove(h->tc, f->local);
}

static void host_note(struct sim *s, struct host *h, const struct tonic_note *n)
{
	struct flow *f = h->local[n->flow];

	switch (n->type) {
	case TONIC_NOTE_ACKED:
		f->acked = n->value;
		if (f->size && n->value == (u32)f->size) {
			/* Everything acked: the flow leaves Tonic, as close() would. */
			host_flow_leave(h, f);
			f->active = 0;
			return;
		}
		host_push(s, f, n->value);
		break;
	case TONIC_NOTE_FAILED:
		f->failed = 1;
		break;
	default:
		break;
	}
}

/* Run the engine through cycle @until; one descriptor per tonic_run(). */
static void host_run(struct sim *s, struct host *h, u64 until)
{
	struct tonic_desc d;
	struct tonic_note n[TONIC_NOTES_PER_CYCLE * 2];
	struct tonic_out out;
	u32 i;

	while (tonic_now(h->tc) <= until) {
		memset(&out, 0, sizeof(out));
		out.desc = &d;
		out.max_desc = 1;
		out.note = n;
		out.max_note = ARRAY_SIZE(n);
		tonic_run(h->tc, until, &out);
		for (i = 0; i < out.nnote; i++)
			host_note(s, h, &n[i]);
		if (out.ndesc)
			host_emit(s, h, &d);
		if (!out.ndesc && !out.nnote)
			break;
	}
}

void host_wake(struct sim *s, struct host *h, ps_t t)
{
	if (t != h->wake_at)
		return;		/* superseded by an earlier wake */
	h->wake_at = PS_NONE;
	host_run(s, h, host_cycle(s, h));
	host_schedule(s, h);
}

void host_flow_start(struct sim *s, struct flow *f)
{
	struct host *h = &s->hosts[f->src];
	u64 c = host_cycle(s, h);
	int err;

	f->active = 1;
	if (f->impl == IMPL_REF) {
		if (!strcmp(f->prog->name, "dcqcn"))
			refdq_start(s, f);
		else
			ref_start(s, f);
		return;
	}
	if (c)
		host_run(s, h, c - 1);
	err = tonic_flow_add(h->tc, f->local, &f->cfg);
	if (err) {
		fprintf(stderr, "flow %u: tonic_flow_add = %d\n", f->id, err);
		exit(1);
	}
	f->tail = 0;
	host_push(s, f, 0);
	host_schedule(s, h);
}

void host_flow_stop(struct sim *s, struct flow *f)
{
	struct host *h = &s->hosts[f->src];

	if (!f->active)
		return;
	f->active = 0;
	if (f->impl == IMPL_TONIC) {
		host_run(s, h, host_cycle(s, h) ? host_cycle(s, h) - 1 : 0);
		host_flow_leave(h, f);
	}
}

/*
 * Reconfigure live flows (e.g. ibccconfig changing CCTI_Increase): the
 * engine applies the values at each flow's next program call.  Flows not
 * started yet take them from their cfg.
 */
void host_set_param(struct sim *s, const struct sim_param *sp)
{
	u32 i, k;

	for (i = 0; i < s->nflows; i++) {
		struct flow *f = s->flows[i];
		struct host *h = &s->hosts[f->src];

		if (sp->flow != ~0u ? f->id != sp->flow : f->group != sp->group)
			continue;
		if (f->active && f->impl == IMPL_TONIC && host_cycle(s, h))
			host_run(s, h, host_cycle(s, h) - 1);
		for (k = 0; k < TONIC_PROG_PARAMS; k++) {
			if (!(sp->mask & (1u << k)))
				continue;
			f->cfg.param[k] = sp->v[k];
			if (f->active && f->impl == IMPL_TONIC)
				tonic_flow_set_param(h->tc, f->local, k, sp->v[k]);
		}
	}
}

void host_incoming(struct sim *s, struct host *h, struct flow *f, struct pkt *p)
{
	u64 c = host_cycle(s, h);

	if (!f->active)
		return;
	if (c)
		host_run(s, h, c - 1);
	if (tonic_incoming(h->tc, f->local, &p->ctl) == -ENOBUFS) {
		h->in_drops++;
		f->ctl_drops++;
	}
	host_schedule(s, h);
}

/* The NIC took a packet: reference senders waiting for it may go. */
void host_nic_drained(struct sim *s, struct host *h)
{
	u64 c;

	if (h->ref_cnt)
		ref_nic_drained(s, h);
	if (!h->tx_stalled || h->nic.qlen >= sim_nic_q(s))
		return;
	/* The cycles before this instant ran against a full NIC. */
	c = host_cycle(s, h);
	if (c)
		host_run(s, h, c - 1);
	h->tx_stalled = false;
	tonic_tx_stall(h->tc, false);
	host_schedule(s, h);
}
