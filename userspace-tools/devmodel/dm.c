// SPDX-License-Identifier: GPL-2.0
/*
 * The Tonic PCIe device model (see dm.h and Documentation/device-spec.rst).
 *
 * Memory ordering: the window is shared with a guest driver on other CPUs.
 * Every register is read with acquire and written with release semantics;
 * ring entries are plain memory ordered by those: the host writes a
 * command, then (release) CMD_TAIL; we read CMD_TAIL (acquire), then the
 * command.  We write events, then (release) EVT_TAIL.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "dm.h"
#include "program.h"

#define DM_CMD_OFF	0x1000u
#define DM_BATCH	256u	/* descriptors per engine run */
#define DM_CMD_BUDGET	512u	/* commands per pass */
#define DM_STATS_NS	2000000ull

uint64_t dm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t dm_cycle(struct dm *dm)
{
	return (dm_now_ns() - dm->t0_ns) * 1000ull / dm->cfg.cycle_ps;
}

static void dm_wr64(struct dm *dm, uint32_t off, uint64_t v)
{
	DM_WR(dm, off, (uint32_t)v);
	DM_WR(dm, off + 4, (uint32_t)(v >> 32));
}

static int dm_engine_create(struct dm *dm)
{
	struct tonic_core_cfg cc = {
		.max_flows = dm->cfg.max_flows,
		.wnd_bits = dm->cfg.wnd_bits,
		.ring_depth = dm->cfg.ring_depth,
		.cycle_ps = dm->cfg.cycle_ps,
		.in_queue = 4096,
	};

	dm->tc = tonic_core_create(&cc);
	if (!dm->tc)
		return -1;
	dm->t0_ns = dm_now_ns();
	memset(dm->used, 0, dm->cfg.max_flows);
	return 0;
}

/* Reset: drop every flow, empty both rings, keep the identification. */
static void dm_reset(struct dm *dm)
{
	tonic_core_destroy(dm->tc);
	dm->tc = NULL;
	if (dm_engine_create(dm)) {
		fprintf(stderr, "devmodel: engine create failed\n");
		exit(1);
	}
	memset(dm->win + dm->fstat_off, 0, (size_t)dm->cfg.max_flows * TONIC_PCI_FSTAT_SIZE);
	memset(dm->win + dm->cmd_off, 0, (size_t)dm->cfg.cmd_entries * TONIC_PCI_CMD_SIZE);
	memset(dm->win + dm->evt_off, 0, (size_t)dm->cfg.evt_entries * TONIC_PCI_EVT_SIZE);
	dm->cmd_head = dm->evt_tail = 0;
	dm->running = dm->fatal = false;
	DM_WR(dm, TONIC_PCI_REG_CMD_HEAD, 0);
	DM_WR(dm, TONIC_PCI_REG_EVT_TAIL, 0);
	DM_WR(dm, TONIC_PCI_REG_ERROR, TONIC_PCI_ERR_NONE);
	DM_WR(dm, TONIC_PCI_REG_STATUS, TONIC_PCI_STS_READY);
	dm->resets++;
	if (dm->cfg.verbose)
		fprintf(stderr, "devmodel: reset %llu\n", (unsigned long long)dm->resets);
}

