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

/*
 * Generic netlink family "tonic" (Documentation/netlink/specs/tonic.yaml,
 * Documentation/netlink.rst).  Each command has its own attribute set.
 */
#define TONIC_GENL_NAME		"tonic"
#define TONIC_GENL_VERSION	1
#define TONIC_MCGRP_EVENTS	"events"

enum {
	TONIC_CMD_UNSPEC,
	TONIC_CMD_DEV_GET,		/* do (dev-name) / dump: tonic-dev */
	TONIC_CMD_FLOW_GET,		/* do (dev-name, id) / dump (filters): tonic-flow */
	TONIC_CMD_STATS_GET,		/* do: tonic-stats */
	TONIC_CMD_DEFAULTS_GET,		/* do: tonic-defaults of the caller's netns */
	TONIC_CMD_DEFAULTS_SET,		/* do, CAP_NET_ADMIN: tonic-defaults */
	TONIC_CMD_SOCK_OFFLOAD,		/* do, CAP_NET_ADMIN: tonic-sock */
	TONIC_CMD_FLOW_ADD_NTF,		/* notification (group "events"): tonic-flow */
	TONIC_CMD_FLOW_DEL_NTF,
	TONIC_CMD_FLOW_FAIL_NTF,

	__TONIC_CMD_MAX,
	TONIC_CMD_MAX = (__TONIC_CMD_MAX - 1)
};

/* tonic-dev */
enum {
	TONIC_A_DEV_UNSPEC,
	TONIC_A_DEV_NAME,		/* string */
	TONIC_A_DEV_BACKEND,		/* string: "soft", "pci" */
	TONIC_A_DEV_MAX_FLOWS,		/* u32 */
	TONIC_A_DEV_FLOWS_IN_USE,	/* u32 (host-wide: CAP_NET_ADMIN in init_net) */
	TONIC_A_DEV_WND_BITS,		/* u32 */
	TONIC_A_DEV_RING_DEPTH,		/* u32 */
	TONIC_A_DEV_CYCLE_PS,		/* u32 */
	TONIC_A_DEV_PROGRAM,		/* string, one attribute per program */
	TONIC_A_DEV_FLOWS_ADDED,	/* u64 (host-wide, as flows-in-use) */
	TONIC_A_DEV_FLOWS_FULL,		/* u64 (host-wide, as flows-in-use) */
	TONIC_A_DEV_DEFAULT,		/* flag: the device new flows go to */
	TONIC_A_DEV_PAD,

	__TONIC_A_DEV_MAX,
	TONIC_A_DEV_MAX = (__TONIC_A_DEV_MAX - 1)
};

/* tonic-flow: TONIC_A_FLOW_OWNER */
enum {
	TONIC_FLOW_OWNER_SOCKET = 0,	/* a TCP socket (sock-glue) */
	TONIC_FLOW_OWNER_DEVICE = 1,	/* the driver itself (self-test) */
	TONIC_FLOW_OWNER_UNKNOWN = 2,	/* a client that gave no information */
};

