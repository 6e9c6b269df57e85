/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Tonic PCIe function: register map and memory layout.
 *
 * The one header shared by the guest driver (driver/pci/), the userspace
 * device model (userspace-tools/devmodel/) and an RTL implementation.
 * Documentation/device-spec.rst describes every constant here; a check
 * (scripts/check-device-spec.sh, suite "device-spec") fails when the two
 * disagree.
 *
 * Everything lives in one memory window (BAR0 of a Tonic function, BAR2 of
 * an ivshmem-plain function carrying a device model).  All fields are
 * little-endian; registers are 32 bits and accessed with aligned 32-bit
 * reads and writes only.  Ring indices are free-running 32-bit counters;
 * the slot of index i is i & (entries - 1).
 */
#ifndef _UAPI_LINUX_TONIC_PCI_H
#define _UAPI_LINUX_TONIC_PCI_H

#include <linux/types.h>

/* PCI identities. */
#define TONIC_PCI_VENDOR		0x10ee	/* FPGA bitstream (Xilinx vendor id) */
#define TONIC_PCI_DEVICE		0x70c0	/* Tonic function (window in BAR0) */
#define TONIC_PCI_IVSHMEM_VENDOR	0x1af4	/* QEMU ivshmem-plain ... */
#define TONIC_PCI_IVSHMEM_DEVICE	0x1110	/* ... (window in BAR2) */
#define TONIC_PCI_IVSHMEM_BAR		2
#define TONIC_PCI_BAR			0

#define TONIC_PCI_MAGIC			0x43494e54	/* "TNIC" */
#define TONIC_PCI_VERSION_MAJOR		1
#define TONIC_PCI_VERSION_MINOR		1
#define TONIC_PCI_WINDOW_MIN		0x100000	/* smallest window: 1 MiB */

/* Register block, offset 0 of the window.  RO = device writes, host reads. */
#define TONIC_PCI_REG_MAGIC		0x000	/* RO: TONIC_PCI_MAGIC */
#define TONIC_PCI_REG_VERSION		0x004	/* RO: major << 16 | minor */
#define TONIC_PCI_REG_CAPS		0x008	/* RO: TONIC_PCI_CAP_* */
#define TONIC_PCI_REG_MAX_FLOWS		0x00c	/* RO: flow table size */
#define TONIC_PCI_REG_WND_BITS		0x010	/* RO: window bitmap, 128 or 256 */
#define TONIC_PCI_REG_RING_DEPTH	0x014	/* RO: per-flow segment ring N */
#define TONIC_PCI_REG_CYCLE_PS		0x018	/* RO: engine cycle, picoseconds */
#define TONIC_PCI_REG_WINDOW_SIZE	0x01c	/* RO: bytes of the window */
#define TONIC_PCI_REG_CMD_OFF		0x020	/* RO: command ring offset */
#define TONIC_PCI_REG_CMD_ENTRIES	0x024	/* RO: command ring entries, power of 2 */
#define TONIC_PCI_REG_EVT_OFF		0x028	/* RO: event ring offset */
#define TONIC_PCI_REG_EVT_ENTRIES	0x02c	/* RO: event ring entries, power of 2 */
#define TONIC_PCI_REG_PROG_OFF		0x030	/* RO: program table offset */
#define TONIC_PCI_REG_PROG_COUNT	0x034	/* RO: programs in the table */
#define TONIC_PCI_REG_FSTAT_OFF		0x038	/* RO: per-flow statistics table offset */
#define TONIC_PCI_REG_CSTAT_OFF		0x03c	/* RO: engine statistics block offset */
#define TONIC_PCI_REG_CONTROL		0x040	/* RW host: TONIC_PCI_CTRL_* */
#define TONIC_PCI_REG_STATUS		0x044	/* RO: TONIC_PCI_STS_* */
#define TONIC_PCI_REG_ERROR		0x048	/* RO: TONIC_PCI_ERR_* of the last fatal error */
#define TONIC_PCI_REG_HEARTBEAT		0x04c	/* RO: incremented at least every HB_PERIOD_US */
#define TONIC_PCI_REG_RESET_REQ		0x050	/* RW host: write a new token to reset */
#define TONIC_PCI_REG_RESET_ACK		0x054	/* RO: token of the last completed reset */
#define TONIC_PCI_REG_CMD_TAIL		0x058	/* RW host: command doorbell (producer) */
#define TONIC_PCI_REG_CMD_HEAD		0x05c	/* RO: commands consumed */
#define TONIC_PCI_REG_EVT_TAIL		0x060	/* RO: events produced */
#define TONIC_PCI_REG_EVT_HEAD		0x064	/* RW host: events consumed */
#define TONIC_PCI_REG_CMD_ERRORS	0x068	/* RO: commands refused (count) */
#define TONIC_PCI_REG_EVT_STALLS	0x06c	/* RO: engine runs stopped for a full event ring */
#define TONIC_PCI_REG_FAULT		0x070	/* RW host: fault injection (model only) */
#define TONIC_PCI_REG_BLOCK_SIZE	0x1000	/* the register block (with prog/cstat) */

