/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Tonic PCIe device model: the register interface of
 * include/uapi/linux/tonic_pci.h served over a memory window (an ivshmem
 * shared-memory file, or any mapping), with tonic-core as the engine.
 */
#ifndef _TONIC_DM_H
#define _TONIC_DM_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdatomic.h>
#include "tonic.h"
#include <uapi/linux/tonic_pci.h>

struct dm_cfg {
	uint32_t max_flows, wnd_bits, ring_depth, cycle_ps;
	uint32_t cmd_entries, evt_entries;
	bool faults;		/* honour TONIC_PCI_REG_FAULT */
	bool verbose;
};

struct dm {
	struct dm_cfg cfg;
	uint8_t *win;
	size_t size;
	uint32_t cmd_off, evt_off, fstat_off;
	struct tonic_core *tc;
	const struct tonic_prog_ops *const *progs;
	uint32_t nprogs;
	uint16_t *epoch;	/* per flow */
	uint8_t *used;
	uint32_t cmd_head, evt_tail, hb;
	bool running, fatal, hung;
	uint64_t t0_ns, last_stats_ns, hung_until;
	uint64_t cmds, descs, notes, cmd_errors, evt_stalls, resets;
	struct tonic_desc *desc;
	struct tonic_note *note;
};

/* Lay out the window and publish the identification registers. */
int dm_init(struct dm *dm, void *win, size_t size, const struct dm_cfg *cfg);
void dm_fini(struct dm *dm);
/*
 * One pass: heartbeat, reset/enable handshake, commands, engine up to now,
 * events.  Returns true if it did any work (the caller may poll again at
 * once), and sets *next_ns to the time of the engine's next timer.
 */
bool dm_poll(struct dm *dm, uint64_t *next_ns);
uint64_t dm_now_ns(void);

static inline _Atomic uint32_t *dm_reg(struct dm *dm, uint32_t off)
{
	return (_Atomic uint32_t *)(dm->win + off);
}
#define DM_RD(dm, r)		atomic_load_explicit(dm_reg(dm, r), memory_order_acquire)
#define DM_WR(dm, r, v)		atomic_store_explicit(dm_reg(dm, r), (v), memory_order_release)

#endif /* _TONIC_DM_H */
