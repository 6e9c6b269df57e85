// SPDX-License-Identifier: GPL-2.0
/*
 * The soft Tonic: tonic-core running in the kernel.
 *
 * One engine instance behind a spinlock.  A push or an incoming packet runs
 * the engine at once, in the caller's context, up to "now" (ktime mapped
 * to cycles), at most TONIC_SOFT_BUDGET descriptors per run, and hands the
 * output to the flows' clients under the lock; what is left is the
 * poller's: it requeues itself (more work now), or an hrtimer wakes it at
 * the engine's next busy cycle (timers: RTO, rate credit), or nothing is
 * left to do.
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
#include "../device.h"
#include <trace/events/tonic.h>

#define TONIC_SOFT_BUDGET	256
#define TONIC_SOFT_NOTES	(TONIC_SOFT_BUDGET * TONIC_NOTES_PER_CYCLE)
#define TONIC_SOFT_AHEAD	32	/* cycles an inline run may go past now */

struct tonic_soft {
	struct tonic_dev dev;
	struct tonic_core *tc;
	spinlock_t lock;		/* the engine and the output buffers */
	u32 cycle_ps;
	u64 t0;				/* ktime (ns) of cycle 0 */
	struct work_struct poll;
	struct hrtimer timer;
	struct workqueue_struct *wq;
	bool dying;
	struct tonic_desc desc[TONIC_SOFT_BUDGET];
	struct tonic_note note[TONIC_SOFT_NOTES];
	struct {	/* TONIC_SOFT_COUNTERS (counters.h) */
#define SOFT_CTR_FIELD(name, doc)	atomic64_t name;
		TONIC_SOFT_COUNTERS(SOFT_CTR_FIELD)
#undef SOFT_CTR_FIELD
	} ctr;
	atomic_t fail_push;		/* pushes still to refuse (debugfs) */
	u32 fail_push_errno;		/* and with what (debugfs) */
	struct dentry *dbg;
};

static inline struct tonic_soft *to_soft(struct tonic_dev *dev)
{
	return container_of(dev, struct tonic_soft, dev);
}

static u64 soft_now_cycle(struct tonic_soft *s)
{
	return div_u64((ktime_get_ns() - s->t0) * 1000, s->cycle_ps);
}

static void soft_doorbell(struct tonic_soft *s)
{
	if (!READ_ONCE(s->dying))
		queue_work(s->wq, &s->poll);
}

static enum hrtimer_restart soft_timer_fn(struct hrtimer *t)
{
	struct tonic_soft *s = container_of(t, struct tonic_soft, timer);

	atomic64_inc(&s->ctr.timer_fires);
	soft_doorbell(s);
	return HRTIMER_NORESTART;
}

static void soft_dispatch(struct tonic_soft *s, struct tonic_out *out)
{
	const struct tonic_flow_client *cl;
	u32 i;
	void *p;

	/* Each flow's output to its own client (tonic_dev_flow_attach_flags). */
	for (i = 0; i < out->nnote; i++) {
		p = tonic_dev_flow_priv(&s->dev, out->note[i].flow);
		cl = tonic_dev_flow_client(&s->dev, out->note[i].flow);
		if (p && out->note[i].type == TONIC_NOTE_FAILED)
			tonic_dev_flow_failed(&s->dev, out->note[i].flow, out->note[i].value);
		if (p && cl)
			cl->note(p, &out->note[i]);
	}
	for (i = 0; i < out->ndesc; i++) {
		p = tonic_dev_flow_priv(&s->dev, out->desc[i].flow);
		cl = tonic_dev_flow_client(&s->dev, out->desc[i].flow);
		trace_tonic_segment_out(&s->dev, &out->desc[i]);
		if (p && cl)
			cl->desc(p, &out->desc[i]);
	}
}

/*
 * Under s->lock: run the engine up to @until and hand its output over, then
 * have the rest done -- now by the poller (bounded work per run: yield,
 * then go on), or at the engine's next busy cycle by the hrtimer.  The
 * timer is armed under the lock, so the latest run's deadline is the one
 * that stands.
 */
static void soft_run(struct tonic_soft *s, u64 until)
{
	struct tonic_out out = {
		.desc = s->desc, .max_desc = TONIC_SOFT_BUDGET,
		.note = s->note, .max_note = TONIC_SOFT_NOTES,
	};
	u64 next;

	atomic64_inc(&s->ctr.runs);
	tonic_run(s->tc, until, &out);
	soft_dispatch(s, &out);
	next = tonic_next_cycle(s->tc);
	if (out.ndesc == out.max_desc || next <= until) {
		soft_doorbell(s);
	} else if (next != TONIC_IDLE && !READ_ONCE(s->dying)) {
		u64 ns = s->t0 + div_u64(next * s->cycle_ps + 999, 1000);

		hrtimer_start(&s->timer, ns_to_ktime(ns), HRTIMER_MODE_ABS);
	}
}