/* tonic-flow */
enum {
	TONIC_A_FLOW_UNSPEC,
	TONIC_A_FLOW_DEV,		/* string */
	TONIC_A_FLOW_ID,		/* u32 */
	TONIC_A_FLOW_OWNER,		/* u32: TONIC_FLOW_OWNER_* */
	TONIC_A_FLOW_PROGRAM,		/* string */
	TONIC_A_FLOW_SEG_SIZE,		/* u32: C, bytes */
	TONIC_A_FLOW_SUB_DELAY_US,	/* u32: T */
	TONIC_A_FLOW_SK_STATE,		/* u32: TONIC_SK_* (socket flows) */
	TONIC_A_FLOW_DEV_STATE,		/* u32: device flags (1 = failed, 2 = sub-burst) */
	TONIC_A_FLOW_CWND,		/* u32: segments */
	TONIC_A_FLOW_RATE_KBPS,		/* u32 */
	TONIC_A_FLOW_CREDIT,		/* u32: bytes */
	TONIC_A_FLOW_BYTES_SENT,	/* u64 */
	TONIC_A_FLOW_SEGS_SENT,		/* u64 */
	TONIC_A_FLOW_SEGS_RTX,		/* u64 */
	TONIC_A_FLOW_SEGS_ACKED,	/* u64 */
	TONIC_A_FLOW_TIMEOUTS,		/* u64 */
	TONIC_A_FLOW_NACKS,		/* u64 */
	TONIC_A_FLOW_CNPS,		/* u64 */
	TONIC_A_FLOW_LAST_RTT_NS,	/* u64: last RTT sample, 0 if none */
	TONIC_A_FLOW_WND_START,		/* u32: segment index */
	TONIC_A_FLOW_HIGHEST_SENT,	/* u32 */
	TONIC_A_FLOW_TAIL,		/* u32 */
	TONIC_A_FLOW_FAMILY,		/* u16: AF_INET, AF_INET6 (socket flows) */
	TONIC_A_FLOW_LOCAL_IPV4,	/* u32, network order */
	TONIC_A_FLOW_REMOTE_IPV4,	/* u32, network order */
	TONIC_A_FLOW_LOCAL_IPV6,	/* binary, 16 bytes */
	TONIC_A_FLOW_REMOTE_IPV6,	/* binary, 16 bytes */
	TONIC_A_FLOW_LOCAL_PORT,	/* u16, network order */
	TONIC_A_FLOW_REMOTE_PORT,	/* u16, network order */
	TONIC_A_FLOW_NETNS_INUM,	/* u32: inode number of the flow's netns */
	TONIC_A_FLOW_FAIL_REASON,	/* u32: failed notification only */
	TONIC_A_FLOW_PAD,
	/* flag, request: every namespace's flows (CAP_NET_ADMIN in init_net only) */
	TONIC_A_FLOW_ALL_NETNS,

	__TONIC_A_FLOW_MAX,
	TONIC_A_FLOW_MAX = (__TONIC_A_FLOW_MAX - 1)
};

/* tonic-dev-stats: one device's engine counters */
enum {
	TONIC_A_DSTATS_UNSPEC,
	TONIC_A_DSTATS_DEV,		/* string */
	TONIC_A_DSTATS_FLOWS_ADDED,	/* u64 ... */
	TONIC_A_DSTATS_FLOWS_FULL,
	TONIC_A_DSTATS_CYCLES,
	TONIC_A_DSTATS_BUSY_CYCLES,
	TONIC_A_DSTATS_BAD_FLOW,
	TONIC_A_DSTATS_BAD_ACK,
	TONIC_A_DSTATS_BAD_SACK,
	TONIC_A_DSTATS_BAD_PUSH,
	TONIC_A_DSTATS_IN_OVERFLOW,
	TONIC_A_DSTATS_STALE_ACK,
	TONIC_A_DSTATS_CONFLICTS,
	TONIC_A_DSTATS_NOTES_DROPPED,
	TONIC_A_DSTATS_STALE_DESC,
	TONIC_A_DSTATS_PAD,

	__TONIC_A_DSTATS_MAX,
	TONIC_A_DSTATS_MAX = (__TONIC_A_DSTATS_MAX - 1)
};

/* tonic-sock-stats: the TCP integration's counters (u64 each) */
enum {
	TONIC_A_SSTATS_UNSPEC,
	TONIC_A_SSTATS_OFFLOADED,	/* sockets on a device now */
	TONIC_A_SSTATS_INSTALLS,	/* sockets that got the ULP */
	TONIC_A_SSTATS_ATTACHES,
	TONIC_A_SSTATS_DETACHES,
	TONIC_A_SSTATS_FALLBACK_FULL,	/* stayed on TCP: flow table full */
	TONIC_A_SSTATS_FALLBACK_MD5,
	TONIC_A_SSTATS_FALLBACK_URG,
	TONIC_A_SSTATS_FALLBACK_OTHER,
	TONIC_A_SSTATS_FAILED,		/* device failed the flow: back to TCP */
	TONIC_A_SSTATS_DRAIN_TIMEOUTS,
	TONIC_A_SSTATS_ACKS_IN,
	TONIC_A_SSTATS_ACKS_DROPPED,
	TONIC_A_SSTATS_PAD,

