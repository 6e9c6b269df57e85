// SPDX-License-Identifier: GPL-2.0
/*
 * bench_core: segment decisions per second of tonic-core on one core.
 *
 * The engine is looped back through a receiver model with a fixed RTT:
 * every descriptor becomes, RTT cycles later, the feedback its credit
 * scheme expects -- TCP cumulative ACK + SACK block (window scheme,
 * NewReno), RoCE ACK / NAK-sequence-error with go-back-N (rate, DCQCN),
 * NDP ACK + pull, with a trimmed-header NACK for a lost packet (grant, NDP).
 * Loss drops that fraction of data segments.
 *
 *   bench_core [-s seconds per case] [-r rtt cycles]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tonic.h"
#include "program.h"
#include "testprogs.h"

#define MAXF	TONIC_MAX_FLOWS
#define QCAP	(1u << 20)	/* feedback events in flight */
#define SEG	1000

struct ev {
	u64 due;
	u32 flow;
	struct tonic_pkt pkt;
};

static struct ev *q;
static u32 qhead, qtail;

struct rx {
	u32 next;
	u64 ooo[4];		/* received above next, by seg % 256 */
	u8 nak_sent;		/* RoCE: one NAK per gap */
};

static struct rx rxs[MAXF];
static u32 rng = 1;

static u32 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return rng;
}

/* Cheap timestamps around each tonic_run(); calibrated against the clock. */
static inline u64 ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	return __builtin_ia32_rdtsc();
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
#endif
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void put(u64 due, u32 flow, const struct tonic_pkt *p)
{
	struct ev *e = &q[qtail++ & (QCAP - 1)];

	e->due = due;
	e->flow = flow;
	e->pkt = *p;
}

static bool ooo_test(struct rx *r, u32 s)
{
	return (r->ooo[(s / 64) & 3] >> (s % 64)) & 1;
}

static void ooo_set(struct rx *r, u32 s, bool v)
{
	if (v)
		r->ooo[(s / 64) & 3] |= 1ULL << (s % 64);
	else
		r->ooo[(s / 64) & 3] &= ~(1ULL << (s % 64));
}

/* The receiver's answer to data segment @seg of @flow (lost or not). */
static void receive(enum tonic_credit_scheme sch, u32 flow, u32 seg, bool lost, u64 due)
{
	struct rx *r = &rxs[flow];
	struct tonic_pkt p;

	memset(&p, 0, sizeof(p));
	if (sch == TONIC_CREDIT_GRANT) {
		/* NDP: trimmed header -> NACK; every arrival -> one pull. */
		if (lost) {
			p.type = TONIC_PKT_NACK;
			p.flags = TONIC_PKT_F_NO_CUM;
			p.nack = seg;
			put(due, flow, &p);
		}
		memset(&p, 0, sizeof(p));
		p.type = TONIC_PKT_GRANT;
		p.grant = SEG;
		put(due, flow, &p);
		if (lost)
			return;
		memset(&p, 0, sizeof(p));
	} else if (lost) {
		return;
	}
	if (sch == TONIC_CREDIT_RATE) {
		/* RoCE receiver: in order only; a gap earns one NAK. */
		if (seg == r->next) {
			r->next++;
			r->nak_sent = 0;
			p.type = TONIC_PKT_ACK;
			p.cum_ack = r->next;
			put(due, flow, &p);
		} else if (tonic_after(seg, r->next) && !r->nak_sent) {
			r->nak_sent = 1;
			p.type = TONIC_PKT_NACK;
			p.cum_ack = r->next;
			p.nack = r->next;
			put(due, flow, &p);
		}
		return;
	}
	/* TCP / NDP: cumulative ack plus a SACK block for an out-of-order one. */
	p.type = TONIC_PKT_ACK;
	if (seg == r->next) {
		r->next++;
		while (ooo_test(r, r->next)) {
			ooo_set(r, r->next, false);
			r->next++;
		}
	} else if (tonic_after(seg, r->next) && seg - r->next < 256) {
		ooo_set(r, seg, true);
		p.nsack = 1;
		p.sack[0].start = seg;
		p.sack[0].end = seg + 1;
	}
	p.cum_ack = r->next;
	put(due, flow, &p);
}

struct result {
	u64 desc, rtx, busy, cycles;
	double wall, engine;
	u32 failed;
};