int dm_init(struct dm *dm, void *win, size_t size, const struct dm_cfg *cfg)
{
	uint32_t prog_off = 0x800, cstat_off = 0x400, i, end;

	memset(dm, 0, sizeof(*dm));
	dm->cfg = *cfg;
	dm->win = win;
	dm->size = size;
	dm->cmd_off = DM_CMD_OFF;
	dm->evt_off = dm->cmd_off + cfg->cmd_entries * TONIC_PCI_CMD_SIZE;
	dm->fstat_off = dm->evt_off + cfg->evt_entries * TONIC_PCI_EVT_SIZE;
	end = dm->fstat_off + cfg->max_flows * TONIC_PCI_FSTAT_SIZE;
	if (size < TONIC_PCI_WINDOW_MIN || end > size || !cfg->max_flows ||
	    cfg->max_flows > TONIC_MAX_FLOWS || (cfg->cmd_entries & (cfg->cmd_entries - 1)) ||
	    (cfg->evt_entries & (cfg->evt_entries - 1)) || cfg->evt_entries < 2 * DM_BATCH * 5) {
		fprintf(stderr, "devmodel: window of %zu bytes too small or bad geometry (need %u)\n",
			size, end);
		return -1;
	}
	dm->progs = tonic_prog_list(&dm->nprogs);
	if (dm->nprogs > TONIC_PCI_PROG_MAX)
		dm->nprogs = TONIC_PCI_PROG_MAX;
	dm->epoch = calloc(cfg->max_flows, sizeof(*dm->epoch));
	dm->used = calloc(cfg->max_flows, 1);
	dm->desc = calloc(DM_BATCH, sizeof(*dm->desc));
	dm->note = calloc(DM_BATCH * TONIC_NOTES_PER_CYCLE, sizeof(*dm->note));
	if (!dm->epoch || !dm->used || !dm->desc || !dm->note || dm_engine_create(dm))
		return -1;

	/* Not ready while the layout is written: the host waits for READY. */
	DM_WR(dm, TONIC_PCI_REG_STATUS, 0);
	DM_WR(dm, TONIC_PCI_REG_MAGIC, 0);
	memset(dm->win + 4, 0, size - 4);
	DM_WR(dm, TONIC_PCI_REG_VERSION, TONIC_PCI_VERSION_MAJOR << 16 | TONIC_PCI_VERSION_MINOR);
	DM_WR(dm, TONIC_PCI_REG_CAPS, TONIC_PCI_CAP_POLL | TONIC_PCI_CAP_PARAM |
	      (cfg->faults ? TONIC_PCI_CAP_FAULT : 0));
	DM_WR(dm, TONIC_PCI_REG_MAX_FLOWS, cfg->max_flows);
	DM_WR(dm, TONIC_PCI_REG_WND_BITS, cfg->wnd_bits);
	DM_WR(dm, TONIC_PCI_REG_RING_DEPTH, cfg->ring_depth);
	DM_WR(dm, TONIC_PCI_REG_CYCLE_PS, cfg->cycle_ps);
	DM_WR(dm, TONIC_PCI_REG_WINDOW_SIZE, (uint32_t)size);
	DM_WR(dm, TONIC_PCI_REG_CMD_OFF, dm->cmd_off);
	DM_WR(dm, TONIC_PCI_REG_CMD_ENTRIES, cfg->cmd_entries);
	DM_WR(dm, TONIC_PCI_REG_EVT_OFF, dm->evt_off);
	DM_WR(dm, TONIC_PCI_REG_EVT_ENTRIES, cfg->evt_entries);
	DM_WR(dm, TONIC_PCI_REG_PROG_OFF, prog_off);
	DM_WR(dm, TONIC_PCI_REG_PROG_COUNT, dm->nprogs);
	DM_WR(dm, TONIC_PCI_REG_FSTAT_OFF, dm->fstat_off);
	DM_WR(dm, TONIC_PCI_REG_CSTAT_OFF, cstat_off);
	for (i = 0; i < dm->nprogs; i++)
		strncpy((char *)dm->win + prog_off + i * TONIC_PCI_PROG_NAME_LEN, dm->progs[i]->name,
			TONIC_PCI_PROG_NAME_LEN - 1);
	/* The reset token a fresh device has acknowledged: whatever is there. */
	DM_WR(dm, TONIC_PCI_REG_RESET_ACK, DM_RD(dm, TONIC_PCI_REG_RESET_REQ));
	DM_WR(dm, TONIC_PCI_REG_MAGIC, TONIC_PCI_MAGIC);
	DM_WR(dm, TONIC_PCI_REG_STATUS, TONIC_PCI_STS_READY);
	dm->last_stats_ns = dm_now_ns();
	return 0;
}

void dm_fini(struct dm *dm)
{
	if (dm->win)
		DM_WR(dm, TONIC_PCI_REG_STATUS, 0);
	tonic_core_destroy(dm->tc);
	free(dm->epoch);
	free(dm->used);
	free(dm->desc);
	free(dm->note);
}

static void dm_fatal(struct dm *dm, uint32_t err)
{
	if (dm->cfg.verbose)
		fprintf(stderr, "devmodel: fatal error %u\n", err);
	dm->fatal = true;
	DM_WR(dm, TONIC_PCI_REG_ERROR, err);
	DM_WR(dm, TONIC_PCI_REG_STATUS, TONIC_PCI_STS_READY | TONIC_PCI_STS_FATAL);
}

static uint32_t dm_evt_room(struct dm *dm)
{
	uint32_t head = DM_RD(dm, TONIC_PCI_REG_EVT_HEAD);
	uint32_t used = dm->evt_tail - head;

	if (used > dm->cfg.evt_entries) {
		dm_fatal(dm, TONIC_PCI_ERR_EVT_INDEX);
		return 0;
	}
	return dm->cfg.evt_entries - used;
}

