// SPDX-License-Identifier: GPL-2.0
/*
 * The scenario file: one directive per line, `key=value` arguments, `#`
 * comments.  Unknown keys are errors (a typo must not silently change an
 * experiment).
 *
 *   name     NAME
 *   seed     N
 *   duration_ms X        measure_from_ms X     sample_us X (0 = no samples)
 *   wnd_bits 128|256     cycle_ps N
 *   clock_ppm N          each host's clock runs off by up to +-N ppm
 *   nic_q N              a host's NIC queue holds N packets (default 2): the
 *                        reference's senders and Tonic's transmit module wait
 *                        while it is full
 *   ref_fr_at_f 0|1      DCQCN reference: fast recovery at max(T, BC) = F
 *   ref_pacer_tb 0|1     DCQCN reference: token-bucket pacer across rate changes
 *   hosts    count= gbps= delay_us= jitter_ns=  add hosts (NIC + switch
 *            port; jitter on the host -> switch link)
 *   switch   buffer_kb= ecn_kmin_kb= ecn_kmax_kb= ecn_pmax= fecn_kb=
 *            fecn_prob= trim=             defaults for every switch port
 *            pfc_kb= pfc_xon_kb=          PFC: pause a host whose data in the
 *                                         switch exceeds pfc_kb, resume at
 *                                         pfc_xon_kb (default half of it)
 *   port     to= [same keys as switch] loss= hash=0|1
 *                                         override the port towards host `to`
 *   flow     src= dst= prog= impl=tonic|ref seg= hdr= segs= start_us=
 *            every_us= jitter_us= stop_us= count= rx=tcp|irn|gbn|ndp delack=
 *            delack_us= sack= ack_every= cnp= cnp_us= becn= init_cwnd=
 *            rate_gbps= rto_us= p0= .. p7= group= trace=
 *            loss_key= (flows with one key see the same hashed losses)
 *            loss_list=FILE (replay: lose exactly these transmissions,
 *            `SEG [TXN]` per line, at the switch port; no random loss)
 *            count > 1 adds flows whose starts are every_us apart.
 *            pN = program parameter N (cfg.param[N]; see programs.rst),
 *            decimal or 0x hex.
 *   param    at_us= flow=|group= p0= .. p7=
 *            change the given program parameters of a live flow (flow =
 *            index in file order, from 0) or of every flow of a group, as
 *            a management write (tonic_flow_set_param()).
 */
#include <stdlib.h>
#include <string.h>
#include <ctype.h>
#include "sim.h"
#include "programs/programs.h"

#define MAX_TOK 48

struct line {
	const char *path;
	int no;
	char *key[MAX_TOK], *val[MAX_TOK];
	u8 used[MAX_TOK];
	int n;
	bool bad;
};

static const char *get(struct line *l, const char *k)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->key[i], k)) {
			l->used[i] = 1;
			return l->val[i];
		}
	return NULL;
}

static double num(struct line *l, const char *k, double def)
{
	const char *v = get(l, k);
	char *end;
	double d;

	if (!v)
		return def;
	d = strtod(v, &end);
	if (*end) {
		fprintf(stderr, "%s:%d: %s=%s is not a number\n", l->path, l->no, k, v);
		l->bad = true;
	}
	return d;
}

/* p0= .. p7=: program parameters, into a flow cfg or a param directive. */
static void params(struct line *l, struct tonic_flow_cfg *cfg, struct sim_param *sp)
{
	static const char *const key[TONIC_PROG_PARAMS] = {
		"p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7"
	};
	u32 k;

	for (k = 0; k < TONIC_PROG_PARAMS; k++) {
		const char *v = get(l, key[k]);
		char *end;
		unsigned long x;

		if (!v)
			continue;
		x = strtoul(v, &end, 0);
		if (*end || x > 0xffffffffUL) {
			fprintf(stderr, "%s:%d: %s=%s is not a u32\n", l->path, l->no, key[k], v);
			l->bad = true;
		}
		if (cfg)
			cfg->param[k] = (u32)x;
		if (sp) {
			sp->v[k] = (u32)x;
			sp->mask |= 1u << k;
		}
	}
}

