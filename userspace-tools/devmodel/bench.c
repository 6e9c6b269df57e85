// SPDX-License-Identifier: GPL-2.0
/*
 * bench-pci: segment descriptors per second through the PCIe ring path
 * (a host thread driving the register interface exactly as driver/pci does,
 * the device model polling in another thread) against the same work done
 * by direct tonic-core calls (what the soft backend does), with the cost
 * per descriptor in 32-bit MMIO reads and writes and the batching
 * (descriptors per doorbell, events per EVT_HEAD write).
 *
 *   bench-pci [-t SECONDS] [-f FLOWS] [-b PUSH_SEGS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include "dm.h"

#define WIN_SIZE	(1u << 20)
#define MAXF		64

static double secs = 2.0;
static uint32_t nflows = 8, batch = 64;
static atomic_bool stop_dev;

struct host {
	struct dm *dm;
	uint8_t *win;
	uint32_t cmd_off, cmd_n, evt_off, evt_n, cmd_tail, evt_head, cmd_head;
	uint64_t rd, wr, idle_polls, doorbells, head_writes, descs, cmds;
	uint32_t tail[MAXF], hiseg[MAXF];
	uint16_t epoch[MAXF];
};

static uint32_t h_rd(struct host *h, uint32_t off)
{
	h->rd++;
	return atomic_load_explicit((_Atomic uint32_t *)(h->win + off), memory_order_acquire);
}

static void h_wr(struct host *h, uint32_t off, uint32_t v)
{
	h->wr++;
	atomic_store_explicit((_Atomic uint32_t *)(h->win + off), v, memory_order_release);
}

/* Write the first @words 32-bit words of a command (the rest is unused). */
static void h_cmd(struct host *h, const struct tonic_pci_cmd *c, unsigned int words)
{
	uint32_t off = h->cmd_off + (h->cmd_tail & (h->cmd_n - 1)) * TONIC_PCI_CMD_SIZE;
	const uint32_t *w = (const uint32_t *)c;
	unsigned int i;

	/* CMD_HEAD is read only when the cached copy says the ring is full. */
	while (h->cmd_tail - h->cmd_head >= h->cmd_n)
		h->cmd_head = h_rd(h, TONIC_PCI_REG_CMD_HEAD);
	for (i = 0; i < words; i++)
		h_wr(h, off + 4 * i, w[i]);
	h->cmd_tail++;
	h->cmds++;
}

static void h_doorbell(struct host *h)
{
	atomic_thread_fence(memory_order_release);
	h_wr(h, TONIC_PCI_REG_CMD_TAIL, h->cmd_tail);
	h->doorbells++;
}

static void *dev_thread(void *arg)
{
	struct dm *dm = arg;
	uint64_t next;

	while (!atomic_load(&stop_dev))
		dm_poll(dm, &next);
	return NULL;
}

static void push_all(struct host *h)
{
	uint32_t f;

	for (f = 0; f < nflows; f++) {
		struct tonic_pci_cmd c = { .op = TONIC_PCI_OP_PUSH, .epoch = h->epoch[f], .flow = f };

		if (h->tail[f] - h->hiseg[f] > 4 * batch)
			continue;
		h->tail[f] += batch;
		c.push.tail = h->tail[f];
		c.push.last_len = 1448;
		h_cmd(h, &c, 4);
	}
	h_doorbell(h);
}

