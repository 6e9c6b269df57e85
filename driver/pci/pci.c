// SPDX-License-Identifier: GPL-2.0
/*
 * The PCIe Tonic: a PCI driver for a Tonic function (an FPGA, or a device
 * model behind QEMU's ivshmem-plain), implementing struct tonic_dev_ops
 * over the register interface of include/uapi/linux/tonic_pci.h
 * (Documentation/device-spec.rst).
 *
 * Commands (flow add/remove, push, incoming) are posted to the command ring
 * in the device's window and the doorbell (CMD_TAIL) is written once per
 * op.  The device answers through the event ring (descriptors, notes,
 * command errors), which a poller drains: an hrtimer queues the poll work,
 * every POLL_FAST_NS while there is traffic, backing off to POLL_SLOW_NS
 * when idle.  Ops never wait for the device: a command's effects are
 * ordered by the ring, and the device's answers carry the flow's epoch so
 * answers for an earlier incarnation of a flow id are dropped.
 *
 * Nothing read from the device is trusted: ring indices, event types, flow
 * ids, epochs, lengths are checked.  A device that reports an error, stops
 * its heartbeat, returns garbage or disappears is declared dead: every
 * flow gets TONIC_NOTE_FAILED (sock-glue puts the socket back on software
 * TCP), it is logged once, and the poller tries to reset the device back
 * into service.
 */
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/io.h>
#include <linux/slab.h>
#include <linux/hrtimer.h>
#include <linux/workqueue.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <uapi/linux/tonic_pci.h>
#include "../device.h"
#include "program.h"
#include "tonic_pci.h"
#include <trace/events/tonic.h>

#define POLL_FAST_NS		(100 * NSEC_PER_USEC)
#define POLL_SLOW_NS		(2 * NSEC_PER_MSEC)
#define POLL_DEAD_NS		(200 * NSEC_PER_MSEC)
#define IDLE_AFTER		msecs_to_jiffies(10)
#define HB_TIMEOUT		msecs_to_jiffies(1000)
#define EVT_BUDGET		1024
#define BAD_EVT_LIMIT		16	/* bad events in one poll: the device is broken */
#define TONIC_PCI_FAIL_DEVICE	0x100	/* TONIC_NOTE_FAILED value: device lost */

static char *backend = "auto";
module_param(backend, charp, 0444);
MODULE_PARM_DESC(backend, "auto: use a bound PCIe Tonic (default device), soft: never bind PCIe");

enum tp_state { TP_UP, TP_DEAD, TP_RESETTING, TP_GONE };

struct tp_flow {
	u16 epoch;
	bool live;		/* added and not removed (under evt_lock) */
	bool failed;		/* FAILED delivered: nothing more for it */
	u32 seg_size;
	u32 tail;		/* last tail pushed */
	unsigned long sub;	/* bit 0: sub-segment burst outstanding */
};

struct tonic_pci {
	struct tonic_dev dev;
	struct pci_dev *pdev;
	void __iomem *win;
	u32 win_len;
	char name[32];
	struct list_head zombie;

	/* Identification, read once. */
	u32 version, caps, wnd_bits, ring_depth;
	u32 cmd_off, cmd_n, evt_off, evt_n, fstat_off, cstat_off, nprogs;
	char progs[TONIC_PCI_PROG_MAX][TONIC_PCI_PROG_NAME_LEN];

	spinlock_t cmd_lock;	/* command ring producer */
	u32 cmd_tail, cmd_head;	/* cmd_head: cached copy of CMD_HEAD */

	spinlock_t evt_lock;	/* event ring consumer, flow liveness, state */
	enum tp_state state;
	u32 evt_head;
	u32 last_hb;
	unsigned long hb_seen, next_live_check, last_work, reset_deadline;
	u32 reset_token;
	u32 nlive;
	struct tp_flow *flows;

	struct tp_lb *lb;	/* loopback self-test in progress (under evt_lock) */
	struct mutex lb_mutex;	/* lb_result, lb_busy, lb_flows, lb_segs */
	struct work_struct lb_work;
	bool lb_busy;
	u32 lb_flows, lb_segs;
	char lb_result[320];

	struct hrtimer timer;
	struct work_struct poll;
	struct workqueue_struct *wq;
	bool dying;

	/* The driver's counters (TONIC_PCI_COUNTERS, counters.h). */
	struct {
#define TP_CTR_FIELD(name, doc)	atomic64_t name;
		TONIC_PCI_COUNTERS(TP_CTR_FIELD)
#undef TP_CTR_FIELD
	} ctr;
};

/*
 * Loopback self-test (sysfs tonic_loopback): flows whose client is the
 * driver itself, acking every descriptor at once; exercises flow add, push,
 * incoming, the event ring and remove without the TCP glue, and measures
 * descriptors per second and MMIO per descriptor in the guest.
 */
#define TP_LB_MAX	16
struct tp_lb {
	u32 n;
	u32 flow[TP_LB_MAX], hi[TP_LB_MAX], tail[TP_LB_MAX], acked[TP_LB_MAX];
	u64 descs;
	bool failed;
};

static const struct tonic_flow_client *tp_client;
static LIST_HEAD(tp_zombies);	/* unbound devices, freed at module exit */
static DEFINE_MUTEX(tp_zombie_lock);
static bool tp_registered;

static inline struct tonic_pci *to_tp(struct tonic_dev *dev)
{
	return container_of(dev, struct tonic_pci, dev);
}

static u32 tp_rd(struct tonic_pci *p, u32 off)
{
	atomic64_inc(&p->ctr.mmio_reads);
	return readl(p->win + off);
}

static void tp_wr(struct tonic_pci *p, u32 off, u32 v)
{
	atomic64_inc(&p->ctr.mmio_writes);
	writel(v, p->win + off);
}

static void tp_arm(struct tonic_pci *p, u64 ns)
{
	if (!READ_ONCE(p->dying))
		hrtimer_start(&p->timer, ns_to_ktime(ns), HRTIMER_MODE_REL);
}

static void tp_kick(struct tonic_pci *p)
{
	if (!READ_ONCE(p->dying))
		queue_work(p->wq, &p->poll);
}

static enum hrtimer_restart tp_timer_fn(struct hrtimer *t)
{
	tp_kick(container_of(t, struct tonic_pci, timer));
	return HRTIMER_NORESTART;
}