/* TONIC_PCI_REG_CAPS */
#define TONIC_PCI_CAP_POLL		0x1	/* rings may be polled (always set) */
#define TONIC_PCI_CAP_MSIX		0x2	/* MSI-X vector 0 on new events */
#define TONIC_PCI_CAP_FAULT		0x4	/* TONIC_PCI_REG_FAULT is honoured */
#define TONIC_PCI_CAP_PARAM		0x8	/* TONIC_PCI_OP_FLOW_PARAM is honoured */

/* TONIC_PCI_REG_CONTROL */
#define TONIC_PCI_CTRL_ENABLE		0x1	/* consume commands, run the engine */
#define TONIC_PCI_CTRL_IRQ		0x2	/* raise MSI-X on new events (CAP_MSIX) */

/* TONIC_PCI_REG_STATUS */
#define TONIC_PCI_STS_READY		0x1	/* identification registers valid */
#define TONIC_PCI_STS_RUNNING		0x2	/* CONTROL.ENABLE seen, engine running */
#define TONIC_PCI_STS_FATAL		0x4	/* stopped; see TONIC_PCI_REG_ERROR; reset clears */

/* TONIC_PCI_REG_ERROR */
#define TONIC_PCI_ERR_NONE		0
#define TONIC_PCI_ERR_CMD_INDEX		1	/* CMD_TAIL more than CMD_ENTRIES ahead */
#define TONIC_PCI_ERR_EVT_INDEX		2	/* EVT_HEAD beyond EVT_TAIL */
#define TONIC_PCI_ERR_INTERNAL		3

/* TONIC_PCI_REG_FAULT: written by a test; the model acts on it with CAP_FAULT. */
#define TONIC_PCI_FAULT_NONE		0
#define TONIC_PCI_FAULT_DIE		0xdead0001	/* the model process exits at once */
#define TONIC_PCI_FAULT_HANG		0xdead0002	/* stops consuming and heartbeating for 3 s */
#define TONIC_PCI_FAULT_GARBAGE		0xdead0003	/* writes bad events and indices */

/* Timing contract. */
#define TONIC_PCI_HB_PERIOD_US		1000	/* heartbeat period bound */
#define TONIC_PCI_RESET_TIMEOUT_MS	1000	/* reset handshake bound */

