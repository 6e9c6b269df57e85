// SPDX-License-Identifier: GPL-2.0
/*
 * Loopback self-test (sysfs tonic_loopback): flows whose client is the
 * driver itself, acking every descriptor at once; exercises flow add, push,
 * incoming, the event ring and remove without the TCP glue, and measures
 * descriptors per second and MMIO per descriptor in the guest.  The flows
 * run newreno or the program named, with the device's parameters for it
 * (tonic dev set), as any flow does.
 */
#include "internal.h"

void tp_lb_desc(struct tp_lb *lb, const struct tonic_desc *d)
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

static int tp_loopback(struct tonic_pci *p, const struct tonic_prog_ops *prog, u32 nflows,
		       u32 segs)
{
	/*
	 * The acks come from a polling loop, late by far more than the
	 * microseconds of a datacenter program's RTO under emulation: Linux's
	 * RTOmin, 200 ms, for every program.
	 */
	struct tonic_flow_cfg cfg = { .prog = prog, .seg_size = 1448, .init_cwnd = 64,
				      .ack_notify = 64,
				      .rto_cycles = div_u64(200ULL * NSEC_PER_MSEC * 1000,
							    max(p->dev.cycle_ps, 1u)) };
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

void tp_lb_work(struct work_struct *w)
{
	struct tonic_pci *p = container_of(w, struct tonic_pci, lb_work);

	tp_loopback(p, p->lb_prog, p->lb_flows, p->lb_segs);
}

/*
 * Write "FLOWS SEGMENTS [PROGRAM]" to start the loopback self-test (in a
 * work item, so that an unbind can interrupt it); read "result:
 * running|ok|fail" and the figures.
 */
static ssize_t tonic_loopback_store(struct device *d, struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct tonic_pci *p = pci_get_drvdata(to_pci_dev(d));
	const struct tonic_prog_ops *prog;
	char name[TONIC_PCI_PROG_NAME_LEN] = "newreno";
	u32 nflows, segs;
	int err = 0;

	if (!p)
		return -ENODEV;
	if (sscanf(buf, "%u %u %15s", &nflows, &segs, name) < 2 || !nflows ||
	    nflows > TP_LB_MAX || !segs || segs > (1u << 24))
		return -EINVAL;
	prog = tonic_prog_find(name);
	if (!prog)
		return -EINVAL;
	mutex_lock(&p->lb_mutex);
	if (p->lb_busy || READ_ONCE(p->dying)) {
		err = -EBUSY;
	} else {
		p->lb_busy = true;
		p->lb_flows = nflows;
		p->lb_segs = segs;
		p->lb_prog = prog;
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
DEVICE_ATTR_RW(tonic_loopback);
