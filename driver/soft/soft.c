// SPDX-License-Identifier: GPL-2.0
/*
 * The soft Tonic: tonic-core running in the kernel.
 *
 * As many engine instances as CPUs (the module's "engines"), each behind
 * its own spinlock, so that flows on different engines never wait for each
 * other: the engine keeps no state across flows, and flow id f is flow
 * f / n of engine f % n, which spreads the ids device.c hands out (lowest
 * free first) over the engines.  A push or an incoming packet runs the flow's
 * engine at once, in the caller's context, up to "now" (ktime mapped to
 * cycles), at most TONIC_SOFT_BUDGET descriptors per run, and hands the
 * output to the flows' clients under the lock; what is left is the
 * engine's poller's: it requeues itself (more work now), or an hrtimer
 * wakes it at the engine's next busy cycle (timers: RTO, rate credit), or
 * nothing is left to do.
 *
 * For tests, as netdevsim does: /sys/kernel/debug/tonic_soft0/fail_push
 * holds a number of pushes to refuse, the way a device that cannot take
 * more work would; fail_push_errno is the answer (EIO by default; ENODEV
 * plays a device that lost the flow, as a PCIe Tonic in reset does).
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/hrtimer.h>
#include <linux/workqueue.h>
#include <linux/ktime.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/cpumask.h>
#include "../device.h"
#include <trace/events/tonic.h>

#define TONIC_SOFT_BUDGET	256
#define TONIC_SOFT_NOTES	(TONIC_SOFT_BUDGET * TONIC_NOTES_PER_CYCLE)
#define TONIC_SOFT_AHEAD	32	/* cycles an inline run may go past now */
#define TONIC_SOFT_ENGINES	64	/* at most */
#define TONIC_SOFT_IN_QUEUE	4096	/* incoming packets queued, all engines */

struct tonic_soft;

struct soft_engine {
	struct tonic_soft *s;
	u32 idx;
	struct tonic_core *tc;
	spinlock_t lock;		/* the engine and the output buffers */
	struct work_struct poll;
	struct hrtimer timer;
	struct {	/* TONIC_SOFT_COUNTERS (counters.h) */
#define SOFT_CTR_FIELD(name, doc)	atomic64_t name;
		TONIC_SOFT_COUNTERS(SOFT_CTR_FIELD)
#undef SOFT_CTR_FIELD
	} ctr;
	struct tonic_desc desc[TONIC_SOFT_BUDGET];
	struct tonic_note note[TONIC_SOFT_NOTES];
};

struct tonic_soft {
	struct tonic_dev dev;
	u32 cycle_ps;
	u64 t0;				/* ktime (ns) of cycle 0 */
	struct workqueue_struct *wq;
	bool dying;
	atomic_t fail_push;		/* pushes still to refuse (debugfs) */
	u32 fail_push_errno;		/* and with what (debugfs) */
	struct dentry *dbg;
	u32 neng;
	struct soft_engine *eng[];
};

static inline struct tonic_soft *to_soft(struct tonic_dev *dev)
{
	return container_of(dev, struct tonic_soft, dev);
}

/*
 * The engine of device flow @flow, and *@id its flow there: an id past the
 * device's is one no engine has, which the engine refuses and counts.
 */
static struct soft_engine *soft_eng(struct tonic_soft *s, u32 flow, u32 *id)
{
	*id = flow < s->dev.max_flows ? flow / s->neng : U32_MAX;
	return s->eng[flow % s->neng];
}

static u32 soft_dev_flow(const struct soft_engine *e, u32 id)
{
	return id * e->s->neng + e->idx;
}

static u64 soft_now_cycle(struct tonic_soft *s)
{
	return div_u64((ktime_get_ns() - s->t0) * 1000, s->cycle_ps);
}

static void soft_doorbell(struct soft_engine *e)
{
	if (!READ_ONCE(e->s->dying))
		queue_work(e->s->wq, &e->poll);
}