static double run_pci(void)
{
	struct dm dm;
	struct dm_cfg cfg = {
		.max_flows = 256, .wnd_bits = 256, .ring_depth = 16, .cycle_ps = 10000,
		.cmd_entries = 1024, .evt_entries = 8192,
	};
	struct host h = { 0 };
	pthread_t th;
	uint64_t t0, t1;
	uint32_t f, prog_newreno = 0, i;
	void *win = mmap(NULL, WIN_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (win == MAP_FAILED || dm_init(&dm, win, WIN_SIZE, &cfg))
		exit(1);
	h.dm = &dm;
	h.win = win;
	for (i = 0; i < dm.nprogs; i++)
		if (!strcmp((char *)h.win + 0x800 + i * TONIC_PCI_PROG_NAME_LEN, "newreno"))
			prog_newreno = i;
	pthread_create(&th, NULL, dev_thread, &dm);
	h.cmd_off = h_rd(&h, TONIC_PCI_REG_CMD_OFF);
	h.cmd_n = h_rd(&h, TONIC_PCI_REG_CMD_ENTRIES);
	h.evt_off = h_rd(&h, TONIC_PCI_REG_EVT_OFF);
	h.evt_n = h_rd(&h, TONIC_PCI_REG_EVT_ENTRIES);
	h_wr(&h, TONIC_PCI_REG_CONTROL, TONIC_PCI_CTRL_ENABLE);
	for (f = 0; f < nflows; f++) {
		struct tonic_pci_cmd c = { .op = TONIC_PCI_OP_FLOW_ADD, .epoch = 1, .flow = f };

		c.add.prog = prog_newreno;
		c.add.seg_size = 1448;
		c.add.init_cwnd = 64;
		c.add.rto_cycles = 100000000;
		c.add.ack_notify = 64;
		h.epoch[f] = 1;
		h_cmd(&h, &c, 13);
	}
	h_doorbell(&h);
	h.rd = h.wr = h.doorbells = h.cmds = 0;
	t0 = dm_now_ns();
	push_all(&h);
	while ((t1 = dm_now_ns()) - t0 < (uint64_t)(secs * 1e9)) {
		uint32_t tail = h_rd(&h, TONIC_PCI_REG_EVT_TAIL), n = 0;
		bool acked[MAXF] = { 0 };

		while (h.evt_head != tail) {
			uint32_t off = h.evt_off + (h.evt_head & (h.evt_n - 1)) * TONIC_PCI_EVT_SIZE;
			uint32_t w0 = h_rd(&h, off), fl = h_rd(&h, off + 4), a = h_rd(&h, off + 8);

			h_rd(&h, off + 12);
			if ((w0 & 0xff) == TONIC_PCI_EV_DESC && fl < nflows) {
				h.descs++;
				if (tonic_after(a + 1, h.hiseg[fl]))
					h.hiseg[fl] = a + 1;
				acked[fl] = true;
			}
			h.evt_head++;
			n++;
		}
		if (!n) {
			h.idle_polls++;
			h.rd--;		/* an empty poll: counted apart */
			continue;
		}
		{
			h_wr(&h, TONIC_PCI_REG_EVT_HEAD, h.evt_head);
			h.head_writes++;
			/* The receiver acks everything sent so far: one ACK per flow per batch. */
			for (f = 0; f < nflows; f++) {
				struct tonic_pci_cmd c = { .op = TONIC_PCI_OP_INCOMING,
							   .epoch = h.epoch[f], .flow = f };

				if (!acked[f])
					continue;
				c.in.type = TONIC_PKT_ACK;
				c.in.cum_ack = h.hiseg[f];
				h_cmd(&h, &c, 4);
			}
			push_all(&h);
		}
	}
	atomic_store(&stop_dev, true);
	pthread_join(th, NULL);
	printf("pci ring path:  %8.0f desc/s  (%llu descs, %u flows, push %u segs)\n",
	       h.descs / ((t1 - t0) / 1e9), (unsigned long long)h.descs, nflows, batch);
	printf("  MMIO per descriptor: %.2f reads, %.2f writes (32-bit; plus %.2f empty "
	       "EVT_TAIL polls)\n", (double)h.rd / h.descs, (double)h.wr / h.descs,
	       (double)h.idle_polls / h.descs);
	printf("  batching: %.1f descs per doorbell, %.1f commands per doorbell, "
	       "%.1f events per EVT_HEAD write\n", (double)h.descs / h.doorbells,
	       (double)h.cmds / h.doorbells, (double)h.descs / (h.head_writes ? h.head_writes : 1));
	printf("  device: %llu event-ring stalls, %llu command errors\n",
	       (unsigned long long)dm.evt_stalls, (unsigned long long)dm.cmd_errors);
	dm_fini(&dm);
	munmap(win, WIN_SIZE);
	return h.descs / ((t1 - t0) / 1e9);
}

/* The same flows, pushes and acks as direct engine calls on one thread. */
static double run_soft(void)
{
	struct tonic_core_cfg cc = { .max_flows = 256, .wnd_bits = 256, .ring_depth = 16,
				     .cycle_ps = 10000, .in_queue = 4096 };
	struct tonic_core *tc = tonic_core_create(&cc);
	static struct tonic_desc d[256];
	static struct tonic_note nt[256 * TONIC_NOTES_PER_CYCLE];
	uint32_t tail[MAXF] = { 0 }, hi[MAXF] = { 0 }, f, i;
	uint64_t t0, t1, descs = 0;

	for (f = 0; f < nflows; f++) {
		struct tonic_flow_cfg fc = { .prog = tonic_prog_find("newreno"), .seg_size = 1448,
					     .init_cwnd = 64, .rto_cycles = 100000000,
					     .ack_notify = 64 };

		tonic_flow_add(tc, f, &fc);
	}
	t0 = dm_now_ns();
	while ((t1 = dm_now_ns()) - t0 < (uint64_t)(secs * 1e9)) {
		struct tonic_out out = { .desc = d, .max_desc = 256, .note = nt,
					 .max_note = 256 * TONIC_NOTES_PER_CYCLE };
		bool acked[MAXF] = { 0 };

		for (f = 0; f < nflows; f++) {
			if (tail[f] - hi[f] > 4 * batch)
				continue;
			tail[f] += batch;
			tonic_push(tc, f, tail[f], 1448);
		}
		tonic_run(tc, (t1 - t0) / 10, &out);
		for (i = 0; i < out.ndesc; i++) {
			f = d[i].flow;
			if (tonic_after(d[i].seg + 1, hi[f]))
				hi[f] = d[i].seg + 1;
			acked[f] = true;
		}
		descs += out.ndesc;
		for (f = 0; f < nflows; f++) {
			struct tonic_pkt p = { .type = TONIC_PKT_ACK, .cum_ack = hi[f] };

			if (acked[f])
				tonic_incoming(tc, f, &p);
		}
	}
	tonic_core_destroy(tc);
	printf("soft (direct):  %8.0f desc/s  (%llu descs)\n", descs / ((t1 - t0) / 1e9),
	       (unsigned long long)descs);
	return descs / ((t1 - t0) / 1e9);
}

int main(int argc, char **argv)
{
	double p, s;
	int o;

	while ((o = getopt(argc, argv, "t:f:b:")) != -1) {
		switch (o) {
		case 't': secs = atof(optarg); break;
		case 'f': nflows = (uint32_t)atoi(optarg); break;
		case 'b': batch = (uint32_t)atoi(optarg); break;
		default:
			fprintf(stderr, "usage: bench-pci [-t SECONDS] [-f FLOWS] [-b PUSH_SEGS]\n");
			return 2;
		}
	}
	if (!nflows || nflows > MAXF || !batch)
		return 2;
	s = run_soft();
	p = run_pci();
	printf("pci / soft: %.2f\n", p / s);
	return 0;
}