/* Engine statistics block at CSTAT_OFF: u64 counters, device-updated. */
#define TONIC_PCI_CSTAT_CYCLES		0x00
#define TONIC_PCI_CSTAT_BUSY_CYCLES	0x08
#define TONIC_PCI_CSTAT_BAD_FLOW	0x10
#define TONIC_PCI_CSTAT_BAD_ACK		0x18
#define TONIC_PCI_CSTAT_BAD_SACK	0x20
#define TONIC_PCI_CSTAT_BAD_PUSH	0x28
#define TONIC_PCI_CSTAT_IN_OVERFLOW	0x30
#define TONIC_PCI_CSTAT_STALE_ACK	0x38
#define TONIC_PCI_CSTAT_CONFLICTS	0x40
#define TONIC_PCI_CSTAT_NOTES_DROPPED	0x48
#define TONIC_PCI_CSTAT_STALE_DESC	0x50
#define TONIC_PCI_CSTAT_CMDS		0x58
#define TONIC_PCI_CSTAT_DESCS		0x60
#define TONIC_PCI_CSTAT_NOTES		0x68
#define TONIC_PCI_CSTAT_SIZE		0x80

/* Program table at PROG_OFF: PROG_COUNT NUL-padded names, index = program id. */
#define TONIC_PCI_PROG_NAME_LEN		16
#define TONIC_PCI_PROG_MAX		32

/* Command ring (host -> device): 64-byte entries. */
#define TONIC_PCI_CMD_SIZE		64
#define TONIC_PCI_OP_NOP		0
#define TONIC_PCI_OP_FLOW_ADD		1
#define TONIC_PCI_OP_FLOW_REMOVE	2
#define TONIC_PCI_OP_PUSH		3
#define TONIC_PCI_OP_INCOMING		4
#define TONIC_PCI_OP_FLOW_PARAM		5	/* program parameters of a live flow */
#define TONIC_PCI_PARAMS		8	/* program parameters per flow */

struct tonic_pci_cmd {
	__u8 op;		/* TONIC_PCI_OP_* */
	__u8 pad0;
	__u16 epoch;		/* flow incarnation, echoed in its events */
	__u32 flow;
	union {
		struct {
			__u32 prog;	/* index in the program table */
			__u32 seg_size, wnd_segs, init_cwnd, init_rate_kbps;
			__u32 init_credit, rto_cycles, ack_notify, start_seg;
			__u32 init_rtt_us, flags;
		} add;
		struct {
			__u32 tail, last_len;
		} push;
		struct {
			__u32 mask;	/* bit i: parameter i takes value[i] */
			__u32 value[TONIC_PCI_PARAMS];	/* 0: the program's default */
		} param;
		struct {
			__u8 type, flags, nsack, pad;	/* tonic_pkt type/flags, SACK blocks */
			__u32 cum_ack, nack, grant, rtt;
			__u32 sack[4][2];		/* [start, end) */
		} in;
		__u32 raw[14];
	};
};

/* Event ring (device -> host): 16-byte entries. */
#define TONIC_PCI_EVT_SIZE		16
#define TONIC_PCI_EV_DESC		1	/* a = segment, b = length, flags = TONIC_DESC_* */
#define TONIC_PCI_EV_NOTE		2	/* flags = TONIC_NOTE_*, a = value */
#define TONIC_PCI_EV_CMD_ERR		3	/* a = op, b = -errno: the flow's command failed */
#define TONIC_PCI_EV_ROOM		5	/* events one engine cycle may emit (1 + 4) */

struct tonic_pci_evt {
	__u8 type;		/* TONIC_PCI_EV_* */
	__u8 flags;
	__u16 epoch;
	__u32 flow;
	__u32 a, b;
};

/* Per-flow statistics table at FSTAT_OFF: MAX_FLOWS rows. */
#define TONIC_PCI_FSTAT_SIZE		128

struct tonic_pci_fstat {
	__u64 segs_sent, segs_rtx, segs_acked, bytes_sent;
	__u64 timeouts, nacks, cnps, grants;
	__u32 wnd_start, highest_sent, tail;
	__u32 cwnd, rate_kbps, credit, outstanding;
	__u32 last_rtt, state;
	__u16 epoch;		/* flow the row belongs to */
	__u16 valid;		/* 1 while the flow exists */
	__u32 pad[6];
};

#endif /* _UAPI_LINUX_TONIC_PCI_H */