static enum hrtimer_restart soft_timer_fn(struct hrtimer *t)
{
	struct soft_engine *e = container_of(t, struct soft_engine, timer);

	atomic64_inc(&e->ctr.timer_fires);
	soft_doorbell(e);
	return HRTIMER_NORESTART;
}

static void soft_dispatch(struct soft_engine *e, struct tonic_out *out)
{
	struct tonic_soft *s = e->s;
	const struct tonic_flow_client *cl;
	u32 i;
	void *p;

	/* Each flow's output to its own client (tonic_dev_flow_attach_flags). */
	for (i = 0; i < out->nnote; i++) {
		out->note[i].flow = soft_dev_flow(e, out->note[i].flow);
		p = tonic_dev_flow_priv(&s->dev, out->note[i].flow);
		cl = tonic_dev_flow_client(&s->dev, out->note[i].flow);
		if (p && out->note[i].type == TONIC_NOTE_FAILED)
			tonic_dev_flow_failed(&s->dev, out->note[i].flow, out->note[i].value);
		if (p && cl)
			cl->note(p, &out->note[i]);
	}
	for (i = 0; i < out->ndesc; i++) {
		out->desc[i].flow = soft_dev_flow(e, out->desc[i].flow);
		p = tonic_dev_flow_priv(&s->dev, out->desc[i].flow);
		cl = tonic_dev_flow_client(&s->dev, out->desc[i].flow);
		trace_tonic_segment_out(&s->dev, &out->desc[i]);
		if (p && cl)
			cl->desc(p, &out->desc[i]);
	}
}

/*
 * Under e->lock: run the engine up to @until and hand its output over, then
 * have the rest done -- now by the poller (bounded work per run: yield,
 * then go on), or at the engine's next busy cycle by the hrtimer.  The
 * timer is armed under the lock, so the latest run's deadline is the one
 * that stands.
 */
static void soft_run(struct soft_engine *e, u64 until)
{
	struct tonic_out out = {
		.desc = e->desc, .max_desc = TONIC_SOFT_BUDGET,
		.note = e->note, .max_note = TONIC_SOFT_NOTES,
	};
	struct tonic_soft *s = e->s;
	u64 next;

	atomic64_inc(&e->ctr.runs);
	tonic_run(e->tc, until, &out);
	soft_dispatch(e, &out);
	next = tonic_next_cycle(e->tc);
	if (out.ndesc == out.max_desc || next <= until) {
		soft_doorbell(e);
	} else if (next != TONIC_IDLE && !READ_ONCE(s->dying)) {
		u64 ns = s->t0 + div_u64(next * s->cycle_ps + 999, 1000);

		hrtimer_start(&e->timer, ns_to_ktime(ns), HRTIMER_MODE_ABS);
	}
}

static void soft_poll(struct work_struct *w)
{
	struct soft_engine *e = container_of(w, struct soft_engine, poll);

	spin_lock_bh(&e->lock);
	soft_run(e, soft_now_cycle(e->s));
	spin_unlock_bh(&e->lock);
}

/*
 * Under e->lock, after new input: decide at once, in the caller's context
 * (the sender's sendmsg, the softirq that took the ACK), as TCP does, so
 * that its client can transmit before it returns.  The input takes a few
 * cycles through the engine's stages to a descriptor: the run goes that
 * far past now (TONIC_SOFT_AHEAD cycles, well below a microsecond), or
 * the descriptor would wait for the hrtimer and the poller.
 */
static void soft_run_inline(struct soft_engine *e)
{
	atomic64_inc(&e->ctr.inline_runs);
	soft_run(e, max(soft_now_cycle(e->s) + TONIC_SOFT_AHEAD, tonic_now(e->tc)));
}

/*
 * An idle engine's clock stands still; move it to "now" before new input so
 * timers armed by that input (RTO, rate credit) count from the real time.
 * Only when no work is due before now: such work is the poller's.
 */