static void soft_poll(struct work_struct *w)
{
	struct tonic_soft *s = container_of(w, struct tonic_soft, poll);

	spin_lock_bh(&s->lock);
	soft_run(s, soft_now_cycle(s));
	spin_unlock_bh(&s->lock);
}

/*
 * Under s->lock, after new input: decide at once, in the caller's context
 * (the sender's sendmsg, the softirq that took the ACK), as TCP does, so
 * that its client can transmit before it returns.  The input takes a few
 * cycles through the engine's stages to a descriptor: the run goes that
 * far past now (TONIC_SOFT_AHEAD cycles, well below a microsecond), or
 * the descriptor would wait for the hrtimer and the poller.
 */
static void soft_run_inline(struct tonic_soft *s)
{
	atomic64_inc(&s->ctr.inline_runs);
	soft_run(s, max(soft_now_cycle(s) + TONIC_SOFT_AHEAD, tonic_now(s->tc)));
}

/*
 * An idle engine's clock stands still; move it to "now" before new input so
 * timers armed by that input (RTO, rate credit) count from the real time.
 * Only when no work is due before now: such work is the poller's.
 */
static void soft_catch_up(struct tonic_soft *s)
{
	struct tonic_desc d[1];
	struct tonic_note n[TONIC_NOTES_PER_CYCLE];
	struct tonic_out out = { .desc = d, .max_desc = 1, .note = n,
				 .max_note = TONIC_NOTES_PER_CYCLE };
	u64 now = soft_now_cycle(s), next = tonic_next_cycle(s->tc);

	if (now && (next == TONIC_IDLE || next >= now) && tonic_now(s->tc) < now) {
		tonic_run(s->tc, now - 1, &out);
		soft_dispatch(s, &out);
	}
}

/* tonic-core's observer (under s->lock, from tonic_run): loss marks and timeouts. */
static void soft_trace(void *arg, u32 event, u32 flow, u32 a, u32 b)
{
	struct tonic_soft *s = arg;

	if (event == TONIC_TRACE_LOSS)
		trace_tonic_loss(&s->dev, flow, a, b);
	else if (event == TONIC_TRACE_TIMEOUT)
		trace_tonic_timeout(&s->dev, flow, a, b);
}

static int soft_flow_add(struct tonic_dev *dev, u32 flow, const struct tonic_flow_cfg *cfg)
{
	struct tonic_soft *s = to_soft(dev);
	int err;

	spin_lock_bh(&s->lock);
	soft_catch_up(s);
	err = tonic_flow_add(s->tc, flow, cfg);
	spin_unlock_bh(&s->lock);
	return err;
}

static int soft_flow_remove(struct tonic_dev *dev, u32 flow)
{
	struct tonic_soft *s = to_soft(dev);
	int err;

	spin_lock_bh(&s->lock);
	err = tonic_flow_remove(s->tc, flow);
	spin_unlock_bh(&s->lock);
	return err;
}

static int soft_push(struct tonic_dev *dev, u32 flow, u32 tail, u32 last_len)
{
	struct tonic_soft *s = to_soft(dev);
	int err;

	if (unlikely(atomic_read(&s->fail_push)) && atomic_dec_if_positive(&s->fail_push) >= 0)
		return -(int)clamp_val(READ_ONCE(s->fail_push_errno), 1, MAX_ERRNO);
	spin_lock_bh(&s->lock);
	soft_catch_up(s);
	err = tonic_push(s->tc, flow, tail, last_len);
	if (!err) {
		atomic64_inc(&s->ctr.doorbells);
		soft_run_inline(s);
	}
	spin_unlock_bh(&s->lock);
	return err;
}

static int soft_incoming(struct tonic_dev *dev, u32 flow, const struct tonic_pkt *pkt)
{
	struct tonic_soft *s = to_soft(dev);
	int err;

	spin_lock_bh(&s->lock);
	soft_catch_up(s);
	err = tonic_incoming(s->tc, flow, pkt);
	soft_run_inline(s);
	spin_unlock_bh(&s->lock);
	trace_tonic_ack_in(dev, flow, pkt, err);
	return err;
}

