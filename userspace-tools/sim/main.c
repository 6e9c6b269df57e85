// SPDX-License-Identifier: GPL-2.0
/*
 * tonic-sim [-s SEED] [-t DURATION_MS] SCENARIO OUTDIR
 *
 * Loads a scenario (config.c), builds the star network, runs the event
 * loop to the end time and writes CSV traces and summary.txt to OUTDIR.
 * The same scenario and seed always give byte-identical output.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "sim.h"

struct sim *sim_g;

#define EV_MEASURE	100	/* private: snapshot counters at measure_from */

struct pkt *pkt_alloc(struct sim *s)
{
	struct pkt *p = s->freelist;

	if (p)
		s->freelist = p->next;
	else if (!(p = malloc(sizeof(*p))))
		abort();
	memset(p, 0, sizeof(*p));
	return p;
}

void pkt_free(struct sim *s, struct pkt *p)
{
	p->next = s->freelist;
	s->freelist = p;
}

/* A packet reaches @node: the switch forwards it, a host consumes it. */
void sim_deliver(struct sim *s, u16 node, struct pkt *p)
{
	struct flow *f;

	if (node == SIM_SWITCH) {
		bool data = p->kind == PK_DATA;

		if (port_send(&s->down[p->dst], p) && data && !p->trimmed)
			pfc_in(s, p);
		return;
	}
	f = s->flows[p->flow];
	if (p->kind == PK_DATA)
		rx_data(s, f, p);
	else if (f->refdq)
		refdq_incoming(s, f, p);
	else if (f->impl == IMPL_REF)
		ref_incoming(s, f, p);
	else
		host_incoming(s, &s->hosts[node], f, p);
	pkt_free(s, p);
}

static void usage(void)
{
	fprintf(stderr, "usage: tonic-sim [-s SEED] [-t DURATION_MS] SCENARIO OUTDIR\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static struct sim sim;
	struct sim *s = &sim;
	long long seed = -1;
	double dur = -1;
	struct event e;
	u32 i;
	int c;

	while ((c = getopt(argc, argv, "s:t:")) != -1) {
		switch (c) {
		case 's':
			seed = atoll(optarg);
			break;
		case 't':
			dur = atof(optarg);
			break;
		default:
			usage();
		}
	}
	if (argc - optind != 2)
		usage();
	sim_g = s;
	s->seed = 1;
	s->cycle_ps = 10000;
	s->wnd_bits = 256;
	s->end = 10 * PS_PER_MS;
	s->outdir = argv[optind + 1];
	evq_init(&s->q);
	/* The seed directive must come first: config draws start jitter. */
	if (seed >= 0) {
		s->seed = (u64)seed;
		s->seed_fixed = 1;
	}
	rng_seed(&s->rng, s->seed);
	if (config_load(s, argv[optind]))
		return 1;
	if (dur > 0)
		s->end = (ps_t)(dur * PS_PER_MS);
	if (s->measure_from >= s->end)
		s->measure_from = 0;
	mkdir(s->outdir, 0755);
	for (i = 0; i < s->nhosts; i++)
		if (host_setup(s, &s->hosts[i]))
			return 1;
	for (i = 0; i < s->nflows; i++) {
		evq_push(&s->q, s->flows[i]->start, EV_FLOW_START, i, NULL);
		if (s->flows[i]->stop)
			evq_push(&s->q, s->flows[i]->stop, EV_FLOW_STOP, i, NULL);
	}
	evq_push(&s->q, s->measure_from, EV_MEASURE, 0, NULL);
	if (s->sample_every)
		evq_push(&s->q, 0, EV_SAMPLE, 0, NULL);
	trace_open(s);

	while (evq_pop(&s->q, &e) && e.t <= s->end) {
		s->now = e.t;
		s->events++;
		switch (e.type) {
		case EV_TX_DONE:
			port_tx_done(e.p);
			break;
		case EV_ARRIVE:
			sim_deliver(s, (u16)e.arg, e.p);
			break;
		case EV_HOST_WAKE:
			host_wake(s, &s->hosts[e.arg], e.t);
			break;
		case EV_DELACK:
			rx_delack(s, s->flows[e.arg], e.t);
			break;
		case EV_PULL:
			rx_pull(s, &s->hosts[e.arg], e.t);
			break;
		case EV_REF_RTO:
			if (s->flows[e.arg]->refdq)
				refdq_event(s, s->flows[e.arg], e.type, e.t);
			else
				ref_rto(s, s->flows[e.arg], e.t);
			break;
		case EV_REF_ALPHA:
		case EV_REF_RATE:
		case EV_REF_PACE:
			refdq_event(s, s->flows[e.arg], e.type, e.t);
			break;
		case EV_PFC_PAUSE:
		case EV_PFC_RESUME:
			pfc_event(s, &s->hosts[e.arg], e.type == EV_PFC_PAUSE);
			break;
		case EV_FLOW_START:
			host_flow_start(s, s->flows[e.arg]);
			break;
		case EV_FLOW_STOP:
			host_flow_stop(s, s->flows[e.arg]);
			break;
		case EV_PARAM:
			host_set_param(s, e.p);
			break;
		case EV_SAMPLE:
			trace_sample(s);
			evq_push(&s->q, s->now + s->sample_every, EV_SAMPLE, 0, NULL);
			break;
		case EV_MEASURE:
			for (i = 0; i < s->nflows; i++)
				s->flows[i]->rx_mark = s->flows[i]->rx.bytes;
			break;
		}
	}
	s->now = s->end;
	trace_close(s);
	trace_summary(s);
	return 0;
}