static void tp_lb_desc(struct tp_lb *lb, const struct tonic_desc *d)
{
	u32 i;

	for (i = 0; i < lb->n; i++) {
		if (lb->flow[i] != d->flow)
			continue;
		if (tonic_after(d->seg + 1, lb->hi[i]))
			lb->hi[i] = d->seg + 1;
		lb->descs++;
	}
}

/* Under evt_lock: output to the flow's own client (or the loopback test). */
static void tp_out_desc(struct tonic_pci *p, void *priv, const struct tonic_desc *d)
{
	const struct tonic_flow_client *cl = tonic_dev_flow_client(&p->dev, d->flow);

	if (!priv)
		return;
	trace_tonic_segment_out(&p->dev, d);
	if (priv == p->lb)
		tp_lb_desc(p->lb, d);
	else if (cl)
		cl->desc(priv, d);
}

static void tp_out_note(struct tonic_pci *p, void *priv, const struct tonic_note *n)
{
	const struct tonic_flow_client *cl = tonic_dev_flow_client(&p->dev, n->flow);

	if (!priv)
		return;
	if (n->type == TONIC_NOTE_FAILED)
		tonic_dev_flow_failed(&p->dev, n->flow, n->value);
	if (priv == p->lb) {
		if (n->type == TONIC_NOTE_FAILED)
			p->lb->failed = true;
	} else if (cl) {
		cl->note(priv, n);
	}
}

/* Under evt_lock: hand a FAILED note to @f's client; nothing more follows. */
static void tp_fail_flow(struct tonic_pci *p, u32 f)
{
	struct tonic_note n = { .flow = f, .type = TONIC_NOTE_FAILED,
				.value = TONIC_PCI_FAIL_DEVICE };
	void *priv = tonic_dev_flow_priv(&p->dev, f);

	if (!p->flows[f].live || p->flows[f].failed)
		return;
	p->flows[f].failed = true;
	atomic64_inc(&p->ctr.failovers);
	tp_out_note(p, priv, &n);
}

/* Under evt_lock: the device is lost; every flow goes back to software. */
static void tp_dead(struct tonic_pci *p, const char *why, u32 val)
{
	u32 f;

	if (p->state != TP_UP)
		return;
	p->state = TP_DEAD;
	dev_warn(&p->pdev->dev, "tonic: device lost (%s, 0x%x): %u flow(s) back to software TCP\n",
		 why, val, p->nlive);
	for (f = 0; f < p->dev.max_flows; f++)
		tp_fail_flow(p, f);
}

/*
 * Post one command (the first @words 32-bit words) and ring the doorbell.
 * Caller holds cmd_lock.  -EIO when the device is not up, -ENOBUFS when the
 * ring is full.
 */
static int tp_post(struct tonic_pci *p, const struct tonic_pci_cmd *c, unsigned int words)
{
	u32 slot, head;

	if (READ_ONCE(p->state) != TP_UP)
		return -EIO;
	if (p->cmd_tail - p->cmd_head >= p->cmd_n) {
		head = tp_rd(p, TONIC_PCI_REG_CMD_HEAD);
		if (p->cmd_tail - head > p->cmd_n) {
			/* The poller sees the same garbage and fails the device. */
			tp_kick(p);
			return -EIO;
		}
		p->cmd_head = head;
		if (p->cmd_tail - head >= p->cmd_n) {
			atomic64_inc(&p->ctr.cmd_ring_full);
			return -ENOBUFS;
		}
	}
	slot = p->cmd_tail & (p->cmd_n - 1);
	__iowrite32_copy(p->win + p->cmd_off + slot * TONIC_PCI_CMD_SIZE, c, words);
	atomic64_add(words, &p->ctr.mmio_writes);
	p->cmd_tail++;
	/* The command is in device memory before the doorbell says so. */
	wmb();
	tp_wr(p, TONIC_PCI_REG_CMD_TAIL, p->cmd_tail);
	atomic64_inc(&p->ctr.doorbells);
	atomic64_inc(&p->ctr.commands);
	return 0;
}

static int tp_prog_index(struct tonic_pci *p, const struct tonic_prog_ops *prog)
{
	u32 i;

	if (!prog)
		return -EINVAL;
	for (i = 0; i < p->nprogs; i++)
		if (!strncmp(p->progs[i], prog->name, TONIC_PCI_PROG_NAME_LEN))
			return i;
	return -EOPNOTSUPP;
}

static int tp_flow_add(struct tonic_dev *dev, u32 flow, const struct tonic_flow_cfg *cfg)
{
	struct tonic_pci *p = to_tp(dev);
	struct tonic_pci_cmd c = { .op = TONIC_PCI_OP_FLOW_ADD, .flow = flow };
	struct tp_flow *f;
	int prog, err;

	if (flow >= dev->max_flows)
		return -EINVAL;
	prog = tp_prog_index(p, cfg->prog);
	if (prog < 0)
		return prog;
	f = &p->flows[flow];
	c.add.prog = prog;
	c.add.seg_size = cfg->seg_size;
	c.add.wnd_segs = cfg->wnd_segs;
	c.add.init_cwnd = cfg->init_cwnd;
	c.add.init_rate_kbps = cfg->init_rate_kbps;
	c.add.init_credit = cfg->init_credit;
	c.add.rto_cycles = cfg->rto_cycles;
	c.add.ack_notify = cfg->ack_notify;
	c.add.start_seg = cfg->start_seg;

	spin_lock_bh(&p->evt_lock);
	if (p->state != TP_UP || f->live) {
		spin_unlock_bh(&p->evt_lock);
		return p->state != TP_UP ? -ENODEV : -EBUSY;
	}
	f->epoch++;
	c.epoch = f->epoch;
	f->seg_size = cfg->seg_size;
	f->tail = cfg->start_seg;
	clear_bit(0, &f->sub);
	spin_lock(&p->cmd_lock);
	err = tp_post(p, &c, 2 + 9);
	spin_unlock(&p->cmd_lock);
	if (!err) {
		f->live = true;
		f->failed = false;
		p->nlive++;
	}
	spin_unlock_bh(&p->evt_lock);
	tp_kick(p);
	return err == -EIO ? -ENODEV : err;
}