static bool leftovers(struct line *l)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (!l->used[i]) {
			fprintf(stderr, "%s:%d: unknown key '%s'\n", l->path, l->no, l->key[i]);
			l->bad = true;
		}
	return l->bad;
}

static void aqm_keys(struct line *l, struct aqm *a)
{
	a->cap_bytes = (u64)(num(l, "buffer_kb", a->cap_bytes / 1000.0) * 1000);
	a->ecn_kmin = (u64)(num(l, "ecn_kmin_kb", a->ecn_kmin / 1000.0) * 1000);
	a->ecn_kmax = (u64)(num(l, "ecn_kmax_kb", a->ecn_kmax / 1000.0) * 1000);
	a->ecn_pmax = num(l, "ecn_pmax", a->ecn_pmax);
	a->fecn_thresh = (u64)(num(l, "fecn_kb", a->fecn_thresh / 1000.0) * 1000);
	a->fecn_prob = num(l, "fecn_prob", a->fecn_prob);
	a->trim = (u32)num(l, "trim", a->trim);
}

static u8 rx_mode(struct line *l, const char *v)
{
	if (!v || !strcmp(v, "tcp"))
		return RX_TCP;
	if (!strcmp(v, "irn"))
		return RX_IRN;
	if (!strcmp(v, "gbn"))
		return RX_GBN;
	if (!strcmp(v, "ndp"))
		return RX_NDP;
	fprintf(stderr, "%s:%d: unknown rx=%s\n", l->path, l->no, v);
	l->bad = true;
	return RX_TCP;
}

static struct flow *flow_new(struct sim *s)
{
	struct flow *f = calloc(1, sizeof(*f));

	if (!f)
		abort();
	if (s->nflows == s->cap_flows) {
		s->cap_flows = s->cap_flows ? 2 * s->cap_flows : 256;
		s->flows = realloc(s->flows, s->cap_flows * sizeof(*s->flows));
		if (!s->flows)
			abort();
	}
	f->id = s->nflows;
	s->flows[s->nflows++] = f;
	return f;
}

static int do_flow(struct sim *s, struct line *l)
{
	struct flow proto = { 0 };
	const char *prog = get(l, "prog"), *impl = get(l, "impl");
	u32 count = (u32)num(l, "count", 1), i;
	ps_t start = (ps_t)(num(l, "start_us", 0) * PS_PER_US);
	ps_t every = (ps_t)(num(l, "every_us", 0) * PS_PER_US);
	double jitter = num(l, "jitter_us", 0);
	ps_t stop = (ps_t)(num(l, "stop_us", 0) * PS_PER_US);
	double rate = num(l, "rate_gbps", 0), rto = num(l, "rto_us", 0);
	const char *llist = get(l, "loss_list");

	proto.src = (u16)num(l, "src", 0);
	proto.dst = (u16)num(l, "dst", 1);
	proto.seg_size = (u32)num(l, "seg", 1000);
	proto.hdr = (u32)num(l, "hdr", 0);
	proto.size = (u64)num(l, "segs", 0);
	proto.group = (u32)num(l, "group", 0);
	proto.trace = (u32)num(l, "trace", 0);
	proto.lkey = (u32)num(l, "loss_key", ~0u);
	proto.impl = impl && !strcmp(impl, "ref") ? IMPL_REF : IMPL_TONIC;
	if (impl && strcmp(impl, "ref") && strcmp(impl, "tonic")) {
		fprintf(stderr, "%s:%d: impl=%s\n", l->path, l->no, impl);
		l->bad = true;
	}
	proto.prog = tonic_prog_find(prog ? prog : "newreno");
	if (!proto.prog) {
		fprintf(stderr, "%s:%d: no program '%s'\n", l->path, l->no, prog);
		l->bad = true;
	}
	proto.rx.mode = rx_mode(l, get(l, "rx"));
	proto.rx.delack = (u32)num(l, "delack", 1);
	proto.rx.delack_to = (ps_t)(num(l, "delack_us", 200) * PS_PER_US);
	proto.rx.sack = (u8)num(l, "sack", 0);
	proto.rx.ack_every = (u32)num(l, "ack_every", 1);
	proto.rx.cnp_on_ce = (u8)num(l, "cnp", 0);
	proto.rx.cnp_gap = (ps_t)(num(l, "cnp_us", 50) * PS_PER_US);
	proto.rx.becn_on_fecn = (u8)num(l, "becn", 0);
	proto.cfg.prog = proto.prog;
	proto.cfg.seg_size = proto.seg_size;
	proto.cfg.init_cwnd = (u32)num(l, "init_cwnd", 0);
	proto.cfg.init_rate_kbps = (u32)(rate * 1e6);
	proto.cfg.rto_cycles = (u32)(rto * PS_PER_US / s->cycle_ps);
	params(l, &proto.cfg, NULL);
	proto.cfg.ack_notify = 64;
	if (leftovers(l))
		return -1;
	if (proto.src >= s->nhosts || proto.dst >= s->nhosts || proto.src == proto.dst) {
		fprintf(stderr, "%s:%d: bad src/dst (have %u hosts)\n", l->path, l->no, s->nhosts);
		return -1;
	}
	for (i = 0; i < count; i++) {
		struct flow *f = flow_new(s);
		u32 id = f->id;

		*f = proto;
		f->id = id;
		f->start = start + i * every;
		if (jitter > 0)
			f->start += (ps_t)(rng_unit(&s->rng) * jitter * PS_PER_US);
		f->stop = stop;
		if (f->lkey == ~0u)
			f->lkey = id;
		f->txn_seg = malloc(SIM_TXN_RING * sizeof(u32));
		f->txn_cnt = calloc(SIM_TXN_RING, 1);
		if (!f->txn_seg || !f->txn_cnt)
			abort();
		memset(f->txn_seg, 0xff, SIM_TXN_RING * sizeof(u32));
		f->loss_list = NULL;
		f->nloss = 0;
		if (llist && loss_list_load(f, llist))
			return -1;
		rx_init(f);
	}
	return 0;
}