static int soft_flow_xoff(struct tonic_dev *dev, u32 flow, bool on, u16 credit)
{
	struct tonic_soft *s = to_soft(dev);
	int err;

	spin_lock_bh(&s->lock);
	soft_catch_up(s);
	err = tonic_flow_xoff(s->tc, flow, on, credit);
	if (!err && !on)
		soft_run_inline(s);
	spin_unlock_bh(&s->lock);
	return err;
}

static int soft_flow_stats(struct tonic_dev *dev, u32 flow, struct tonic_flow_stats *st)
{
	struct tonic_soft *s = to_soft(dev);
	int err;

	spin_lock_bh(&s->lock);
	err = tonic_flow_stats(s->tc, flow, st);
	spin_unlock_bh(&s->lock);
	return err;
}

static int soft_flow_set_param(struct tonic_dev *dev, u32 flow, u32 idx, u32 value)
{
	struct tonic_soft *s = to_soft(dev);
	int err;

	spin_lock_bh(&s->lock);
	err = tonic_flow_set_param(s->tc, flow, idx, value);
	spin_unlock_bh(&s->lock);
	return err;
}

static void soft_dev_stats(struct tonic_dev *dev, struct tonic_core_stats *st)
{
	struct tonic_soft *s = to_soft(dev);

	spin_lock_bh(&s->lock);
	tonic_core_stats(s->tc, st);
	spin_unlock_bh(&s->lock);
}

static void soft_destroy(struct tonic_dev *dev)
{
	struct tonic_soft *s = to_soft(dev);

	debugfs_remove(s->dbg);
	WRITE_ONCE(s->dying, true);
	hrtimer_cancel(&s->timer);
	cancel_work_sync(&s->poll);
	hrtimer_cancel(&s->timer);
	destroy_workqueue(s->wq);
	tonic_core_destroy(s->tc);
	kfree(s);
}

static const char *const soft_ctr_names[] = {
#define SOFT_CTR_NAME(name, doc)	#name,
	TONIC_SOFT_COUNTERS(SOFT_CTR_NAME)
#undef SOFT_CTR_NAME
};

static void soft_ctr_read(struct tonic_dev *dev, u64 *vals)
{
	struct tonic_soft *s = to_soft(dev);

#define SOFT_CTR_READ(name, doc)	*vals++ = atomic64_read(&s->ctr.name);
	TONIC_SOFT_COUNTERS(SOFT_CTR_READ)
#undef SOFT_CTR_READ
}

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

struct tonic_dev *tonic_soft_create(u32 max_flows, u32 cycle_ps)
{
	struct tonic_core_cfg cfg = {
		.max_flows = max_flows,
		/*
		 * The FPGA's 256, not TONIC_WND_MAX: with 2048 an offloaded
		 * cubic flow starved a kernel cubic flow sharing a 50 Mbit/s
		 * bottleneck (5.9-14x; Documentation/performance.rst).
		 */
		.wnd_bits = 256,
		.ring_depth = TONIC_RING_DEFAULT,
		.cycle_ps = cycle_ps,
		.in_queue = 4096,
	};
	struct tonic_soft *s;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return NULL;
	cfg.trace = soft_trace;
	cfg.trace_arg = s;
	s->tc = tonic_core_create(&cfg);
	if (!s->tc)
		goto err;
	s->wq = alloc_workqueue("tonic_soft", WQ_HIGHPRI | WQ_MEM_RECLAIM, 1);
	if (!s->wq)
		goto err;
	spin_lock_init(&s->lock);
	s->cycle_ps = cycle_ps;
	s->t0 = ktime_get_ns();
	INIT_WORK(&s->poll, soft_poll);
	hrtimer_init(&s->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	s->timer.function = soft_timer_fn;
	s->dev.name = "soft0";
	s->dev.ops = &soft_ops;
	s->dev.max_flows = max_flows;
	s->dev.cycle_ps = cycle_ps;
	s->dev.backend = "soft";
	s->dev.wnd_bits = cfg.wnd_bits;
	s->dev.ring_depth = cfg.ring_depth;
	s->dbg = debugfs_create_dir("tonic_soft0", NULL);
	debugfs_create_atomic_t("fail_push", 0600, s->dbg, &s->fail_push);
	s->fail_push_errno = EIO;
	debugfs_create_u32("fail_push_errno", 0600, s->dbg, &s->fail_push_errno);
	return &s->dev;
err:
	tonic_core_destroy(s->tc);
	kfree(s);
	return NULL;
}
