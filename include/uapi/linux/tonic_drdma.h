/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Dynamic RDMA (seed 003): remote writes and reads over raw Ethernet that
 * start before the responder has registered its memory.
 *
 * The wire format (DRP, Ethertype 0x01FF) and the character device
 * /dev/tonic-drdma through which a program runs transfers (initiator) or
 * lends its memory (responder).  Documentation/drdma.rst describes both.
 */
#ifndef _UAPI_LINUX_TONIC_DRDMA_H
#define _UAPI_LINUX_TONIC_DRDMA_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define TDRDMA_ETH_P		0x01FF	/* the experimental range's last type */
#define TDRDMA_VERSION		1
#define TDRDMA_FRAME_BYTES	1024	/* payload of every data frame but a transfer's last */
#define TDRDMA_WINDOW		8	/* frames in flight */
#define TDRDMA_MAX_LEN		(64u << 20)	/* bytes in one transfer */

/* The control field: the seed's seven flags and VALID. */
#define TDRDMA_F_REQ		0x01	/* request: TID, TYPE, MODE, SBA, DBA, LEN */
#define TDRDMA_F_REQ_ACK	0x02	/* request answered; VALID: memory registered */
#define TDRDMA_F_DATA		0x04	/* data (LEN bytes at SN); no payload: an ACK */
#define TDRDMA_F_REL		0x08	/* release request; VALID: done, else abort */
#define TDRDMA_F_REL_ACK	0x10	/* release answered */
#define TDRDMA_F_READ		0x20	/* TYPE: read (else write), on every frame */
#define TDRDMA_F_INDIRECT	0x40	/* MODE: indirect (else direct) */
#define TDRDMA_F_VALID		0x80

/*
 * The DRP header, after the Ethernet header; big-endian.  SN numbers data
 * frames from 0 (frame SN carries bytes [SN * TDRDMA_FRAME_BYTES, ...));
 * ACKN is the next frame the data receiver expects (cumulative).
 */
struct tdrdma_hdr {
	__u8	ctrl;
	__u8	version;
	__be16	tid;
	__be32	sn;
	__be32	ackn;
	__be32	len;	/* request: the transfer's bytes; data: this frame's */
	__be64	sba;	/* the initiator's address (its own business) */
	__be64	dba;	/* offset in the responder's lent memory */
};

/* Initiator: one transfer, blocking until it is released or fails. */
enum tdrdma_type { TDRDMA_WRITE = 0, TDRDMA_READ = 1 };
enum tdrdma_policy {
	TDRDMA_DIRECT = 0,	/* wait for a valid REQ_ACK (traditional RDMA) */
	TDRDMA_DYNAMIC = 1,	/* the seed's choice: indirect on an invalid REQ_ACK or silence */
};

struct tdrdma_xfer {
	__u32	ifindex;	/* in the caller's network namespace */
	__u8	peer[6];	/* the responder's MAC address */
	__u8	type;		/* enum tdrdma_type */
	__u8	policy;		/* enum tdrdma_policy */
	__u64	addr;		/* local buffer (SBA) */
	__u64	dba;		/* offset in the responder's memory */
	__u32	len;
	/* out */
	__u32	indirect;	/* 1: the data went (or came) without waiting */
	__u32	requests;	/* requests sent */
	__u32	frames;		/* data frames sent (write) or received (read) */
	__u32	retransmits;	/* data frames sent again */
	__u32	pad;
	__u64	ns;		/* request to release ack */
	__u64	start_ns;	/* request to the data's start (0: it never started) */
};

/* Responder: lend [addr, addr + size) of the caller's memory on a netdev. */
struct tdrdma_lend {
	__u32	ifindex;
	__u32	pad;
	__u64	addr;
	__u64	size;
};

/* A request waiting to be registered (TDRDMA_IOC_NEXT, blocking). */
struct tdrdma_request {
	__u8	peer[6];
	__u16	tid;
	__u8	type;
	__u8	pad[7];
	__u64	dba;
	__u32	len;
	__u32	done;	/* transfers released since lending */
};

/* The answer: register it (pin the pages) or refuse it. */
struct tdrdma_register {
	__u8	peer[6];
	__u16	tid;
	__u32	refuse;	/* 1: send an invalid REQ_ACK */
};

/* Counters (TDRDMA_IOC_STATS); userspace-tools/drdma names them. */
enum {
	TDRDMA_S_FRAMES_TX,
	TDRDMA_S_FRAMES_RX,
	TDRDMA_S_REQUESTS_TX,
	TDRDMA_S_REQ_ACK_VALID_TX,
	TDRDMA_S_REQ_ACK_INVALID_TX,
	TDRDMA_S_DATA_TX,
	TDRDMA_S_RETRANSMITS,
	TDRDMA_S_FAST_RETRANSMITS,
	TDRDMA_S_TIMEOUTS,
	TDRDMA_S_DIRECT,
	TDRDMA_S_INDIRECT,
	TDRDMA_S_DONE,
	TDRDMA_S_FAILED,
	TDRDMA_S_REGISTERED,
	TDRDMA_S_REFUSED,
	TDRDMA_S_INDIRECT_BUFFERED,	/* bytes */
	TDRDMA_S_INDIRECT_DRAINED,	/* bytes */
	TDRDMA_S_INDIRECT_FULL,		/* frames dropped: buffer full */
	TDRDMA_S_INDIRECT_FREED,	/* bytes freed undrained */
	TDRDMA_S_RX_MALFORMED,
	TDRDMA_S_RX_UNKNOWN,		/* no transfer, none to start */
	TDRDMA_S_RX_REPLAY,		/* for a released transfer */
	TDRDMA_S_RX_OUT_OF_WINDOW,
	TDRDMA_S_EXPIRED,		/* responder state idle too long */
	TDRDMA_S_RX_TABLE_FULL,		/* new transfers over max_responders */
	TDRDMA_S_MAX
};

struct tdrdma_stats {
	__u64	v[TDRDMA_S_MAX];
};

#define TDRDMA_IOC_XFER		_IOWR('T', 0x40, struct tdrdma_xfer)
#define TDRDMA_IOC_LEND		_IOW('T', 0x41, struct tdrdma_lend)
#define TDRDMA_IOC_NEXT		_IOWR('T', 0x42, struct tdrdma_request)
#define TDRDMA_IOC_REGISTER	_IOW('T', 0x43, struct tdrdma_register)
#define TDRDMA_IOC_STATS	_IOR('T', 0x44, struct tdrdma_stats)

#endif