static void soft_catch_up(struct soft_engine *e)
{
	struct tonic_desc d[1];
	struct tonic_note n[TONIC_NOTES_PER_CYCLE];
	struct tonic_out out = { .desc = d, .max_desc = 1, .note = n,
				 .max_note = TONIC_NOTES_PER_CYCLE };
	u64 now = soft_now_cycle(e->s), next = tonic_next_cycle(e->tc);

	if (now && (next == TONIC_IDLE || next >= now) && tonic_now(e->tc) < now) {
		tonic_run(e->tc, now - 1, &out);
		soft_dispatch(e, &out);
	}
}

/* tonic-core's observer (under e->lock, from tonic_run): loss marks and timeouts. */
static void soft_trace(void *arg, u32 event, u32 flow, u32 a, u32 b)
{
	struct soft_engine *e = arg;

	if (event == TONIC_TRACE_LOSS)
		trace_tonic_loss(&e->s->dev, soft_dev_flow(e, flow), a, b);
	else if (event == TONIC_TRACE_TIMEOUT)
		trace_tonic_timeout(&e->s->dev, soft_dev_flow(e, flow), a, b);
}

static int soft_flow_add(struct tonic_dev *dev, u32 flow, const struct tonic_flow_cfg *cfg)
{
	u32 id;
	struct soft_engine *e = soft_eng(to_soft(dev), flow, &id);
	int err;

	spin_lock_bh(&e->lock);
	soft_catch_up(e);
	err = tonic_flow_add(e->tc, id, cfg);
	spin_unlock_bh(&e->lock);
	return err;
}

static int soft_flow_remove(struct tonic_dev *dev, u32 flow)
{
	u32 id;
	struct soft_engine *e = soft_eng(to_soft(dev), flow, &id);
	int err;

	spin_lock_bh(&e->lock);
	err = tonic_flow_remove(e->tc, id);
	spin_unlock_bh(&e->lock);
	return err;
}

static int soft_push(struct tonic_dev *dev, u32 flow, u32 tail, u32 last_len)
{
	struct tonic_soft *s = to_soft(dev);
	u32 id;
	struct soft_engine *e = soft_eng(s, flow, &id);
	int err;

	if (unlikely(atomic_read(&s->fail_push)) && atomic_dec_if_positive(&s->fail_push) >= 0)
		return -(int)clamp_val(READ_ONCE(s->fail_push_errno), 1, MAX_ERRNO);
	spin_lock_bh(&e->lock);
	soft_catch_up(e);
	err = tonic_push(e->tc, id, tail, last_len);
	if (!err) {
		atomic64_inc(&e->ctr.doorbells);
		soft_run_inline(e);
	}
	spin_unlock_bh(&e->lock);
	return err;
}

static int soft_incoming(struct tonic_dev *dev, u32 flow, const struct tonic_pkt *pkt)
{
	u32 id;
	struct soft_engine *e = soft_eng(to_soft(dev), flow, &id);
	int err;

	spin_lock_bh(&e->lock);
	soft_catch_up(e);
	err = tonic_incoming(e->tc, id, pkt);
	soft_run_inline(e);
	spin_unlock_bh(&e->lock);
	trace_tonic_ack_in(dev, flow, pkt, err);
	return err;
}

static int soft_flow_xoff(struct tonic_dev *dev, u32 flow, bool on, u16 credit)
{
	u32 id;
	struct soft_engine *e = soft_eng(to_soft(dev), flow, &id);
	int err;

	spin_lock_bh(&e->lock);
	soft_catch_up(e);
	err = tonic_flow_xoff(e->tc, id, on, credit);
	if (!err && !on)
		soft_run_inline(e);
	spin_unlock_bh(&e->lock);
	return err;
}

static int soft_flow_stats(struct tonic_dev *dev, u32 flow, struct tonic_flow_stats *st)
{
	u32 id;
	struct soft_engine *e = soft_eng(to_soft(dev), flow, &id);
	int err;

	spin_lock_bh(&e->lock);
	err = tonic_flow_stats(e->tc, id, st);
	spin_unlock_bh(&e->lock);
	return err;
}