static int tp_flow_remove(struct tonic_dev *dev, u32 flow)
{
	struct tonic_pci *p = to_tp(dev);
	struct tonic_pci_cmd c = { .op = TONIC_PCI_OP_FLOW_REMOVE, .flow = flow };
	struct tp_flow *f;

	if (flow >= dev->max_flows)
		return -EINVAL;
	f = &p->flows[flow];
	/* After this no event of the flow reaches its client. */
	spin_lock_bh(&p->evt_lock);
	if (!f->live) {
		spin_unlock_bh(&p->evt_lock);
		return -ENOENT;
	}
	f->live = false;
	p->nlive--;
	c.epoch = f->epoch;
	spin_lock(&p->cmd_lock);
	/* Best effort: a device that misses it frees the slot at the next add. */
	tp_post(p, &c, 2);
	spin_unlock(&p->cmd_lock);
	spin_unlock_bh(&p->evt_lock);
	return 0;
}

static int tp_push(struct tonic_dev *dev, u32 flow, u32 tail, u32 last_len)
{
	struct tonic_pci *p = to_tp(dev);
	struct tonic_pci_cmd c = { .op = TONIC_PCI_OP_PUSH, .flow = flow };
	struct tp_flow *f;
	u32 old_tail;
	int err;

	if (flow >= dev->max_flows)
		return -EINVAL;
	f = &p->flows[flow];
	/* The engine's own checks, mirrored: the device must not have to refuse. */
	if (READ_ONCE(f->failed))
		return -EPIPE;
	if (test_bit(0, &f->sub))
		return -EBUSY;
	if (!last_len || last_len > f->seg_size || !tonic_after(tail, f->tail))
		return -EINVAL;
	c.epoch = f->epoch;
	c.push.tail = tail;
	c.push.last_len = last_len;
	spin_lock_bh(&p->cmd_lock);
	/* Recorded before the device can answer: the poller validates against it. */
	old_tail = f->tail;
	WRITE_ONCE(f->tail, tail);
	if (last_len < f->seg_size)
		set_bit(0, &f->sub);
	err = tp_post(p, &c, 4);
	if (err) {
		WRITE_ONCE(f->tail, old_tail);
		clear_bit(0, &f->sub);
	}
	spin_unlock_bh(&p->cmd_lock);
	if (err == -ENOBUFS)
		err = -EBUSY;	/* retried at the next carve */
	tp_kick(p);
	return err;
}

static int tp_incoming(struct tonic_dev *dev, u32 flow, const struct tonic_pkt *pkt)
{
	struct tonic_pci *p = to_tp(dev);
	struct tonic_pci_cmd c = { .op = TONIC_PCI_OP_INCOMING, .flow = flow };
	u32 i, n = min_t(u32, pkt->nsack, TONIC_MAX_SACK);
	int err;

	if (flow >= dev->max_flows)
		return -EINVAL;
	c.epoch = p->flows[flow].epoch;
	c.in.type = pkt->type;
	c.in.flags = pkt->flags;
	c.in.nsack = n;
	c.in.cum_ack = pkt->cum_ack;
	c.in.nack = pkt->nack;
	c.in.grant = pkt->grant;
	c.in.rtt = pkt->rtt;
	for (i = 0; i < n; i++) {
		c.in.sack[i][0] = pkt->sack[i].start;
		c.in.sack[i][1] = pkt->sack[i].end;
	}
	spin_lock_bh(&p->cmd_lock);
	err = tp_post(p, &c, 7 + 2 * n);
	spin_unlock_bh(&p->cmd_lock);
	trace_tonic_ack_in(dev, flow, pkt, err);
	tp_kick(p);
	return err;
}

static u64 tp_rd64(struct tonic_pci *p, u32 off)
{
	u32 lo = tp_rd(p, off), hi = tp_rd(p, off + 4);

	return (u64)hi << 32 | lo;
}

static int tp_flow_stats(struct tonic_dev *dev, u32 flow, struct tonic_flow_stats *st)
{
	struct tonic_pci *p = to_tp(dev);
	struct tonic_pci_fstat r;
	int err = -ENOENT;

	if (flow >= dev->max_flows)
		return -EINVAL;
	spin_lock_bh(&p->evt_lock);
	if (p->state == TP_UP && p->flows[flow].live) {
		__ioread32_copy(&r, p->win + p->fstat_off + flow * TONIC_PCI_FSTAT_SIZE,
				sizeof(r) / 4);
		atomic64_add(sizeof(r) / 4, &p->ctr.mmio_reads);
		if (r.valid == 1 && r.epoch == p->flows[flow].epoch)
			err = 0;
	}
	spin_unlock_bh(&p->evt_lock);
	if (err)
		return err;
	memset(st, 0, sizeof(*st));
	st->segs_sent = r.segs_sent;
	st->segs_rtx = r.segs_rtx;
	st->segs_acked = r.segs_acked;
	st->bytes_sent = r.bytes_sent;
	st->timeouts = r.timeouts;
	st->nacks = r.nacks;
	st->cnps = r.cnps;
	st->grants = r.grants;
	st->wnd_start = r.wnd_start;
	st->highest_sent = r.highest_sent;
	st->tail = r.tail;
	st->cwnd = r.cwnd;
	st->rate_kbps = r.rate_kbps;
	st->credit = r.credit;
	st->outstanding = r.outstanding;
	st->last_rtt = r.last_rtt;
	st->state = r.state;
	return 0;
}

static void tp_dev_stats(struct tonic_dev *dev, struct tonic_core_stats *st)
{
	struct tonic_pci *p = to_tp(dev);
	u32 o = p->cstat_off;

	memset(st, 0, sizeof(*st));
	spin_lock_bh(&p->evt_lock);
	if (p->state == TP_UP) {
		/* Each engine counter has its register (TONIC_PCI_CSTAT_NAME). */
#define TP_RD_CSTAT(name, NAME, doc)	st->name = tp_rd64(p, o + TONIC_PCI_CSTAT_##NAME);
		TONIC_CORE_COUNTERS(TP_RD_CSTAT)
#undef TP_RD_CSTAT
	}
	spin_unlock_bh(&p->evt_lock);
	st->in_overflow += atomic64_read(&p->ctr.cmd_ring_full);
}

static const char *const tp_ctr_names[] = {
#define TP_CTR_NAME(name, doc)	#name,
	TONIC_PCI_COUNTERS(TP_CTR_NAME)
#undef TP_CTR_NAME
};

static void tp_ctr_read(struct tonic_dev *dev, u64 *vals)
{
	struct tonic_pci *p = to_tp(dev);

#define TP_CTR_READ(name, doc)	*vals++ = atomic64_read(&p->ctr.name);
	TONIC_PCI_COUNTERS(TP_CTR_READ)
#undef TP_CTR_READ
}