static int do_param(struct sim *s, struct line *l)
{
	struct sim_param *sp = calloc(1, sizeof(*sp));
	ps_t at = (ps_t)(num(l, "at_us", 0) * PS_PER_US);
	const char *fl = get(l, "flow"), *gr = get(l, "group");
	char *end;

	if (!sp)
		abort();
	params(l, NULL, sp);
	if (!fl == !gr || !sp->mask) {
		fprintf(stderr, "%s:%d: param needs one of flow=/group= and a pN=\n", l->path, l->no);
		l->bad = true;
	}
	sp->flow = fl ? (u32)strtoul(fl, &end, 0) : ~0u;
	sp->group = gr ? (u32)strtoul(gr, &end, 0) : 0;
	if (leftovers(l)) {
		free(sp);
		return -1;
	}
	evq_push(&s->q, at, EV_PARAM, 0, sp);
	return 0;
}

static int do_hosts(struct sim *s, struct line *l)
{
	u32 n = (u32)num(l, "count", 1), i;
	u64 bps = (u64)(num(l, "gbps", 10) * 1e9);
	ps_t delay = (ps_t)(num(l, "delay_us", 1) * PS_PER_US);
	ps_t jitter = (ps_t)(num(l, "jitter_ns", 0) * PS_PER_NS);

	if (leftovers(l))
		return -1;
	if (s->nhosts + n > SIM_MAX_HOSTS)
		return -1;
	s->hosts = realloc(s->hosts, (s->nhosts + n) * sizeof(*s->hosts));
	s->down = realloc(s->down, (s->nhosts + n) * sizeof(*s->down));
	if (!s->hosts || !s->down)
		abort();
	for (i = s->nhosts; i < s->nhosts + n; i++) {
		char name[24];

		memset(&s->hosts[i], 0, sizeof(s->hosts[i]));
		s->hosts[i].id = (u16)i;
		snprintf(name, sizeof(name), "nic%u", i);
		port_init(&s->hosts[i].nic, name, bps, delay, SIM_SWITCH, (int)i);
		s->hosts[i].nic.jitter = jitter;
		snprintf(name, sizeof(name), "sw->%u", i);
		port_init(&s->down[i], name, bps, delay, (u16)i, -1);
		s->down[i].aqm = s->sw_aqm;
	}
	s->nhosts += n;
	return 0;
}

