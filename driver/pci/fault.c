// SPDX-License-Identifier: GPL-2.0
/*
 * A PCIe Tonic that fails.  Nothing read from the device is trusted: a
 * device that reports an error, stops its heartbeat, returns garbage or
 * disappears is declared dead: every flow gets TONIC_NOTE_FAILED
 * (sock-glue moves the socket to another device or back to software
 * TCP), it is logged once, and the poller tries to reset the device back
 * into service.  sysfs tonic_fault injects such failures (a test device's
 * capability).
 */
#include "internal.h"

/* Under evt_lock: hand a FAILED note to @f's client; nothing more follows. */
void tp_fail_flow(struct tonic_pci *p, u32 f)
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
void tp_dead(struct tonic_pci *p, const char *why, u32 val)
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

/* Under evt_lock, device up: heartbeat and status. */
void tp_check_live(struct tonic_pci *p)
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

/* Reset handshake, first half: stop the device and ask for a reset. */
void tp_reset_start(struct tonic_pci *p)
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
bool tp_reset_done(struct tonic_pci *p)
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
DEVICE_ATTR_WO(tonic_fault);
