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
/*
 * The generic netlink family "tonic": its constants, enums (among them
 * enum tonic_sk_state, TONIC_SK_*), attribute and command IDs, generated
 * from Documentation/netlink/specs/tonic.yaml by scripts/ynl-gen.sh.
 */
#include "tonic_nl.h"

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

struct tonic_sock_info {
	__u32 state;		/* enum tonic_sk_state (TONIC_SK_*) */
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

/*
 * sock_diag (inet_diag, what `ss -ti` reads): a socket with the "tonic"
 * ULP carries, inside INET_DIAG_ULP_INFO and next to INET_ULP_INFO_NAME,
 * a nest of type TONIC_ULP_INFO with these attributes (the ULP's info is
 * sent to CAP_NET_ADMIN requesters only).  iproute2's ss prints only the
 * name ("tcp-ulp-tonic"); `tonic sock show` prints the nest.
 */
#define TONIC_ULP_INFO		16
enum {
	TONIC_ULP_INFO_UNSPEC,
	TONIC_ULP_INFO_STATE,		/* u32: TONIC_SK_* */
	TONIC_ULP_INFO_FLOW,		/* u32: flow id on the device, while attached */
	TONIC_ULP_INFO_SEG_SIZE,	/* u32: C in bytes (of the last attachment) */
	TONIC_ULP_INFO_PROGRAM,		/* string */
	TONIC_ULP_INFO_SUB_DELAY_US,	/* u32: T */
	TONIC_ULP_INFO_DEV,		/* string: the device, while attached */
	TONIC_ULP_INFO_CWND,		/* u32: the device's window, segments of C, while attached */
	TONIC_ULP_INFO_RATE_KBPS,	/* u32: the device's rate, while attached */
	TONIC_ULP_INFO_TIMEOUTS,	/* u64: the device's timeouts, while attached */
	TONIC_ULP_INFO_BYTES_QUEUED,	/* u64: as struct tonic_sock_info */
	TONIC_ULP_INFO_BYTES_ACKED,	/* u64 */
	TONIC_ULP_INFO_SEGS_SENT,	/* u64 */
	TONIC_ULP_INFO_SEGS_RTX,	/* u64 */
	TONIC_ULP_INFO_ATTACHES,	/* u32 */
	TONIC_ULP_INFO_PAD,

	__TONIC_ULP_INFO_MAX,
	TONIC_ULP_INFO_MAX = (__TONIC_ULP_INFO_MAX - 1)
};

#endif /* _UAPI_LINUX_TONIC_H */