static int soft_flow_set_param(struct tonic_dev *dev, u32 flow, u32 idx, u32 value)
{
	u32 id;
	struct soft_engine *e = soft_eng(to_soft(dev), flow, &id);
	int err;

	spin_lock_bh(&e->lock);
	err = tonic_flow_set_param(e->tc, id, idx, value);
	spin_unlock_bh(&e->lock);
	return err;
}

/* The engines' counters summed; their clock is the latest of theirs. */
static void soft_dev_stats(struct tonic_dev *dev, struct tonic_core_stats *st)
{
	struct tonic_soft *s = to_soft(dev);
	struct tonic_core_stats one;
	u64 cycles = 0;
	u32 i;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < s->neng; i++) {
		spin_lock_bh(&s->eng[i]->lock);
		tonic_core_stats(s->eng[i]->tc, &one);
		spin_unlock_bh(&s->eng[i]->lock);
#define SOFT_CORE_SUM(name, NAME, doc)	st->name += one.name;
		TONIC_CORE_COUNTERS(SOFT_CORE_SUM)
#undef SOFT_CORE_SUM
		cycles = max(cycles, one.cycles);
	}
	st->cycles = cycles;
}

static void soft_engine_destroy(struct soft_engine *e)
{
	if (!e)
		return;
	hrtimer_cancel(&e->timer);
	cancel_work_sync(&e->poll);
	hrtimer_cancel(&e->timer);
	tonic_core_destroy(e->tc);
	kvfree(e);
}

/* Engines are created and destroyed with the device only: no lock needed. */
static void soft_free(struct tonic_soft *s)
{
	u32 i;

	WRITE_ONCE(s->dying, true);
	for (i = 0; i < s->neng; i++)
		soft_engine_destroy(s->eng[i]);
	if (s->wq)
		destroy_workqueue(s->wq);
	kfree(s);
}

static void soft_destroy(struct tonic_dev *dev)
{
	struct tonic_soft *s = to_soft(dev);

	debugfs_remove_recursive(s->dbg);
	soft_free(s);
}

static const char *const soft_ctr_names[] = {
#define SOFT_CTR_NAME(name, doc)	#name,
	TONIC_SOFT_COUNTERS(SOFT_CTR_NAME)
#undef SOFT_CTR_NAME
};

static void soft_ctr_read(struct tonic_dev *dev, u64 *vals)
{
	struct tonic_soft *s = to_soft(dev);
	u32 i;

	memset(vals, 0, sizeof(*vals) * ARRAY_SIZE(soft_ctr_names));
	for (i = 0; i < s->neng; i++) {
		u64 *v = vals;

#define SOFT_CTR_READ(name, doc)	*v++ += atomic64_read(&s->eng[i]->ctr.name);
		TONIC_SOFT_COUNTERS(SOFT_CTR_READ)
#undef SOFT_CTR_READ
	}
}