	__TONIC_A_SSTATS_MAX,
	TONIC_A_SSTATS_MAX = (__TONIC_A_SSTATS_MAX - 1)
};

/* tonic-netns-stats: the requester's network namespace and its flow quota */
enum {
	TONIC_A_NSTATS_UNSPEC,
	TONIC_A_NSTATS_NETNS_INUM,	/* u32 */
	TONIC_A_NSTATS_MAX_FLOWS,	/* u32: the quota (net.tonic.max_flows) */
	TONIC_A_NSTATS_FLOWS,		/* u32: flows held now, on all devices */
	TONIC_A_NSTATS_FLOWS_ADDED,	/* u64 */
	TONIC_A_NSTATS_REFUSED_QUOTA,	/* u64: attaches refused, quota reached (EDQUOT) */
	TONIC_A_NSTATS_REFUSED_FULL,	/* u64: attaches refused, device table full (ENOSPC) */
	TONIC_A_NSTATS_PAD,

	__TONIC_A_NSTATS_MAX,
	TONIC_A_NSTATS_MAX = (__TONIC_A_NSTATS_MAX - 1)
};

/*
 * tonic-stats.  Host-wide counters (the devices', and the TCP
 * integration's unless it counts per namespace) go only to a requester
 * with CAP_NET_ADMIN in init_net; every requester gets its namespace's.
 */
enum {
	TONIC_A_STATS_UNSPEC,
	TONIC_A_STATS_DEV_NAME,		/* string: request filter */
	TONIC_A_STATS_DEV,		/* nest tonic-dev-stats, one per device (host-wide) */
	TONIC_A_STATS_SOCK,		/* nest tonic-sock-stats, when sock-glue is loaded */
	TONIC_A_STATS_NETNS,		/* nest tonic-netns-stats: the requester's namespace */
	TONIC_A_STATS_HOST,		/* flag, reply: dev and sock are host-wide */

	__TONIC_A_STATS_MAX,
	TONIC_A_STATS_MAX = (__TONIC_A_STATS_MAX - 1)
};

/* tonic-defaults: per network namespace */
enum {
	TONIC_A_DEFAULTS_UNSPEC,
	TONIC_A_DEFAULTS_PROGRAM,	/* string, a registered program */
	TONIC_A_DEFAULTS_SEG_SIZE,	/* u32: C, 0 = the connection's MSS */
	TONIC_A_DEFAULTS_SUB_DELAY_US,	/* u32: T */
	TONIC_A_DEFAULTS_AUTO_OFFLOAD,	/* u8: 0/1 */
	TONIC_A_DEFAULTS_NETNS_INUM,	/* u32, reply only */

	__TONIC_A_DEFAULTS_MAX,
	TONIC_A_DEFAULTS_MAX = (__TONIC_A_DEFAULTS_MAX - 1)
};

#define TONIC_SEG_SIZE_MAX		65535
#define TONIC_SUB_DELAY_MAX_US		1000000

/* tonic-sock: one established TCP socket of the caller's netns */
enum {
	TONIC_A_SOCK_UNSPEC,
	TONIC_A_SOCK_LOCAL_IPV4,	/* u32, network order */
	TONIC_A_SOCK_REMOTE_IPV4,
	TONIC_A_SOCK_LOCAL_IPV6,	/* binary, 16 bytes */
	TONIC_A_SOCK_REMOTE_IPV6,
	TONIC_A_SOCK_LOCAL_PORT,	/* u16, network order */
	TONIC_A_SOCK_REMOTE_PORT,
	TONIC_A_SOCK_OFFLOAD,		/* u8: 1 = offload, 0 = back to software TCP */

	__TONIC_A_SOCK_MAX,
	TONIC_A_SOCK_MAX = (__TONIC_A_SOCK_MAX - 1)
};

#endif /* _UAPI_LINUX_TONIC_H */
