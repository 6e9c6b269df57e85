// SPDX-License-Identifier: GPL-2.0
/*
 * Rate scheme: the multi-precision integer representation of R (appendix
 * B) and the rate a paced flow actually achieves through the engine, from
 * 1 Mb/s to 100 Gb/s at 10 ns cycles.  (Floating point is fine here: this
 * is the test, not the engine.)
 */
#include "tap.h"
#include "testprogs.h"
#include "rate.h"

#define CYCLE_PS 10000

/* Send @n segments of @len bytes at @kbps, ack each at once; return achieved/expected - 1. */
static double measure(u32 kbps, u32 len, u32 n, u32 burst_segs)
{
	struct tonic_core *tc = tp_core(2, 128, 16);
	struct tonic_flow_cfg fc = { .prog = &tp_rate, .seg_size = len, .init_rate_kbps = kbps,
				     .rto_cycles = 2000000000u };
	struct tp_rx rx;
	struct tonic_pkt a;
	u64 t_first = 0, t_last = 0;
	u32 sent = 0;
	double want, got;

	tonic_flow_add(tc, 0, &fc);
	tp_rx_init(&rx, 0);
	tonic_push(tc, 0, n, len);
	while (sent < n) {
		tp_out_reset(&T, 1);
		if (!tonic_run(tc, TONIC_IDLE - 1, &T.o) && !T.o.ndesc)
			break;
		if (!T.o.ndesc)
			continue;
		if (!sent)
			t_first = tonic_now(tc) - 1;
		t_last = tonic_now(tc) - 1;
		sent++;
		tp_rx_ack(&rx, T.desc[0].seg, &a);
		tonic_incoming(tc, 0, &a);
	}
	tonic_core_destroy(tc);
	if (sent != n || t_last == t_first)
		return 1e9;
	want = (double)kbps * CYCLE_PS / 8e9;			/* bytes per cycle */
	got = (double)(n - 1) * len / (double)(t_last - t_first);
	(void)burst_segs;
	return got / want - 1;
}

static u32 burst_init_bytes;
static void burst_init(struct tonic_prog_ctx *c)
{
	if (burst_init_bytes)
		c->burst = burst_init_bytes;
}

/* 1 Gb/s = 1.25 B/cycle at 10 ns: 1000-byte segments every 800 cycles. */
static int burst_run(u32 burst, u32 gap, u32 b2b)
{
	static const struct tonic_prog_ops p = {
		.name = "burst", .credit = TONIC_CREDIT_RATE, .def_rate_kbps = 1000000,
		.def_rto_us = 10000000, .init = burst_init,
	};
	struct tonic_core *tc = tp_core(2, 128, 16);
	u64 t[12];
	u32 k = 0, i, good = 1;

	burst_init_bytes = burst;
	tp_add(tc, 0, &p, 1000, 0);
	tonic_push(tc, 0, 12, 1000);
	while (k < 12) {
		tp_out_reset(&T, 1);
		tonic_run(tc, 10000000, &T.o);
		if (!T.o.ndesc)
			break;
		t[k++] = tonic_now(tc) - 1;
	}
	tonic_core_destroy(tc);
	if (k != 12)
		return 0;
	for (i = 1; i < b2b; i++)
		if (t[i] - t[i - 1] != 1)
			good = 0;
	/* Steady state from the first paced segment on. */
	for (i = b2b + 2; i < 12; i++)
		if (t[i] - t[i - 1] != gap)
			good = 0;
	if (!good)
		diag("burst %u: t = %llu %llu %llu %llu %llu %llu", burst, (unsigned long long)t[0],
		     (unsigned long long)t[1], (unsigned long long)t[2], (unsigned long long)t[3],
		     (unsigned long long)t[4], (unsigned long long)t[5]);
	return good;
}

int main(void)
{
	static const u32 rates[] = {	/* kb/s */
		1000, 1544, 10000, 123456, 1000000, 2500000, 3333333, 10000000, 25000000,
		40000000, 56789012, 100000000,
	};
	double worst_repr = 0, worst_run = 0;
	u32 i;

	diag("%12s %6s %10s %14s %14s %12s", "rate kb/s", "shift", "mant", "repr err", "achieved err",
	     "1/1024 B/cyc");
	for (i = 0; i < ARRAY_SIZE(rates); i++) {
		u32 mant, len = 1500, n;
		u8 shift;
		double exact = (double)rates[i] * CYCLE_PS / 8e9, repr, e_repr, e_run, naive;

		tonic_rate_repr(rates[i], CYCLE_PS, &mant, &shift);
		repr = (double)mant / (double)(1ULL << shift);
		e_repr = repr / exact - 1;
		/* Enough segments for ~1e5 cycles of spacing at fast rates, 200 at slow. */
		n = rates[i] >= 1000000 ? 20000 : 200;
		e_run = measure(rates[i], len, n, 1);
		naive = (double)(u64)(exact * 1024) / 1024 / exact - 1;
		diag("%12u %6u %10u %14.3e %14.3e %12.3e", rates[i], shift, mant, e_repr, e_run, naive);
		if (-e_repr > worst_repr)
			worst_repr = -e_repr;
		if (e_repr > worst_repr)
			worst_repr = e_repr;
		if (e_run < 0 ? -e_run > worst_run : e_run > worst_run)
			worst_run = e_run < 0 ? -e_run : e_run;
	}
	diag("worst representation error %.3e, worst achieved-rate error %.3e", worst_repr, worst_run);
	ok(worst_repr < 1.0 / (1 << 28), "R represented within 2^-28 from 1 Mb/s to 100 Gb/s");
	ok(worst_run < 1e-4, "achieved rate within 0.01 %% from 1 Mb/s to 100 Gb/s");
	{
		u32 mant;
		u8 shift;

		tonic_rate_repr(100000000, CYCLE_PS, &mant, &shift);
		ok(mant == 125u << shift, "100 Gb/s at 10 ns is exactly 125 bytes/cycle");
		tonic_rate_repr(0, CYCLE_PS, &mant, &shift);
		is(mant, 0, "rate 0: zero mantissa (flow paused)");
	}

	/* Burst: D bytes go back to back after idle, then pacing. */
	ok(burst_run(0, 800, 0), "burst = one segment: first at once, then every 800 cycles at 1 Gb/s");
	ok(burst_run(4000, 800, 4), "burst = 4 segments: four back to back, then every 800 cycles");
	return tap_done();
}
