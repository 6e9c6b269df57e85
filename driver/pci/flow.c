// SPDX-License-Identifier: GPL-2.0
/*
 * The PCIe Tonic's struct tonic_dev_ops: each op checks what it can,
 * posts one command (ring.c) and returns; statistics are read from the
 * device's per-flow and per-device status blocks.
 */
#include "internal.h"
#include <trace/events/tonic.h>

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

/*
 * FLOW_PARAM for the parameters @mask names, with @values, in @c: 1, or 0
 * when @mask is empty (nothing to post).  -EOPNOTSUPP without CAP_PARAM:
 * the flow's parameters would be dropped silently.
 */
static int tp_param_cmd(struct tonic_pci *p, u32 flow, u32 mask, const u32 *values,
			struct tonic_pci_cmd *c)
{
	u32 i;

	BUILD_BUG_ON(TONIC_PCI_PARAMS != TONIC_PROG_PARAMS);
	if (!mask)
		return 0;
	if (!(p->caps & TONIC_PCI_CAP_PARAM))
		return -EOPNOTSUPP;
	*c = (struct tonic_pci_cmd){ .op = TONIC_PCI_OP_FLOW_PARAM, .flow = flow };
	c->param.mask = mask;
	for (i = 0; i < TONIC_PCI_PARAMS; i++)
		if (mask & BIT(i))
			c->param.value[i] = values[i];
	return 1;
}

static int tp_flow_add(struct tonic_dev *dev, u32 flow, const struct tonic_flow_cfg *cfg)
{
	struct tonic_pci *p = to_tp(dev);
	struct tonic_pci_cmd c = { .op = TONIC_PCI_OP_FLOW_ADD, .flow = flow }, pc;
	struct tp_flow *f;
	int prog, err, params;
	u32 mask = 0, i;

	if (flow >= dev->max_flows)
		return -EINVAL;
	prog = tp_prog_index(p, cfg->prog);
	if (prog < 0)
		return prog;
	for (i = 0; i < TONIC_PROG_PARAMS; i++)
		if (cfg->param[i])
			mask |= BIT(i);
	params = tp_param_cmd(p, flow, mask, cfg->param, &pc);
	if (params < 0)
		return params;
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
	c.add.init_rtt_us = cfg->init_rtt_us;
	c.add.flags = cfg->flags;

	spin_lock_bh(&p->evt_lock);
	if (p->state != TP_UP || f->live) {
		spin_unlock_bh(&p->evt_lock);
		return p->state != TP_UP ? -ENODEV : -EBUSY;
	}
	f->epoch++;
	c.epoch = f->epoch;
	pc.epoch = f->epoch;
	f->seg_size = cfg->seg_size;
	f->short_segs = cfg->flags & TONIC_FLOW_SHORT_SEGS;
	f->tail = cfg->start_seg;
	clear_bit(0, &f->sub);
	/* Its parameters right behind it, before anything can push: both or none. */
	spin_lock(&p->cmd_lock);
	err = tp_room(p, 1 + params);
	if (!err)
		err = tp_post(p, &c, offsetofend(struct tonic_pci_cmd, add) / sizeof(u32));
	if (!err && params)
		err = tp_post(p, &pc, 2 + 1 + TONIC_PCI_PARAMS);
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

static int tp_flow_set_param(struct tonic_dev *dev, u32 flow, u32 idx, u32 value)
{
	struct tonic_pci *p = to_tp(dev);
	struct tonic_pci_cmd c;
	u32 values[TONIC_PCI_PARAMS] = {};
	struct tp_flow *f;
	int err;

	if (flow >= dev->max_flows || idx >= TONIC_PCI_PARAMS)
		return -EINVAL;
	values[idx] = value;
	err = tp_param_cmd(p, flow, BIT(idx), values, &c);
	if (err < 0)
		return err;
	f = &p->flows[flow];
	spin_lock_bh(&p->evt_lock);
	if (!f->live || f->failed) {
		spin_unlock_bh(&p->evt_lock);
		return -ENOENT;
	}
	c.epoch = f->epoch;
	spin_lock(&p->cmd_lock);
	err = tp_post(p, &c, 2 + 1 + TONIC_PCI_PARAMS);
	spin_unlock(&p->cmd_lock);
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

int tp_push(struct tonic_dev *dev, u32 flow, u32 tail, u32 last_len)
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
	if (last_len < f->seg_size && !f->short_segs)
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
	return err == -EIO ? -ENODEV : err;
}

int tp_incoming(struct tonic_dev *dev, u32 flow, const struct tonic_pkt *pkt)
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
	/*
	 * Only the bits the register defines (device-spec.rst): a device that
	 * claimed TONIC_FLOW_INFO would have its zeros shown as the
	 * program's values (it did: "ssthresh 0").
	 */
	st->state = r.state & (TONIC_FLOW_FAILED | TONIC_FLOW_SUB_BURST);
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

const struct tonic_dev_ops tp_ops = {
	.flow_add	= tp_flow_add,
	.flow_remove	= tp_flow_remove,
	.flow_set_param	= tp_flow_set_param,
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