static const char *tp_prog_name(struct tonic_dev *dev, u32 idx)
{
	struct tonic_pci *p = to_tp(dev);

	return idx < p->nprogs ? p->progs[idx] : NULL;
}

static void tp_destroy(struct tonic_dev *dev)
{
	struct tonic_pci *p = to_tp(dev);

	kfree(p->flows);
	kfree(p);
}

static const struct tonic_dev_ops tp_ops = {
	.flow_add	= tp_flow_add,
	.flow_remove	= tp_flow_remove,
	.push		= tp_push,
	.incoming	= tp_incoming,
	.flow_stats	= tp_flow_stats,
	.dev_stats	= tp_dev_stats,
	.ctr_read	= tp_ctr_read,
	.ctr_names	= tp_ctr_names,
	.nctrs		= ARRAY_SIZE(tp_ctr_names),
	.destroy	= tp_destroy,
	.prog_name	= tp_prog_name,
};

/* Under evt_lock: one event, validated, to its flow's client. */
static void tp_event(struct tonic_pci *p, const struct tonic_pci_evt *e, u32 *bad)
{
	struct tp_flow *f;
	void *priv;

	if (e->flow >= p->dev.max_flows ||
	    (e->type != TONIC_PCI_EV_DESC && e->type != TONIC_PCI_EV_NOTE &&
	     e->type != TONIC_PCI_EV_CMD_ERR)) {
		(*bad)++;
		dev_warn_ratelimited(&p->pdev->dev, "tonic: bad event type %u flow %u\n",
				     e->type, e->flow);
		return;
	}
	f = &p->flows[e->flow];
	if (!f->live || f->failed || e->epoch != f->epoch) {
		atomic64_inc(&p->ctr.stale_events);	/* an earlier incarnation's: dropped */
		return;
	}
	priv = tonic_dev_flow_priv(&p->dev, e->flow);
	switch (e->type) {
	case TONIC_PCI_EV_DESC: {
		struct tonic_desc d = { .flow = e->flow, .seg = e->a, .len = e->b,
					.flags = e->flags };

		if (!d.len || d.len > f->seg_size ||
		    (d.flags & ~(TONIC_DESC_RTX | TONIC_DESC_LAST | TONIC_DESC_CWR)) ||
		    !tonic_before(d.seg, READ_ONCE(f->tail))) {
			(*bad)++;
			dev_warn_ratelimited(&p->pdev->dev,
					     "tonic: bad descriptor flow %u seg %u len %u\n",
					     d.flow, d.seg, d.len);
			tp_fail_flow(p, e->flow);
			return;
		}
		atomic64_inc(&p->ctr.descriptors);
		tp_out_desc(p, priv, &d);
		break;
	}
	case TONIC_PCI_EV_NOTE: {
		struct tonic_note n = { .flow = e->flow, .type = e->flags, .value = e->a };

		/* Acked / burst-done points never lie beyond what was pushed. */
		if (n.type > TONIC_NOTE_FAILED ||
		    (n.type != TONIC_NOTE_FAILED && tonic_after(n.value, READ_ONCE(f->tail)))) {
			(*bad)++;
			dev_warn_ratelimited(&p->pdev->dev, "tonic: bad note %u value %u flow %u\n",
					     n.type, n.value, n.flow);
			tp_fail_flow(p, e->flow);
			return;
		}
		if (n.type == TONIC_NOTE_BURST_DONE)
			clear_bit(0, &f->sub);
		atomic64_inc(&p->ctr.notes);
		if (n.type == TONIC_NOTE_FAILED)
			f->failed = true;
		tp_out_note(p, priv, &n);
		break;
	}
	case TONIC_PCI_EV_CMD_ERR:
		dev_warn_ratelimited(&p->pdev->dev, "tonic: device refused op %u of flow %u (%d)\n",
				     e->a, e->flow, -(int)e->b);
		tp_fail_flow(p, e->flow);
		break;
	}
}

/* Under evt_lock, device up: heartbeat and status. */
static void tp_check_live(struct tonic_pci *p)
{
	u32 sts = tp_rd(p, TONIC_PCI_REG_STATUS), hb;

	if (sts == ~0u) {
		tp_dead(p, "device gone (all-ones read)", sts);
		return;
	}
	if (sts & TONIC_PCI_STS_FATAL) {
		tp_dead(p, "device error", tp_rd(p, TONIC_PCI_REG_ERROR));
		return;
	}
	if (!(sts & TONIC_PCI_STS_RUNNING)) {
		tp_dead(p, "device stopped running", sts);
		return;
	}
	hb = tp_rd(p, TONIC_PCI_REG_HEARTBEAT);
	if (hb != p->last_hb) {
		p->last_hb = hb;
		p->hb_seen = jiffies;
	} else if (time_after(jiffies, p->hb_seen + HB_TIMEOUT)) {
		tp_dead(p, "heartbeat stopped", hb);
	}
}

/* Under evt_lock: returns the number of events handled. */
static u32 tp_drain(struct tonic_pci *p)
{
	struct tonic_pci_evt e;
	u32 tail, n = 0, bad = 0;

	tail = tp_rd(p, TONIC_PCI_REG_EVT_TAIL);
	if (tail - p->evt_head > p->evt_n) {
		tp_dead(p, "event ring index out of range", tail);
		return 0;
	}
	/* Entries are read after the index that published them. */
	rmb();
	while (p->evt_head != tail && n < EVT_BUDGET) {
		__ioread32_copy(&e, p->win + p->evt_off +
				(p->evt_head & (p->evt_n - 1)) * TONIC_PCI_EVT_SIZE,
				TONIC_PCI_EVT_SIZE / 4);
		atomic64_add(TONIC_PCI_EVT_SIZE / 4, &p->ctr.mmio_reads);
		p->evt_head++;
		n++;
		tp_event(p, &e, &bad);
	}
	if (n) {
		/* Done reading the entries before giving them back. */
		mb();
		tp_wr(p, TONIC_PCI_REG_EVT_HEAD, p->evt_head);
		atomic64_add(n, &p->ctr.events);
	}
	if (bad) {
		atomic64_add(bad, &p->ctr.bad_events);
		if (bad > BAD_EVT_LIMIT)
			tp_dead(p, "garbage on the event ring", bad);
	}
	return n;
}

