// SPDX-License-Identifier: GPL-2.0
/*
 * The PCIe Tonic's rings.  Commands (flow add/remove, push, incoming) are
 * posted to the command ring in the device's window and the doorbell
 * (CMD_TAIL) is written once per op.  The device answers through the event
 * ring (descriptors, notes, command errors), which a poller drains: an
 * hrtimer queues the poll work, every POLL_FAST_NS while there is traffic,
 * backing off to POLL_SLOW_NS when idle.  Ops never wait for the device: a
 * command's effects are ordered by the ring, and the device's answers
 * carry the flow's epoch so answers for an earlier incarnation of a flow
 * id are dropped.  Every index, type, flow id, epoch and length read from
 * the ring is checked (fault.c decides what a bad one means).
 */
#include "internal.h"
#include <trace/events/tonic.h>

static void tp_arm(struct tonic_pci *p, u64 ns)
{
	if (!READ_ONCE(p->dying))
		hrtimer_start(&p->timer, ns_to_ktime(ns), HRTIMER_MODE_REL);
}

void tp_kick(struct tonic_pci *p)
{
	if (!READ_ONCE(p->dying))
		queue_work(p->wq, &p->poll);
}

enum hrtimer_restart tp_timer_fn(struct hrtimer *t)
{
	tp_kick(container_of(t, struct tonic_pci, timer));
	return HRTIMER_NORESTART;
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

void tp_out_note(struct tonic_pci *p, void *priv, const struct tonic_note *n)
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

/*
 * Room for @n more commands?  Caller holds cmd_lock.  -EIO when the device
 * is not up, -ENOBUFS when the ring is full.  The device's CMD_HEAD is read
 * only when the cached copy says there is no room.
 */
int tp_room(struct tonic_pci *p, u32 n)
{
	u32 head;

	if (READ_ONCE(p->state) != TP_UP)
		return -EIO;
	if (p->cmd_tail - p->cmd_head + n > p->cmd_n) {
		head = tp_rd(p, TONIC_PCI_REG_CMD_HEAD);
		if (p->cmd_tail - head > p->cmd_n) {
			/* The poller sees the same garbage and fails the device. */
			tp_kick(p);
			return -EIO;
		}
		p->cmd_head = head;
		if (p->cmd_tail - head + n > p->cmd_n) {
			atomic64_inc(&p->ctr.cmd_ring_full);
			return -ENOBUFS;
		}
	}
	return 0;
}

/*
 * Post one command (the first @words 32-bit words) and ring the doorbell.
 * Caller holds cmd_lock.  -EIO when the device is not up, -ENOBUFS when the
 * ring is full.
 */
int tp_post(struct tonic_pci *p, const struct tonic_pci_cmd *c, unsigned int words)
{
	int err = tp_room(p, 1);
	u32 slot;

	if (err)
		return err;
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
		    (d.flags & ~(TONIC_DESC_RTX | TONIC_DESC_LAST | TONIC_DESC_CWR |
				     TONIC_DESC_WND)) ||
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

void tp_poll(struct work_struct *w)
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
