/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the PCIe Tonic driver share (main.c has the overview):
 * the device's state, register access, and each file's entry points.
 */
#ifndef _TONIC_PCI_INTERNAL_H
#define _TONIC_PCI_INTERNAL_H

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

#define POLL_FAST_NS		(100 * NSEC_PER_USEC)
#define POLL_SLOW_NS		(2 * NSEC_PER_MSEC)
#define POLL_DEAD_NS		(200 * NSEC_PER_MSEC)
#define IDLE_AFTER		msecs_to_jiffies(10)
#define HB_TIMEOUT		msecs_to_jiffies(1000)
#define EVT_BUDGET		1024
#define BAD_EVT_LIMIT		16	/* bad events in one poll: the device is broken */
#define TONIC_PCI_FAIL_DEVICE	0x100	/* TONIC_NOTE_FAILED value: device lost */

enum tp_state { TP_UP, TP_DEAD, TP_RESETTING, TP_GONE };

struct tp_flow {
	u16 epoch;
	bool live;		/* added and not removed (under evt_lock) */
	bool failed;		/* FAILED delivered: nothing more for it */
	u32 seg_size;
	u32 tail;		/* last tail pushed */
	unsigned long sub;	/* bit 0: sub-segment burst outstanding */
	bool short_segs;	/* TONIC_FLOW_SHORT_SEGS: no burst waits for one */
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
	struct mutex lb_mutex;	/* lb_result, lb_busy, lb_flows, lb_segs, lb_prog */
	struct work_struct lb_work;
	bool lb_busy;
	u32 lb_flows, lb_segs;
	const struct tonic_prog_ops *lb_prog;
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

/* A loopback self-test in progress (loopback.c). */
#define TP_LB_MAX	16
struct tp_lb {
	u32 n;
	u32 flow[TP_LB_MAX], hi[TP_LB_MAX], tail[TP_LB_MAX], acked[TP_LB_MAX];
	u64 descs;
	bool failed;
};

static inline struct tonic_pci *to_tp(struct tonic_dev *dev)
{
	return container_of(dev, struct tonic_pci, dev);
}

static inline u32 tp_rd(struct tonic_pci *p, u32 off)
{
	atomic64_inc(&p->ctr.mmio_reads);
	return readl(p->win + off);
}

static inline void tp_wr(struct tonic_pci *p, u32 off, u32 v)
{
	atomic64_inc(&p->ctr.mmio_writes);
	writel(v, p->win + off);
}

/* ring.c */
void tp_kick(struct tonic_pci *p);
enum hrtimer_restart tp_timer_fn(struct hrtimer *t);
void tp_out_note(struct tonic_pci *p, void *priv, const struct tonic_note *n);
int tp_room(struct tonic_pci *p, u32 n);
int tp_post(struct tonic_pci *p, const struct tonic_pci_cmd *c, unsigned int words);
void tp_poll(struct work_struct *w);

/* flow.c */
int tp_push(struct tonic_dev *dev, u32 flow, u32 tail, u32 last_len);
int tp_incoming(struct tonic_dev *dev, u32 flow, const struct tonic_pkt *pkt);
extern const struct tonic_dev_ops tp_ops;

/* fault.c */
void tp_fail_flow(struct tonic_pci *p, u32 f);
void tp_dead(struct tonic_pci *p, const char *why, u32 val);
void tp_check_live(struct tonic_pci *p);
void tp_reset_start(struct tonic_pci *p);
bool tp_reset_done(struct tonic_pci *p);
extern struct device_attribute dev_attr_tonic_fault;

/* loopback.c */
void tp_lb_desc(struct tp_lb *lb, const struct tonic_desc *d);
void tp_lb_work(struct work_struct *w);
extern struct device_attribute dev_attr_tonic_loopback;

/* main.c */
extern const struct tonic_flow_client *tp_client;

#endif /* _TONIC_PCI_INTERNAL_H */