/* Reset handshake, first half: stop the device and ask for a reset. */
static void tp_reset_start(struct tonic_pci *p)
{
	p->reset_token++;
	if (!p->reset_token)
		p->reset_token++;
	tp_wr(p, TONIC_PCI_REG_CONTROL, 0);
	tp_wr(p, TONIC_PCI_REG_CMD_TAIL, 0);
	tp_wr(p, TONIC_PCI_REG_EVT_HEAD, 0);
	wmb();
	tp_wr(p, TONIC_PCI_REG_RESET_REQ, p->reset_token);
	p->reset_deadline = jiffies + msecs_to_jiffies(TONIC_PCI_RESET_TIMEOUT_MS);
	p->state = TP_RESETTING;
}

/* Second half: true once the device acknowledged and runs again. */
static bool tp_reset_done(struct tonic_pci *p)
{
	if (tp_rd(p, TONIC_PCI_REG_RESET_ACK) != p->reset_token)
		return false;
	spin_lock_bh(&p->cmd_lock);
	p->cmd_tail = p->cmd_head = 0;
	spin_unlock_bh(&p->cmd_lock);
	p->evt_head = 0;
	tp_wr(p, TONIC_PCI_REG_CONTROL, TONIC_PCI_CTRL_ENABLE);
	p->last_hb = tp_rd(p, TONIC_PCI_REG_HEARTBEAT);
	p->hb_seen = jiffies;
	p->next_live_check = jiffies + msecs_to_jiffies(50);	/* time to see ENABLE */
	atomic64_inc(&p->ctr.resets);
	p->state = TP_UP;
	return true;
}

static void tp_poll(struct work_struct *w)
{
	struct tonic_pci *p = container_of(w, struct tonic_pci, poll);
	u64 next = POLL_SLOW_NS;
	u32 n = 0;

	spin_lock_bh(&p->evt_lock);
	switch (p->state) {
	case TP_UP:
		if (time_after_eq(jiffies, p->next_live_check)) {
			p->next_live_check = jiffies + 1;
			tp_check_live(p);
			if (p->state != TP_UP)
				break;
		}
		n = tp_drain(p);
		if (n)
			p->last_work = jiffies;
		if (p->state != TP_UP)
			next = POLL_DEAD_NS;
		else if (p->nlive || time_before(jiffies, p->last_work + IDLE_AFTER))
			next = POLL_FAST_NS;
		break;
	case TP_DEAD:
		next = POLL_DEAD_NS;
		/* Back into service once the device looks alive again. */
		if (tp_rd(p, TONIC_PCI_REG_MAGIC) == TONIC_PCI_MAGIC &&
		    (tp_rd(p, TONIC_PCI_REG_STATUS) & TONIC_PCI_STS_READY)) {
			u32 hb = tp_rd(p, TONIC_PCI_REG_HEARTBEAT);

			if (hb != p->last_hb)
				tp_reset_start(p);
			p->last_hb = hb;
		}
		break;
	case TP_RESETTING:
		next = 10 * NSEC_PER_MSEC;
		if (tp_reset_done(p))
			dev_info(&p->pdev->dev, "tonic: device reset, back in service\n");
		else if (time_after(jiffies, p->reset_deadline))
			p->state = TP_DEAD;
		break;
	case TP_GONE:
		spin_unlock_bh(&p->evt_lock);
		return;
	}
	spin_unlock_bh(&p->evt_lock);
	if (n == EVT_BUDGET)
		tp_kick(p);
	else
		tp_arm(p, next);
}

/*
 * [@off, @off + @n * @size) lies in [@lo, @hi) and @off is 32-bit aligned.
 * Computed in 64 bits: a device's offsets and counts are any 32-bit
 * values, and their sum must not wrap into the window.
 */
static bool tp_region_ok(u32 off, u32 n, u32 size, u64 lo, u64 hi, u64 *end)
{
	*end = (u64)off + (u64)n * size;
	return off >= lo && IS_ALIGNED(off, 4) && *end <= hi;
}

/* Two regions [a, a_end) and [b, b_end) overlap. */
static bool tp_overlap(u64 a, u64 a_end, u64 b, u64 b_end)
{
	return a < b_end && b < a_end;
}