/* Caller checked the room; published by dm_evt_publish(). */
static void dm_evt(struct dm *dm, uint8_t type, uint8_t flags, uint32_t flow, uint32_t a,
		   uint32_t b)
{
	struct tonic_pci_evt *e = (struct tonic_pci_evt *)(dm->win + dm->evt_off) +
				  (dm->evt_tail & (dm->cfg.evt_entries - 1));

	e->type = type;
	e->flags = flags;
	e->epoch = flow < dm->cfg.max_flows ? dm->epoch[flow] : 0;
	e->flow = flow;
	e->a = a;
	e->b = b;
	dm->evt_tail++;
}

static void dm_evt_publish(struct dm *dm)
{
	atomic_thread_fence(memory_order_release);
	DM_WR(dm, TONIC_PCI_REG_EVT_TAIL, dm->evt_tail);
}

static void dm_fstat(struct dm *dm, uint32_t flow)
{
	struct tonic_pci_fstat *r = (struct tonic_pci_fstat *)(dm->win + dm->fstat_off) + flow;
	struct tonic_flow_stats st;

	if (!dm->used[flow] || tonic_flow_stats(dm->tc, flow, &st)) {
		r->valid = 0;
		return;
	}
	r->segs_sent = st.segs_sent;
	r->segs_rtx = st.segs_rtx;
	r->segs_acked = st.segs_acked;
	r->bytes_sent = st.bytes_sent;
	r->timeouts = st.timeouts;
	r->nacks = st.nacks;
	r->cnps = st.cnps;
	r->grants = st.grants;
	r->wnd_start = st.wnd_start;
	r->highest_sent = st.highest_sent;
	r->tail = st.tail;
	r->cwnd = st.cwnd;
	r->rate_kbps = st.rate_kbps;
	r->credit = st.credit;
	r->outstanding = st.outstanding;
	r->last_rtt = st.last_rtt;
	/* The register has no room for the program's values: no TONIC_FLOW_INFO. */
	r->state = st.state & (TONIC_FLOW_FAILED | TONIC_FLOW_SUB_BURST);
	r->epoch = dm->epoch[flow];
	r->valid = 1;
}

static void dm_stats(struct dm *dm)
{
	struct tonic_core_stats cs;
	uint32_t off = DM_RD(dm, TONIC_PCI_REG_CSTAT_OFF), f;

	tonic_core_stats(dm->tc, &cs);
#define DM_WR_CSTAT(name, NAME, doc)	dm_wr64(dm, off + TONIC_PCI_CSTAT_##NAME, cs.name);
	TONIC_CORE_COUNTERS(DM_WR_CSTAT)
#undef DM_WR_CSTAT
	dm_wr64(dm, off + TONIC_PCI_CSTAT_CMDS, dm->cmds);
	dm_wr64(dm, off + TONIC_PCI_CSTAT_DESCS, dm->descs);
	dm_wr64(dm, off + TONIC_PCI_CSTAT_NOTES, dm->notes);
	for (f = 0; f < dm->cfg.max_flows; f++)
		if (dm->used[f])
			dm_fstat(dm, f);
}