static void bench(const struct tonic_prog_ops *prog, u32 nflows, u32 loss_pm, u32 rtt,
		  double secs, struct result *res)
{
	struct tonic_core_cfg cfg = { .max_flows = MAXF, .wnd_bits = 128, .ring_depth = 16,
				      .cycle_ps = 10000, .in_queue = 1024 };
	static struct tonic_desc desc[64];
	static struct tonic_note note[256];
	struct tonic_out out = { .desc = desc, .max_desc = 64, .note = note, .max_note = 256 };
	struct tonic_core *tc = tonic_core_create(&cfg);
	struct tonic_core_stats cs;
	double t0, t1;
	u64 k0, eng = 0;
	u32 i, iter = 0;

	memset(res, 0, sizeof(*res));
	memset(rxs, 0, sizeof(rxs));
	qhead = qtail = 0;
	rng = 12345;
	for (i = 0; i < nflows; i++) {
		struct tonic_flow_cfg fc = { .prog = prog, .seg_size = SEG };

		if (tonic_flow_add(tc, i, &fc) || tonic_push(tc, i, 1u << 29, SEG)) {
			fprintf(stderr, "flow add/push failed\n");
			exit(1);
		}
	}
	t0 = now_s();
	k0 = ticks();
	for (;;) {
		u64 now = tonic_now(tc), until, nc, hd, start, a;

		/* Feed what is due (the queue holds them in due order). */
		while (qhead != qtail && q[qhead & (QCAP - 1)].due <= now) {
			struct ev *e = &q[qhead & (QCAP - 1)];

			if (tonic_incoming(tc, e->flow, &e->pkt) == -ENOBUFS)
				break;
			qhead++;
		}
		nc = tonic_next_cycle(tc);
		hd = qhead != qtail ? q[qhead & (QCAP - 1)].due : TONIC_IDLE;
		if (nc == TONIC_IDLE && hd == TONIC_IDLE)
			break;		/* everything stalled */
		/* Run up to 64 busy cycles, never past the next feedback. */
		start = nc < hd ? nc : hd;
		if (start < now)
			start = now;	/* feedback due but the incoming queue was full */
		until = start + 63;
		if (hd != TONIC_IDLE && hd > now && hd - 1 < until)
			until = hd - 1;	/* at worst just skips idle time up to hd */
		out.ndesc = 0;
		out.nnote = 0;
		a = ticks();
		tonic_run(tc, until, &out);
		eng += ticks() - a;
		for (i = 0; i < out.ndesc; i++) {
			bool lost = loss_pm && rnd() % 1000 < loss_pm;

			res->rtx += !!(desc[i].flags & TONIC_DESC_RTX);
			receive(prog->credit, desc[i].flow, desc[i].seg, lost, tonic_now(tc) + rtt);
		}
		for (i = 0; i < out.nnote; i++)
			res->failed += note[i].type == TONIC_NOTE_FAILED;
		res->desc += out.ndesc;
		if (qtail - qhead > QCAP - 4096) {
			fprintf(stderr, "feedback queue overflow\n");
			exit(1);
		}
		if (!(++iter & 1023) && now_s() - t0 > secs)
			break;
	}
	t1 = now_s();
	tonic_core_stats(tc, &cs);
	res->wall = t1 - t0;
	res->engine = res->wall * eng / (double)(ticks() - k0);
	res->busy = cs.busy_cycles;
	res->cycles = cs.cycles;
	tonic_core_destroy(tc);
}

static const struct tonic_prog_ops *prog_for(enum tonic_credit_scheme s)
{
#ifdef TONIC_HAVE_REGISTRY
	static const char *const names[] = { "newreno", "dcqcn", "ndp" };
	const struct tonic_prog_ops *p = tonic_prog_find(names[s]);

	if (p)
		return p;
#endif
	return s == TONIC_CREDIT_CWND ? &tp_win : s == TONIC_CREDIT_RATE ? &tp_rate : &tp_grant;
}

int main(int argc, char **argv)
{
	static const u32 flows[] = { 1, 64, 1024, 2048 };
	static const u32 losses[] = { 0, 10 };	/* per mille */
	static const char *const scheme[] = { "cwnd", "rate", "grant" };
	struct tonic_core_cfg cfg = { .max_flows = MAXF, .wnd_bits = 128, .ring_depth = 16,
				      .cycle_ps = 10000 };
	double secs = 0.4;
	u32 rtt = 1000, eng, tot, s, fi, li;

	for (int i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "-s"))
			secs = atof(argv[++i]);
		else if (!strcmp(argv[i], "-r"))
			rtt = atoi(argv[++i]);
	}
	q = calloc(QCAP, sizeof(*q));
	if (!q)
		return 1;
	printf("tonic-core bench: 10 ns cycles, %u B segments, window 128, ring 16, RTT %u cycles,\n"
	       "%.1f s per case, one core; hardware Tonic: 100 M decisions/s\n\n", SEG, rtt, secs);
	printf("%-6s %-8s %6s %5s %12s %9s %11s %9s %8s %7s\n", "scheme", "program", "flows", "loss",
	       "decisions", "Mdec/s", "eng Mdec/s", "ns/dec", "cyc/dec", "rtx %");
	for (s = 0; s < 3; s++) {
		const struct tonic_prog_ops *p = prog_for(s);

		for (fi = 0; fi < 4; fi++) {
			for (li = 0; li < 2; li++) {
				struct result r;

				bench(p, flows[fi], losses[li], rtt, secs, &r);
				printf("%-6s %-8s %6u %4.0f%% %12llu %9.2f %11.2f %9.1f %8.2f %7.2f%s\n",
				       scheme[s], p->name, flows[fi], losses[li] / 10.0,
				       (unsigned long long)r.desc, r.desc / r.wall / 1e6,
				       r.desc / r.engine / 1e6, r.engine * 1e9 / (r.desc ? r.desc : 1),
				       (double)r.cycles / (r.desc ? r.desc : 1),
				       100.0 * r.rtx / (r.desc ? r.desc : 1),
				       r.failed ? " (flows failed)" : "");
				fflush(stdout);
			}
		}
	}
	tot = tonic_core_flow_bytes(&cfg, &eng);
	printf("\nstate per flow: %u B engine (128-bit window, ring 16), %u B with 448 B user "
	       "state and counters\n", eng, tot);
	cfg.wnd_bits = 256;
	tot = tonic_core_flow_bytes(&cfg, &eng);
	printf("state per flow: %u B engine (256-bit window, ring 16), %u B total\n", eng, tot);
	printf("Mdec/s: wall clock incl. receiver model; eng: time inside tonic_run only;\n"
	       "cyc/dec: simulated 10 ns cycles per decision (1.00 = line rate)\n");
	free(q);
	return 0;
}