/* Probe-time bring-up: check the identification, reset, enable. */
static int tp_identify(struct tonic_pci *p)
{
	struct device *d = &p->pdev->dev;
	u32 magic, max_flows, cycle_ps, size, prog_off, i;
	u64 cmd_end, evt_end, fs_end, prog_end, cstat_end;
	unsigned long deadline = jiffies + msecs_to_jiffies(TONIC_PCI_RESET_TIMEOUT_MS);

	magic = tp_rd(p, TONIC_PCI_REG_MAGIC);
	if (magic != TONIC_PCI_MAGIC) {
		dev_info(d, "tonic: no Tonic behind this function (magic 0x%08x)\n", magic);
		return -ENODEV;
	}
	while (!(tp_rd(p, TONIC_PCI_REG_STATUS) & TONIC_PCI_STS_READY)) {
		if (time_after(jiffies, deadline)) {
			dev_warn(d, "tonic: device not ready\n");
			return -ETIMEDOUT;
		}
		msleep(10);
	}
	p->version = tp_rd(p, TONIC_PCI_REG_VERSION);
	p->caps = tp_rd(p, TONIC_PCI_REG_CAPS);
	max_flows = tp_rd(p, TONIC_PCI_REG_MAX_FLOWS);
	p->wnd_bits = tp_rd(p, TONIC_PCI_REG_WND_BITS);
	p->ring_depth = tp_rd(p, TONIC_PCI_REG_RING_DEPTH);
	cycle_ps = tp_rd(p, TONIC_PCI_REG_CYCLE_PS);
	size = tp_rd(p, TONIC_PCI_REG_WINDOW_SIZE);
	p->cmd_off = tp_rd(p, TONIC_PCI_REG_CMD_OFF);
	p->cmd_n = tp_rd(p, TONIC_PCI_REG_CMD_ENTRIES);
	p->evt_off = tp_rd(p, TONIC_PCI_REG_EVT_OFF);
	p->evt_n = tp_rd(p, TONIC_PCI_REG_EVT_ENTRIES);
	prog_off = tp_rd(p, TONIC_PCI_REG_PROG_OFF);
	p->nprogs = tp_rd(p, TONIC_PCI_REG_PROG_COUNT);
	p->fstat_off = tp_rd(p, TONIC_PCI_REG_FSTAT_OFF);
	p->cstat_off = tp_rd(p, TONIC_PCI_REG_CSTAT_OFF);

	/*
	 * Every number is checked before it is used as an offset or a count,
	 * every region's end in 64 bits (an offset near 4 GiB plus a ring
	 * must not wrap to a small "end" and pass): the rings and the flow
	 * statistics inside the window the device says it uses, which lies
	 * inside the BAR; the program table and the engine statistics inside
	 * the register block; nothing overlapping.
	 */
	if (p->version >> 16 != TONIC_PCI_VERSION_MAJOR || size > p->win_len ||
	    !max_flows || max_flows > TONIC_MAX_FLOWS || !cycle_ps ||
	    (p->wnd_bits != 128 && p->wnd_bits != 256) ||
	    !p->cmd_n || p->cmd_n > 65536 || !is_power_of_2(p->cmd_n) ||
	    p->evt_n < 64 || p->evt_n > 1048576 || !is_power_of_2(p->evt_n) ||
	    p->nprogs > TONIC_PCI_PROG_MAX ||
	    !tp_region_ok(p->cmd_off, p->cmd_n, TONIC_PCI_CMD_SIZE,
			  TONIC_PCI_REG_BLOCK_SIZE, size, &cmd_end) ||
	    !tp_region_ok(p->evt_off, p->evt_n, TONIC_PCI_EVT_SIZE,
			  TONIC_PCI_REG_BLOCK_SIZE, size, &evt_end) ||
	    !tp_region_ok(p->fstat_off, max_flows, TONIC_PCI_FSTAT_SIZE,
			  TONIC_PCI_REG_BLOCK_SIZE, size, &fs_end) ||
	    !tp_region_ok(prog_off, TONIC_PCI_PROG_MAX, TONIC_PCI_PROG_NAME_LEN,
			  0, TONIC_PCI_REG_BLOCK_SIZE, &prog_end) ||
	    !tp_region_ok(p->cstat_off, 1, TONIC_PCI_CSTAT_SIZE,
			  0, TONIC_PCI_REG_BLOCK_SIZE, &cstat_end) ||
	    tp_overlap(p->cmd_off, cmd_end, p->evt_off, evt_end) ||
	    tp_overlap(p->fstat_off, fs_end, p->evt_off, evt_end) ||
	    tp_overlap(p->fstat_off, fs_end, p->cmd_off, cmd_end)) {
		dev_warn(d, "tonic: inconsistent identification (version 0x%x, window %u, cmd 0x%x+%u, evt 0x%x+%u, fstat 0x%x, prog 0x%x, cstat 0x%x)\n",
			 p->version, size, p->cmd_off, p->cmd_n, p->evt_off, p->evt_n,
			 p->fstat_off, prog_off, p->cstat_off);
		return -EINVAL;
	}
	for (i = 0; i < p->nprogs; i++) {
		__ioread32_copy(p->progs[i], p->win + prog_off + i * TONIC_PCI_PROG_NAME_LEN,
				TONIC_PCI_PROG_NAME_LEN / 4);
		p->progs[i][TONIC_PCI_PROG_NAME_LEN - 1] = 0;
	}
	p->dev.max_flows = max_flows;
	p->dev.cycle_ps = cycle_ps;

	/* A device left running by an earlier driver is reset first. */
	p->reset_token = tp_rd(p, TONIC_PCI_REG_RESET_ACK);
	tp_reset_start(p);
	while (!tp_reset_done(p)) {
		if (time_after(jiffies, p->reset_deadline)) {
			dev_warn(d, "tonic: device did not acknowledge the reset\n");
			return -ETIMEDOUT;
		}
		msleep(5);
	}
	return 0;
}

