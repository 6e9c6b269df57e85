// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics in debugfs, beside the netlink family's stats-get:
 * /sys/kernel/debug/tonic/stats (counters of the glue and the device) and
 * /sys/kernel/debug/tonic/flows (one line per offloaded flow).  Device
 * numbers are pulled through tonic_dev_ops, as the PCIe backend will need.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include "glue.h"

static struct dentry *tonic_dbg;

/*
 * One "name value" line per counter of the tables (driver/counters.h): the
 * TCP integration's, then the default device's and its backend's
 * (tests/selftests/66-counters.sh checks them against netlink).
 */
#define TONIC_DBG_SOCK(name, NAME, doc)					\
	seq_printf(m, "%-16s %lld\n", #name, atomic64_read(&tonic_gstats.name));
#define TONIC_DBG_DEV(name, NAME, doc)					\
	seq_printf(m, "%-16s %llu\n", #name, c.name);

static int tonic_stats_show(struct seq_file *m, void *v)
{
	struct tonic_dev *dev = tonic_dev_default();
	struct tonic_dev_counters c;
	char name[32];
	u32 i;

	TONIC_SOCK_COUNTERS(TONIC_DBG_SOCK)
	if (!dev)
		return 0;
	tonic_dev_counters(dev, &c);
	seq_printf(m, "dev              %s\nmax_flows        %u\nflows_in_use     %u\n",
		   dev->name, dev->max_flows, tonic_dev_flows_in_use(dev));
	TONIC_DEVICE_COUNTERS(TONIC_DBG_DEV)
	/* "soft.runs": a backend's names may be the TCP integration's too. */
	for (i = 0; i < c.nbackend; i++) {
		snprintf(name, sizeof(name), "%s.%s", dev->backend ?: "backend",
			 c.backend_names[i]);
		seq_printf(m, "%-16s %llu\n", name, c.backend[i]);
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tonic_stats);

/* One line of /sys/kernel/debug/tonic/flows: a socket's flow (device id_lock held). */
static void tonic_flow_line(void *arg, struct tonic_dev *dev, u32 id, void *priv,
			    const struct tonic_flow_stats *st)
{
	struct tonic_sk *ctx = priv;

	seq_printf(arg, "%-8s %-4u %-8s %-5u %-9llu %-5llu %-8llu %-5u %-10u %-9u %-5u "
		   "| %-10llu %-10llu %-10llu %-10llu %-8u %-8u %-3u %-10u %u\n",
		   dev->name, id, ctx->prog ? ctx->prog->name : "?", ctx->seg,
		   st->segs_sent, st->segs_rtx, st->timeouts, st->cwnd, st->wnd_start,
		   st->highest_sent, st->tail, ctx->head, ctx->ttail, ctx->tail,
		   ctx->base_off, ctx->base_seg, ctx->tail_seg, ctx->nbursts,
		   READ_ONCE(ctx->last_ack) - ctx->isn, READ_ONCE(ctx->npages));
}

/* The sockets' flows only: an RDMA QP's flow has another client. */
static int tonic_flows_show(struct seq_file *m, void *v)
{
	struct tonic_dev *dev;
	u32 n;

	seq_puts(m, "dev      flow prog     C     sent      rtx   timeouts cwnd  wnd_start  hi_sent   tail  "
		 "| head       ttail      tail       base_off   base_seg tail_seg brs ack-isn    pages\n");
	for (n = 0; (dev = tonic_dev_get_nth(n)); n++)
		tonic_dev_for_each_flow(dev, &tonic_client, tonic_flow_line, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tonic_flows);

int tonic_stats_init(void)
{
	tonic_dbg = debugfs_create_dir("tonic", NULL);
	debugfs_create_file("stats", 0444, tonic_dbg, NULL, &tonic_stats_fops);
	debugfs_create_file("flows", 0444, tonic_dbg, NULL, &tonic_flows_fops);
	return 0;
}

void tonic_stats_exit(void)
{
	debugfs_remove_recursive(tonic_dbg);
}