/* Apply one command.  Returns -ENOBUFS to retry it later (engine queue full). */
static int dm_cmd(struct dm *dm, const struct tonic_pci_cmd *c)
{
	struct tonic_flow_cfg fc;
	struct tonic_pkt pkt;
	uint32_t flow = c->flow, i;
	int err = 0;

	if (c->op == TONIC_PCI_OP_NOP)
		return 0;
	if (flow >= dm->cfg.max_flows) {
		dm->cmd_errors++;
		return 0;	/* no flow to report it to: counted only */
	}
	switch (c->op) {
	case TONIC_PCI_OP_FLOW_ADD:
		if (dm->used[flow]) {
			tonic_flow_remove(dm->tc, flow);
			dm->used[flow] = 0;
		}
		dm->epoch[flow] = c->epoch;
		if (c->add.prog >= dm->nprogs) {
			err = -EINVAL;
			break;
		}
		memset(&fc, 0, sizeof(fc));
		fc.prog = dm->progs[c->add.prog];
		fc.seg_size = c->add.seg_size;
		fc.wnd_segs = c->add.wnd_segs;
		fc.init_cwnd = c->add.init_cwnd;
		fc.init_rate_kbps = c->add.init_rate_kbps;
		fc.init_credit = c->add.init_credit;
		fc.rto_cycles = c->add.rto_cycles;
		fc.ack_notify = c->add.ack_notify;
		fc.start_seg = c->add.start_seg;
		fc.init_rtt_us = c->add.init_rtt_us;
		fc.flags = c->add.flags;
		err = tonic_flow_add(dm->tc, flow, &fc);
		if (!err) {
			dm->used[flow] = 1;
			dm_fstat(dm, flow);
		}
		break;
	case TONIC_PCI_OP_FLOW_REMOVE:
		if (dm->used[flow] && c->epoch == dm->epoch[flow]) {
			tonic_flow_remove(dm->tc, flow);
			dm->used[flow] = 0;
			dm_fstat(dm, flow);
		}
		return 0;
	case TONIC_PCI_OP_PUSH:
		if (!dm->used[flow] || c->epoch != dm->epoch[flow])
			return 0;	/* stale: the flow was removed */
		err = tonic_push(dm->tc, flow, c->push.tail, c->push.last_len);
		break;
	case TONIC_PCI_OP_FLOW_PARAM:
		if (!dm->used[flow] || c->epoch != dm->epoch[flow])
			return 0;
		if (c->param.mask >> TONIC_PCI_PARAMS) {
			err = -EINVAL;
			break;
		}
		for (i = 0; i < TONIC_PCI_PARAMS && !err; i++)
			if (c->param.mask & (1u << i))
				err = tonic_flow_set_param(dm->tc, flow, i, c->param.value[i]);
		break;
	case TONIC_PCI_OP_INCOMING:
		if (!dm->used[flow] || c->epoch != dm->epoch[flow])
			return 0;
		memset(&pkt, 0, sizeof(pkt));
		pkt.type = c->in.type;
		pkt.flags = c->in.flags;
		pkt.cum_ack = c->in.cum_ack;
		pkt.nsack = c->in.nsack > TONIC_MAX_SACK ? TONIC_MAX_SACK : c->in.nsack;
		for (i = 0; i < pkt.nsack; i++) {
			pkt.sack[i].start = c->in.sack[i][0];
			pkt.sack[i].end = c->in.sack[i][1];
		}
		pkt.nack = c->in.nack;
		pkt.grant = c->in.grant;
		pkt.rtt = c->in.rtt;
		err = tonic_incoming(dm->tc, flow, &pkt);
		if (err == -ENOBUFS)
			return err;
		err = 0;	/* bad input is the engine's to count, not an error */
		break;
	default:
		err = -EOPNOTSUPP;
		break;
	}
	if (err) {
		dm->cmd_errors++;
		DM_WR(dm, TONIC_PCI_REG_CMD_ERRORS, (uint32_t)dm->cmd_errors);
		if (dm_evt_room(dm) >= 1) {
			dm_evt(dm, TONIC_PCI_EV_CMD_ERR, 0, flow, c->op, (uint32_t)-err);
			dm_evt_publish(dm);
		}
	}
	return 0;
}

/* Run the engine up to now, as far as the event ring has room. */
static bool dm_run(struct dm *dm)
{
	uint32_t room = dm_evt_room(dm), b, i;
	struct tonic_out out;
	bool work = false;
	uint64_t now = dm_cycle(dm);

	for (;;) {
		uint64_t next = tonic_next_cycle(dm->tc);

		if (dm->fatal)
			return work;
		/* An idle engine only moves its clock: no room needed. */
		b = room / TONIC_PCI_EV_ROOM;
		if (b > DM_BATCH)
			b = DM_BATCH;
		if (!b) {
			if (next <= now) {
				dm->evt_stalls++;
				DM_WR(dm, TONIC_PCI_REG_EVT_STALLS, (uint32_t)dm->evt_stalls);
			}
			return work;
		}
		out = (struct tonic_out){ .desc = dm->desc, .max_desc = b, .note = dm->note,
					  .max_note = b * TONIC_NOTES_PER_CYCLE };
		tonic_run(dm->tc, now, &out);
		for (i = 0; i < out.nnote; i++)
			dm_evt(dm, TONIC_PCI_EV_NOTE, (uint8_t)out.note[i].type, out.note[i].flow,
			       out.note[i].value, 0);
		for (i = 0; i < out.ndesc; i++)
			dm_evt(dm, TONIC_PCI_EV_DESC, (uint8_t)out.desc[i].flags, out.desc[i].flow,
			       out.desc[i].seg, out.desc[i].len);
		if (out.nnote || out.ndesc) {
			dm_evt_publish(dm);
			dm->descs += out.ndesc;
			dm->notes += out.nnote;
			work = true;
		}
		room -= out.nnote + out.ndesc;
		if (out.ndesc < out.max_desc && out.nnote + TONIC_NOTES_PER_CYCLE <= out.max_note)
			return work;	/* not cut short: caught up with now */
	}
}