/* debugfs "engines": each engine's counters, a line each. */
static int soft_engines_show(struct seq_file *m, void *v)
{
	struct tonic_soft *s = m->private;
	u32 i;

	for (i = 0; i < s->neng; i++) {
		struct soft_engine *e = s->eng[i];

		seq_printf(m, "engine %u", i);
#define SOFT_CTR_SHOW(name, doc)	seq_printf(m, " " #name " %llu", (u64)atomic64_read(&e->ctr.name));
		TONIC_SOFT_COUNTERS(SOFT_CTR_SHOW)
#undef SOFT_CTR_SHOW
		seq_putc(m, '\n');
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(soft_engines);

static const struct tonic_dev_ops soft_ops = {
	.flow_add	= soft_flow_add,
	.flow_remove	= soft_flow_remove,
	.push		= soft_push,
	.incoming	= soft_incoming,
	.flow_stats	= soft_flow_stats,
	.flow_set_param	= soft_flow_set_param,
	.flow_xoff	= soft_flow_xoff,
	.dev_stats	= soft_dev_stats,
	.ctr_read	= soft_ctr_read,
	.ctr_names	= soft_ctr_names,
	.nctrs		= ARRAY_SIZE(soft_ctr_names),
	.destroy	= soft_destroy,
};

static struct soft_engine *soft_engine_create(struct tonic_soft *s, u32 idx,
					      const struct tonic_core_cfg *tmpl)
{
	struct tonic_core_cfg cfg = *tmpl;
	struct soft_engine *e;

	/* Its output buffers make it 16 KB: no need for contiguous pages. */
	e = kvzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return NULL;
	e->s = s;
	e->idx = idx;
	cfg.max_flows = DIV_ROUND_UP(s->dev.max_flows, s->neng);
	/* The device's 4096 queued packets, shared out; a few hundred each at least. */
	cfg.in_queue = max_t(u32, TONIC_SOFT_IN_QUEUE / s->neng, TONIC_SOFT_BUDGET);
	cfg.trace_arg = e;
	e->tc = tonic_core_create(&cfg);
	if (!e->tc) {
		kvfree(e);
		return NULL;
	}
	spin_lock_init(&e->lock);
	INIT_WORK(&e->poll, soft_poll);
	hrtimer_init(&e->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	e->timer.function = soft_timer_fn;
	return e;
}

/* @engines: 0 for one per possible CPU. */
struct tonic_dev *tonic_soft_create(u32 max_flows, u32 cycle_ps, u32 engines)
{
	struct tonic_core_cfg cfg = {
		/*
		 * TONIC_WND_MAX, not the FPGA's 256: 256 segments of one MSS
		 * carry 148 Mbit/s at 20 ms.  A flow asks for less with
		 * wnd_segs (an RDMA QP's 128).  The window was at 256 while an
		 * offloaded cubic flow outgrew kernel cubic's share of a
		 * bottleneck; a cut from the flight, not cwnd, was one cause
		 * (Documentation/performance.rst, "The window").
		 */
		.wnd_bits = TONIC_WND_MAX,
		.ring_depth = TONIC_RING_DEFAULT,
		.cycle_ps = cycle_ps,
		.trace = soft_trace,
	};
	struct tonic_soft *s;
	u32 i;

	if (!engines)
		engines = num_possible_cpus();
	engines = clamp_t(u32, engines, 1, min_t(u32, max_flows, TONIC_SOFT_ENGINES));
	s = kzalloc(struct_size(s, eng, engines), GFP_KERNEL);
	if (!s)
		return NULL;
	s->neng = engines;
	s->dev.max_flows = max_flows;
	s->cycle_ps = cycle_ps;
	s->t0 = ktime_get_ns();
	s->wq = alloc_workqueue("tonic_soft", WQ_HIGHPRI | WQ_MEM_RECLAIM, 0);
	if (!s->wq)
		goto err;
	for (i = 0; i < engines; i++) {
		s->eng[i] = soft_engine_create(s, i, &cfg);
		if (!s->eng[i])
			goto err;
	}
	s->dev.name = "soft0";
	s->dev.ops = &soft_ops;
	s->dev.cycle_ps = cycle_ps;
	s->dev.backend = "soft";
	s->dev.wnd_bits = cfg.wnd_bits;
	s->dev.ring_depth = cfg.ring_depth;
	s->dbg = debugfs_create_dir("tonic_soft0", NULL);
	debugfs_create_atomic_t("fail_push", 0600, s->dbg, &s->fail_push);
	s->fail_push_errno = EIO;
	debugfs_create_u32("fail_push_errno", 0600, s->dbg, &s->fail_push_errno);
	debugfs_create_file("engines", 0400, s->dbg, s, &soft_engines_fops);
	return &s->dev;
err:
	soft_free(s);
	return NULL;
}