static int do_port(struct sim *s, struct line *l)
{
	u32 to = (u32)num(l, "to", 0);
	struct aqm a;

	if (to >= s->nhosts) {
		fprintf(stderr, "%s:%d: port to=%u: no such host\n", l->path, l->no, to);
		return -1;
	}
	a = s->down[to].aqm;
	aqm_keys(l, &a);
	a.loss = num(l, "loss", a.loss);
	a.loss_hash = (u32)num(l, "hash", a.loss_hash);
	if (leftovers(l))
		return -1;
	s->down[to].aqm = a;
	return 0;
}

static int directive(struct sim *s, const char *d, struct line *l, const char *arg)
{
	if (!strcmp(d, "name")) {
		snprintf(s->name, sizeof(s->name), "%s", arg ? arg : "");
		return 0;
	}
	if (!strcmp(d, "seed") || !strcmp(d, "duration_ms") || !strcmp(d, "measure_from_ms") ||
	    !strcmp(d, "sample_us") || !strcmp(d, "wnd_bits") || !strcmp(d, "cycle_ps") ||
	    !strcmp(d, "clock_ppm") || !strcmp(d, "nic_q") || !strcmp(d, "ref_fr_at_f") ||
	    !strcmp(d, "ref_pacer_tb")) {
		double v = arg ? strtod(arg, NULL) : 0;

		if (!strcmp(d, "seed")) {
			if (!s->seed_fixed) {
				s->seed = (u64)v;
				rng_seed(&s->rng, s->seed);
			}
		}
		else if (!strcmp(d, "duration_ms"))
			s->end = (ps_t)(v * PS_PER_MS);
		else if (!strcmp(d, "measure_from_ms"))
			s->measure_from = (ps_t)(v * PS_PER_MS);
		else if (!strcmp(d, "sample_us"))
			s->sample_every = (ps_t)(v * PS_PER_US);
		else if (!strcmp(d, "wnd_bits"))
			s->wnd_bits = (u32)v;
		else if (!strcmp(d, "clock_ppm"))
			s->clock_ppm = (u32)v;
		else if (!strcmp(d, "nic_q"))
			s->nic_q = (u32)v;
		else if (!strcmp(d, "ref_fr_at_f"))
			s->ref_fr_at_f = (u8)v;
		else if (!strcmp(d, "ref_pacer_tb"))
			s->ref_pacer_tb = (u8)v;
		else
			s->cycle_ps = (u32)v;
		return 0;
	}
	if (!strcmp(d, "hosts"))
		return do_hosts(s, l);
	if (!strcmp(d, "switch")) {
		u32 i;

		aqm_keys(l, &s->sw_aqm);
		for (i = 0; i < s->nhosts; i++)
			s->down[i].aqm = s->sw_aqm;
		s->pfc_xoff = (u64)(num(l, "pfc_kb", s->pfc_xoff / 1000.0) * 1000);
		s->pfc_xon = (u64)(num(l, "pfc_xon_kb", s->pfc_xoff / 2000.0) * 1000);
		return leftovers(l) ? -1 : 0;
	}
	if (!strcmp(d, "port"))
		return do_port(s, l);
	if (!strcmp(d, "flow"))
		return do_flow(s, l);
	if (!strcmp(d, "param"))
		return do_param(s, l);
	fprintf(stderr, "%s:%d: unknown directive '%s'\n", l->path, l->no, d);
	return -1;
}

int config_load(struct sim *s, const char *path)
{
	FILE *fp = fopen(path, "r");
	char buf[4096];
	int no = 0, err = 0;

	if (!fp) {
		perror(path);
		return -1;
	}
	while (!err && fgets(buf, sizeof(buf), fp)) {
		struct line l = { .path = path, .no = ++no };
		char *p = strchr(buf, '#'), *tok, *save = NULL, *d, *arg = NULL;

		if (p)
			*p = 0;
		d = strtok_r(buf, " \t\r\n", &save);
		if (!d)
			continue;
		while ((tok = strtok_r(NULL, " \t\r\n", &save))) {
			char *eq = strchr(tok, '=');

			if (!eq) {
				arg = tok;
				continue;
			}
			if (l.n == MAX_TOK)
				break;
			*eq = 0;
			l.key[l.n] = tok;
			l.val[l.n++] = eq + 1;
		}
		err = directive(s, d, &l, arg);
	}
	fclose(fp);
	return err;
}