static void dm_garbage(struct dm *dm)
{
	uint32_t i;

	for (i = 0; i < 64; i++)
		dm_evt(dm, (uint8_t)(rand() & 7), (uint8_t)rand(), (uint32_t)rand(), (uint32_t)rand(),
		       (uint32_t)rand());
	dm_evt_publish(dm);
	DM_WR(dm, TONIC_PCI_REG_EVT_TAIL, dm->evt_tail + 3 * dm->cfg.evt_entries);
	DM_WR(dm, TONIC_PCI_REG_CMD_HEAD, dm->cmd_head - 77);
}

bool dm_poll(struct dm *dm, uint64_t *next_ns)
{
	uint32_t ctrl, tail, n, req;
	bool work = false;
	uint64_t next, now_ns;

	*next_ns = UINT64_MAX;
	if (dm->cfg.faults) {
		uint32_t f = DM_RD(dm, TONIC_PCI_REG_FAULT);

		if (f == TONIC_PCI_FAULT_DIE) {
			fprintf(stderr, "devmodel: fault injection: dying\n");
			_exit(3);
		}
		if (f == TONIC_PCI_FAULT_HANG && !dm->hung) {
			fprintf(stderr, "devmodel: fault injection: hanging for 3 s\n");
			dm->hung = true;
			dm->hung_until = dm_now_ns() + 3000000000ull;
		}
		if (dm->hung && dm_now_ns() >= dm->hung_until) {
			fprintf(stderr, "devmodel: fault injection: hang over\n");
			DM_WR(dm, TONIC_PCI_REG_FAULT, TONIC_PCI_FAULT_NONE);
			dm->hung = false;
		}
		if (f == TONIC_PCI_FAULT_GARBAGE) {
			DM_WR(dm, TONIC_PCI_REG_FAULT, TONIC_PCI_FAULT_NONE);
			fprintf(stderr, "devmodel: fault injection: garbage\n");
			dm_garbage(dm);
		}
		if (dm->hung)
			return false;
	}
	DM_WR(dm, TONIC_PCI_REG_HEARTBEAT, ++dm->hb);

	req = DM_RD(dm, TONIC_PCI_REG_RESET_REQ);
	if (req != DM_RD(dm, TONIC_PCI_REG_RESET_ACK)) {
		dm_reset(dm);
		DM_WR(dm, TONIC_PCI_REG_RESET_ACK, req);
		return true;
	}
	ctrl = DM_RD(dm, TONIC_PCI_REG_CONTROL);
	if (!(ctrl & TONIC_PCI_CTRL_ENABLE)) {
		if (dm->running) {
			dm->running = false;
			DM_WR(dm, TONIC_PCI_REG_STATUS, TONIC_PCI_STS_READY);
		}
		return false;
	}
	if (dm->fatal)
		return false;
	if (!dm->running) {
		dm->running = true;
		DM_WR(dm, TONIC_PCI_REG_STATUS, TONIC_PCI_STS_READY | TONIC_PCI_STS_RUNNING);
	}

	work |= dm_run(dm);
	tail = DM_RD(dm, TONIC_PCI_REG_CMD_TAIL);
	if (tail - dm->cmd_head > dm->cfg.cmd_entries) {
		dm_fatal(dm, TONIC_PCI_ERR_CMD_INDEX);
		return true;
	}
	for (n = 0; dm->cmd_head != tail && n < DM_CMD_BUDGET; n++) {
		struct tonic_pci_cmd c;

		memcpy(&c, dm->win + dm->cmd_off +
			   (size_t)(dm->cmd_head & (dm->cfg.cmd_entries - 1)) * TONIC_PCI_CMD_SIZE,
		       sizeof(c));
		if (dm_cmd(dm, &c) == -ENOBUFS) {
			work |= dm_run(dm);	/* drain the engine's queue, retry later */
			break;
		}
		dm->cmd_head++;
		dm->cmds++;
	}
	if (n) {
		DM_WR(dm, TONIC_PCI_REG_CMD_HEAD, dm->cmd_head);
		work = true;
	}
	work |= dm_run(dm);

	now_ns = dm_now_ns();
	if (now_ns - dm->last_stats_ns > DM_STATS_NS) {
		dm_stats(dm);
		dm->last_stats_ns = now_ns;
	}
	next = tonic_next_cycle(dm->tc);
	if (next != TONIC_IDLE)
		*next_ns = dm->t0_ns + next * dm->cfg.cycle_ps / 1000;
	return work;
}