/* sysfs: what the device says about itself, and the driver's counters. */
static ssize_t tonic_info_show(struct device *d, struct device_attribute *attr, char *buf)
{
	struct tonic_pci *p = pci_get_drvdata(to_pci_dev(d));
	static const char *const states[] = { "up", "dead", "resetting", "gone" };
	int len, i;

	if (!p)
		return -ENODEV;
	len = sysfs_emit(buf, "name: %s\nstate: %s\nversion: %u.%u\ncaps: 0x%x\n"
			 "max_flows: %u\nwnd_bits: %u\nring_depth: %u\ncycle_ps: %u\n"
			 "cmd_entries: %u\nevt_entries: %u\nflows: %u\nprograms:",
			 p->name, states[READ_ONCE(p->state)], p->version >> 16,
			 p->version & 0xffff, p->caps, p->dev.max_flows, p->wnd_bits,
			 p->ring_depth, p->dev.cycle_ps, p->cmd_n, p->evt_n, READ_ONCE(p->nlive));
	for (i = 0; i < p->nprogs; i++)
		len += sysfs_emit_at(buf, len, " %s", p->progs[i]);
	len += sysfs_emit_at(buf, len, "\n");
#define TP_CTR_SHOW(name, doc)						\
	len += sysfs_emit_at(buf, len, #name ": %lld\n", atomic64_read(&p->ctr.name));
	TONIC_PCI_COUNTERS(TP_CTR_SHOW)
#undef TP_CTR_SHOW
	return len;
}
static DEVICE_ATTR_RO(tonic_info);

/* Fault injection for tests: "die", "hang" or "garbage" (device with CAP_FAULT). */
static ssize_t tonic_fault_store(struct device *d, struct device_attribute *attr,
				 const char *buf, size_t count)
{
	struct tonic_pci *p = pci_get_drvdata(to_pci_dev(d));
	u32 v;

	if (!p || !(p->caps & TONIC_PCI_CAP_FAULT))
		return -EOPNOTSUPP;
	if (sysfs_streq(buf, "die"))
		v = TONIC_PCI_FAULT_DIE;
	else if (sysfs_streq(buf, "hang"))
		v = TONIC_PCI_FAULT_HANG;
	else if (sysfs_streq(buf, "garbage"))
		v = TONIC_PCI_FAULT_GARBAGE;
	else
		return -EINVAL;
	spin_lock_bh(&p->evt_lock);
	if (p->state != TP_GONE)
		tp_wr(p, TONIC_PCI_REG_FAULT, v);
	spin_unlock_bh(&p->evt_lock);
	return count;
}
static DEVICE_ATTR_WO(tonic_fault);

static int tp_loopback(struct tonic_pci *p, u32 nflows, u32 segs)
{
	struct tonic_flow_cfg cfg = { .prog = tonic_prog_find("newreno"), .seg_size = 1448,
				      .init_cwnd = 64, .ack_notify = 64 };
	u64 rd0, wr0, db0, cmd0, ev0, t0, t1, descs;
	unsigned long deadline;
	struct tp_lb *lb;
	bool done = false, failed;
	u32 i, hi;
	int err = 0;

	lb = kzalloc(sizeof(*lb), GFP_KERNEL);
	if (!lb) {
		mutex_lock(&p->lb_mutex);
		snprintf(p->lb_result, sizeof(p->lb_result), "result: fail\n");
		p->lb_busy = false;
		mutex_unlock(&p->lb_mutex);
		return -ENOMEM;
	}
	spin_lock_bh(&p->evt_lock);
	p->lb = lb;
	spin_unlock_bh(&p->evt_lock);
	for (i = 0; i < nflows; i++) {
		err = tonic_dev_flow_attach_flags(&p->dev, &cfg, NULL, lb, TONIC_DEV_FLOW_SELF,
						  &lb->flow[i]);
		if (err)
			break;
		spin_lock_bh(&p->evt_lock);
		lb->n = i + 1;
		spin_unlock_bh(&p->evt_lock);
	}
	rd0 = atomic64_read(&p->ctr.mmio_reads);
	wr0 = atomic64_read(&p->ctr.mmio_writes);
	db0 = atomic64_read(&p->ctr.doorbells);
	cmd0 = atomic64_read(&p->ctr.commands);
	ev0 = atomic64_read(&p->ctr.events);
	t0 = ktime_get_ns();
	deadline = jiffies + 30 * HZ;
	while (!err && !done && time_before(jiffies, deadline)) {
		done = true;
		for (i = 0; i < lb->n; i++) {
			spin_lock_bh(&p->evt_lock);
			hi = lb->hi[i];
			failed = lb->failed;
			spin_unlock_bh(&p->evt_lock);
			if (failed) {
				err = -EIO;
				break;
			}
			if (hi != lb->acked[i]) {
				struct tonic_pkt pkt = { .type = TONIC_PKT_ACK, .cum_ack = hi };

				if (!tp_incoming(&p->dev, lb->flow[i], &pkt))
					lb->acked[i] = hi;
			}
			if (lb->tail[i] < segs && lb->tail[i] - hi < 256) {
				u32 t = min(lb->tail[i] + 64, segs);

				if (!tp_push(&p->dev, lb->flow[i], t, cfg.seg_size))
					lb->tail[i] = t;
			}
			if (lb->acked[i] != segs)
				done = false;
		}
		if (!done)
			usleep_range(100, 200);
	}
	t1 = ktime_get_ns();
	for (i = 0; i < lb->n; i++)
		tonic_dev_flow_detach(&p->dev, lb->flow[i]);
	spin_lock_bh(&p->evt_lock);
	descs = lb->descs;
	p->lb = NULL;
	spin_unlock_bh(&p->evt_lock);
	if (!err && !done)
		err = -ETIMEDOUT;
	mutex_lock(&p->lb_mutex);
	snprintf(p->lb_result, sizeof(p->lb_result),
		 "result: %s\nflows: %u\nsegments: %u\ndescriptors: %llu\nns: %llu\n"
		 "desc_per_s: %llu\nmmio_reads_per_desc_x100: %llu\nmmio_writes_per_desc_x100: %llu\n"
		 "descs_per_doorbell_x100: %llu\ncommands: %llu\nevents: %llu\n",
		 err ? "fail" : "ok", lb->n, segs, descs, t1 - t0,
		 div64_u64(descs * NSEC_PER_SEC, max_t(u64, t1 - t0, 1)),
		 div64_u64((atomic64_read(&p->ctr.mmio_reads) - rd0) * 100, max_t(u64, descs, 1)),
		 div64_u64((atomic64_read(&p->ctr.mmio_writes) - wr0) * 100, max_t(u64, descs, 1)),
		 div64_u64(descs * 100, max_t(u64, atomic64_read(&p->ctr.doorbells) - db0, 1)),
		 atomic64_read(&p->ctr.commands) - cmd0, atomic64_read(&p->ctr.events) - ev0);
	p->lb_busy = false;
	mutex_unlock(&p->lb_mutex);
	kfree(lb);
	return err;
}

static void tp_lb_work(struct work_struct *w)
{
	struct tonic_pci *p = container_of(w, struct tonic_pci, lb_work);

	tp_loopback(p, p->lb_flows, p->lb_segs);
}

/*
 * Write "FLOWS SEGMENTS" to start the loopback self-test (in a work item,
 * so that an unbind can interrupt it); read "result: running|ok|fail" and
 * the figures.
 */
static ssize_t tonic_loopback_store(struct device *d, struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct tonic_pci *p = pci_get_drvdata(to_pci_dev(d));
	u32 nflows, segs;
	int err = 0;

	if (!p)
		return -ENODEV;
	if (sscanf(buf, "%u %u", &nflows, &segs) != 2 || !nflows || nflows > TP_LB_MAX ||
	    !segs || segs > (1u << 24))
		return -EINVAL;
	mutex_lock(&p->lb_mutex);
	if (p->lb_busy || READ_ONCE(p->dying)) {
		err = -EBUSY;
	} else {
		p->lb_busy = true;
		p->lb_flows = nflows;
		p->lb_segs = segs;
		snprintf(p->lb_result, sizeof(p->lb_result), "result: running\n");
		queue_work(system_long_wq, &p->lb_work);
	}
	mutex_unlock(&p->lb_mutex);
	return err ? err : count;
}

static ssize_t tonic_loopback_show(struct device *d, struct device_attribute *attr, char *buf)
{
	struct tonic_pci *p = pci_get_drvdata(to_pci_dev(d));
	ssize_t len;

	if (!p)
		return -ENODEV;
	mutex_lock(&p->lb_mutex);
	len = sysfs_emit(buf, "%s", p->lb_result);
	mutex_unlock(&p->lb_mutex);
	return len;
}
static DEVICE_ATTR_RW(tonic_loopback);

static struct attribute *tp_attrs[] = {
	&dev_attr_tonic_info.attr,
	&dev_attr_tonic_fault.attr,
	&dev_attr_tonic_loopback.attr,
	NULL,
};
ATTRIBUTE_GROUPS(tp);

static int tp_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	int bar = id->driver_data, err;
	struct tonic_pci *p;

	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->pdev = pdev;
	spin_lock_init(&p->cmd_lock);
	spin_lock_init(&p->evt_lock);
	INIT_LIST_HEAD(&p->zombie);
	mutex_init(&p->lb_mutex);
	INIT_WORK(&p->lb_work, tp_lb_work);
	INIT_WORK(&p->poll, tp_poll);
	hrtimer_init(&p->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	p->timer.function = tp_timer_fn;

	err = pci_enable_device_mem(pdev);
	if (err)
		goto err_free;
	err = pci_request_region(pdev, bar, "tonic");
	if (err)
		goto err_disable;
	if (pci_resource_len(pdev, bar) < TONIC_PCI_WINDOW_MIN ||
	    pci_resource_len(pdev, bar) > SZ_1G) {
		err = -ENODEV;
		goto err_release;
	}
	p->win_len = pci_resource_len(pdev, bar);
	p->win = pci_iomap(pdev, bar, 0);
	if (!p->win) {
		err = -ENOMEM;
		goto err_release;
	}
	err = tp_identify(p);
	if (err)
		goto err_unmap;
	p->flows = kcalloc(p->dev.max_flows, sizeof(*p->flows), GFP_KERNEL);
	p->wq = alloc_workqueue("tonic_pci", WQ_HIGHPRI | WQ_MEM_RECLAIM, 1);
	if (!p->flows || !p->wq) {
		err = -ENOMEM;
		goto err_stop;
	}
	snprintf(p->name, sizeof(p->name), "pci-%s", pci_name(pdev));
	p->dev.name = p->name;
	p->dev.ops = &tp_ops;
	p->dev.client = tp_client;
	p->dev.backend = "pci";
	p->dev.wnd_bits = p->wnd_bits;
	p->dev.ring_depth = p->ring_depth;
	pci_set_drvdata(pdev, p);
	err = tonic_dev_register(&p->dev);
	if (err)
		goto err_stop;
	tp_kick(p);
	dev_info(&pdev->dev, "tonic: %s v%u.%u, %u flows, cycle %u ps, %u programs, polling\n",
		 p->name, p->version >> 16, p->version & 0xffff, p->dev.max_flows,
		 p->dev.cycle_ps, p->nprogs);
	return 0;

err_stop:
	pci_set_drvdata(pdev, NULL);
	tp_wr(p, TONIC_PCI_REG_CONTROL, 0);
	if (p->wq)
		destroy_workqueue(p->wq);
	kfree(p->flows);
err_unmap:
	pci_iounmap(pdev, p->win);
err_release:
	pci_release_region(pdev, bar);
err_disable:
	pci_disable_device(pdev);
err_free:
	kfree(p);
	return err;
}

/*
 * Unbind: every flow fails over to software TCP, the device is stopped and
 * reset (dropping its flow table).  The struct tonic_dev stays registered,
 * answering -ENODEV, until module exit: sockets may still hold a pointer to
 * it (device.c has no reference counting yet).
 */
static void tp_remove(struct pci_dev *pdev)
{
	struct tonic_pci *p = pci_get_drvdata(pdev);
	int bar = pdev->device == TONIC_PCI_IVSHMEM_DEVICE ? TONIC_PCI_IVSHMEM_BAR : TONIC_PCI_BAR;
	u32 f;

	spin_lock_bh(&p->evt_lock);
	if (p->nlive)
		dev_info(&pdev->dev, "tonic: unbinding: %u flow(s) back to software TCP\n",
			 p->nlive);
	for (f = 0; f < p->dev.max_flows; f++)
		tp_fail_flow(p, f);
	p->state = TP_GONE;
	spin_unlock_bh(&p->evt_lock);
	/* Posters check the state under cmd_lock: none is past the check now. */
	spin_lock_bh(&p->cmd_lock);
	spin_unlock_bh(&p->cmd_lock);
	mutex_lock(&p->lb_mutex);
	WRITE_ONCE(p->dying, true);
	mutex_unlock(&p->lb_mutex);
	flush_work(&p->lb_work);	/* its flows failed: it stops at once */
	hrtimer_cancel(&p->timer);
	cancel_work_sync(&p->poll);
	hrtimer_cancel(&p->timer);
	destroy_workqueue(p->wq);
	p->wq = NULL;

	/* Leave the device stopped with an empty flow table. */
	p->reset_token++;
	writel(0, p->win + TONIC_PCI_REG_CONTROL);
	wmb();
	writel(p->reset_token, p->win + TONIC_PCI_REG_RESET_REQ);

	pci_set_drvdata(pdev, NULL);
	pci_iounmap(pdev, p->win);
	p->win = NULL;
	pci_release_region(pdev, bar);
	pci_disable_device(pdev);
	mutex_lock(&tp_zombie_lock);
	list_add_tail(&p->zombie, &tp_zombies);
	mutex_unlock(&tp_zombie_lock);
	dev_info(&pdev->dev, "tonic: %s unbound\n", p->name);
}

static const struct pci_device_id tp_ids[] = {
	{ PCI_DEVICE(TONIC_PCI_VENDOR, TONIC_PCI_DEVICE), .driver_data = TONIC_PCI_BAR },
	{ PCI_DEVICE(TONIC_PCI_IVSHMEM_VENDOR, TONIC_PCI_IVSHMEM_DEVICE),
	  .driver_data = TONIC_PCI_IVSHMEM_BAR },
	{ }
};
MODULE_DEVICE_TABLE(pci, tp_ids);

static struct pci_driver tp_driver = {
	.name		= "tonic_pci",
	.id_table	= tp_ids,
	.probe		= tp_probe,
	.remove		= tp_remove,
	.dev_groups	= tp_groups,
};

int tonic_pci_init(const struct tonic_flow_client *client)
{
	int err;

	tp_client = client;
	if (!strcmp(backend, "soft"))
		return 0;
	err = pci_register_driver(&tp_driver);
	if (!err)
		tp_registered = true;
	return err;
}

void tonic_pci_exit(void)
{
	struct tonic_pci *p, *t;

	if (tp_registered)
		pci_unregister_driver(&tp_driver);
	tp_registered = false;
	mutex_lock(&tp_zombie_lock);
	list_for_each_entry_safe(p, t, &tp_zombies, zombie) {
		list_del(&p->zombie);
		tonic_dev_unregister(&p->dev);	/* frees p through ->destroy */
	}
	mutex_unlock(&tp_zombie_lock);
}
