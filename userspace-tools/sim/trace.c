// SPDX-License-Identifier: GPL-2.0
/*
 * Output, all under the run's directory:
 *   seq.csv      t_us,flow,seg,rtx       every transmission of traced flows
 *   samples.csv  t_us,flow,rx_bytes,cwnd,rate_mbps,una,nxt,cnps
 *                                        every sample_us, every active flow
 *   flows.csv    one line per flow: counters, throughput, FCT
 *   summary.txt  `key value` lines the regression checks read
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"

static FILE *open_out(struct sim *s, const char *name)
{
	char path[1024];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", s->outdir, name);
	fp = fopen(path, "w");
	if (!fp) {
		perror(path);
		exit(1);
	}
	return fp;
}

void trace_open(struct sim *s)
{
	u32 i;

	for (i = 0; i < s->nflows; i++)
		if (s->flows[i]->trace)
			break;
	if (i < s->nflows) {
		s->f_seq = open_out(s, "seq.csv");
		fprintf(s->f_seq, "t_us,flow,seg,rtx\n");
	}
	if (s->sample_every) {
		s->f_samples = open_out(s, "samples.csv");
		fprintf(s->f_samples, "t_us,flow,rx_bytes,cwnd,rate_mbps,una,nxt,cnps\n");
	}
}

void trace_close(struct sim *s)
{
	if (s->f_seq)
		fclose(s->f_seq);
	if (s->f_samples)
		fclose(s->f_samples);
}

void trace_seq(struct sim *s, const struct flow *f, u32 seg, int rtx)
{
	if (s->f_seq)
		fprintf(s->f_seq, "%.3f,%u,%u,%d\n", s->now / 1e6, f->id, seg, rtx);
}

void trace_sample(struct sim *s)
{
	u32 i;

	if (!s->f_samples)
		return;
	for (i = 0; i < s->nflows; i++) {
		struct flow *f = s->flows[i];
		struct tonic_flow_stats st;
		u32 cwnd = 0, una = 0, nxt = 0;
		double rate = 0;

		if (!f->active || s->now < f->start)
			continue;
		if (f->impl == IMPL_REF) {
			cwnd = ref_cwnd(f);
			rate = refdq_rate_mbps(f);
			una = ref_una(f);
			nxt = ref_nxt(f);
		} else if (!tonic_flow_stats(s->hosts[f->src].tc, f->local, &st)) {
			cwnd = st.cwnd;
			rate = st.rate_kbps / 1000.0;
			una = st.wnd_start;
			nxt = st.highest_sent;
		}
		fprintf(s->f_samples, "%.3f,%u,%llu,%u,%.3f,%u,%u,%llu\n", s->now / 1e6, f->id,
			(unsigned long long)f->rx.bytes, cwnd, rate, una, nxt,
			(unsigned long long)f->rx.cnps);
	}
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void trace_summary(struct sim *s)
{
	FILE *fc = open_out(s, "flows.csv"), *fs = open_out(s, "summary.txt");
	double dur = (s->end - s->measure_from) / 1e12;
	double sum = 0, sum2 = 0, mn = 1e300, mx = 0, *fct = NULL, *gthr;
	u32 i, n = 0, nf = 0, ngroups = 0, ndone = 0;
	u64 rtx = 0, tx = 0, timeouts = 0;

	for (i = 0; i < s->nflows; i++)
		if (s->flows[i]->group + 1 > ngroups)
			ngroups = s->flows[i]->group + 1;
	gthr = calloc(ngroups + 1, sizeof(*gthr));
	fct = calloc(s->nflows + 1, sizeof(*fct));
	fprintf(fc, "flow,src,dst,group,prog,impl,start_us,stop_us,segs,tx_pkts,rtx_pkts,"
		    "rx_bytes,thr_mbps,fct_us,timeouts,cnps,fecn,ce,dups,ctl_drops,failed\n");
	for (i = 0; i < s->nflows; i++) {
		struct flow *f = s->flows[i];
		struct tonic_flow_stats st = { 0 };
		double thr = (f->rx.bytes - f->rx_mark) * 8.0 / dur / 1e6;
		bool whole = f->start <= s->measure_from && (!f->stop || f->stop >= s->end);

		if (f->impl == IMPL_TONIC && f->left)
			st = f->final;
		else if (f->impl == IMPL_TONIC && s->hosts[f->src].tc)
			tonic_flow_stats(s->hosts[f->src].tc, f->local, &st);
		else
			st.timeouts = f->ref_timeouts;
		fprintf(fc, "%u,%u,%u,%u,%s,%s,%.3f,%.3f,%llu,%llu,%llu,%llu,%.3f,%.3f,%llu,%llu,%llu,%llu,%llu,%llu,%u\n",
			f->id, f->src, f->dst, f->group, f->prog->name,
			f->impl == IMPL_REF ? "ref" : "tonic", f->start / 1e6, f->stop / 1e6,
			(unsigned long long)f->size, (unsigned long long)f->tx_pkts,
			(unsigned long long)f->rtx_pkts, (unsigned long long)f->rx.bytes, thr,
			f->done ? f->fct / 1e6 : -1.0, (unsigned long long)st.timeouts,
			(unsigned long long)f->rx.cnps, (unsigned long long)f->rx.fecn,
			(unsigned long long)f->rx.ce, (unsigned long long)f->rx.dups,
			(unsigned long long)f->ctl_drops, f->failed);
		tx += f->tx_pkts;
		rtx += f->rtx_pkts;
		timeouts += st.timeouts;
		if (f->size) {
			nf++;
			if (f->done)
				fct[ndone++] = f->fct / 1e6;
		}
		if (!whole || f->size)
			continue;
		gthr[f->group] += thr;
		n++;
		sum += thr;
		sum2 += thr * thr;
		if (thr < mn)
			mn = thr;
		if (thr > mx)
			mx = thr;
	}
	fprintf(fs, "name %s\nseed %llu\nflows %u\nevents %llu\n", s->name,
		(unsigned long long)s->seed, s->nflows, (unsigned long long)s->events);
	fprintf(fs, "tx_pkts %llu\nrtx_pkts %llu\ntimeouts %llu\n", (unsigned long long)tx,
		(unsigned long long)rtx, (unsigned long long)timeouts);
	if (n) {
		double mean = sum / n, var = sum2 / n - mean * mean;

		fprintf(fs, "measured_flows %u\nthr_mean_mbps %.4f\nthr_std_mbps %.4f\n", n, mean,
			var > 0 ? sqrt(var) : 0);
		fprintf(fs, "thr_min_mbps %.4f\nthr_max_mbps %.4f\nthr_sum_mbps %.4f\n", mn, mx, sum);
		fprintf(fs, "jain %.6f\n", sum2 > 0 ? sum * sum / (n * sum2) : 0);
		for (i = 0; i < ngroups; i++)
			fprintf(fs, "group%u_mbps %.4f\n", i, gthr[i]);
	}
	if (nf) {
		double tot = 0;

		qsort(fct, ndone, sizeof(*fct), cmp_dbl);
		for (i = 0; i < ndone; i++)
			tot += fct[i];
		fprintf(fs, "fct_flows %u\nfct_done %u\n", nf, ndone);
		if (ndone)
			fprintf(fs, "fct_mean_us %.3f\nfct_p50_us %.3f\nfct_p99_us %.3f\nfct_max_us %.3f\n",
				tot / ndone, fct[ndone / 2], fct[(u32)(ndone * 0.99) < ndone ? (u32)(ndone * 0.99) : ndone - 1],
				fct[ndone - 1]);
	}
	for (i = 0; i < s->nhosts; i++) {
		struct port *pt = &s->down[i];
		struct host *h = &s->hosts[i];

		if (pt->tx_pkts)
			fprintf(fs, "port_sw%u util %.5f drops %llu ecn %llu fecn %llu trims %llu losses %llu maxq_kb %.1f\n",
				i, pt->busy_ps / (double)s->end, (unsigned long long)pt->drops,
				(unsigned long long)pt->ecn_marks, (unsigned long long)pt->fecn_marks,
				(unsigned long long)pt->trims, (unsigned long long)pt->losses,
				pt->max_qbytes / 1000.0);
		if (h->nic.tx_pkts)
			fprintf(fs, "port_nic%u util %.5f tx_bytes %llu maxq_kb %.1f in_drops %llu pfc_pauses %llu\n", i,
				h->nic.busy_ps / (double)s->end, (unsigned long long)h->nic.tx_bytes,
				h->nic.max_qbytes / 1000.0, (unsigned long long)h->in_drops,
				(unsigned long long)h->pfc_pauses);
		if (h->tc) {
			struct tonic_core_stats cs;

			tonic_core_stats(h->tc, &cs);
			fprintf(fs, "engine%u cycles %llu busy %llu conflicts %llu in_overflow %llu bad_ack %llu stale_desc %llu\n",
				i, (unsigned long long)cs.cycles, (unsigned long long)cs.busy_cycles,
				(unsigned long long)cs.conflicts, (unsigned long long)cs.in_overflow,
				(unsigned long long)cs.bad_ack, (unsigned long long)cs.stale_desc);
		}
	}
	free(gthr);
	free(fct);
	fclose(fc);
	fclose(fs);
}
