/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Tonic for Linux: the user-visible ABI in one place.
 *
 * Socket options: after setsockopt(fd, SOL_TCP, TCP_ULP, "tonic", 5) (or
 * when the socket's congestion control is "tonic"), the options below are
 * available at level SOL_TONIC.
 */
#ifndef _UAPI_LINUX_TONIC_H
#define _UAPI_LINUX_TONIC_H

#include <linux/types.h>

#define TONIC_ULP_NAME		"tonic"
#define TONIC_CA_NAME		"tonic"

/* Private socket level (outside the kernel's SOL_* range in 6.1). */
#define SOL_TONIC		299

enum {
	TONIC_OFFLOAD = 1,	/* int: 1 = offload (default), 0 = drain and go back to software TCP */
	TONIC_PROGRAM = 2,	/* string: transport program ("newreno", "sack", ...) */
	TONIC_SEG_SIZE = 3,	/* int: C in bytes; 0 = the connection's MSS */
	TONIC_SUB_DELAY = 4,	/* int: T in microseconds before a sub-segment is announced */
	TONIC_INFO = 5,		/* struct tonic_sock_info, getsockopt only */
};

/* tonic_sock_info.state */
enum {
	TONIC_SK_SOFTWARE = 0,	/* running on the kernel's TCP */
	TONIC_SK_OFFLOADED = 1,	/* a flow on the Tonic device */
	TONIC_SK_DRAINING = 2,	/* toggle-off requested, waiting for all bytes to be acked */
	TONIC_SK_FALLBACK = 3,	/* could not be offloaded (table full, MD5, urgent data, ...) */
	TONIC_SK_PENDING = 4,	/* offload requested, attaches at the next send */
};

struct tonic_sock_info {
	__u32 state;
	__u32 flow_id;		/* valid when offloaded */
	__u32 seg_size;		/* C */
	__u32 sub_delay_us;	/* T */
	char program[16];
	__u64 bytes_queued;	/* accepted from the application while offloaded */
	__u64 bytes_acked;
	__u64 segs_sent;	/* descriptors transmitted (all attachments) */
	__u64 segs_rtx;
	__u64 timeouts;
	__u32 cwnd;		/* segments, from the device */
	__u32 attaches;		/* times this socket was attached to the device */
};

#endif /* _UAPI_LINUX_TONIC_H */
