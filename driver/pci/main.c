// SPDX-License-Identifier: GPL-2.0
/*
 * The PCIe Tonic: a PCI driver for a Tonic function (an FPGA, or a device
 * model behind QEMU's ivshmem-plain), implementing struct tonic_dev_ops
 * over the register interface of include/uapi/linux/tonic_pci.h
 * (Documentation/device-spec.rst).  Here: binding (probe, remove, the
 * device's identification, checked before anything is trusted), sysfs
 * tonic_info and the module's entry points.  The rest, by concern:
 * ring.c (command and event rings, the poller), flow.c (the device ops),
 * fault.c (a device declared dead, and its reset), loopback.c (the
 * self-test).
 */
#include "internal.h"

static char *backend = "auto";
module_param(backend, charp, 0444);
MODULE_PARM_DESC(backend, "auto: use a bound PCIe Tonic (default device), soft: never bind PCIe");

const struct tonic_flow_client *tp_client;
static LIST_HEAD(tp_zombies);	/* unbound devices, freed at module exit */
static DEFINE_MUTEX(tp_zombie_lock);
static bool tp_registered;

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
