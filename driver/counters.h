/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every counter tonic.ko keeps above the engine, listed once (the
 * engine's own: tonic-core/counters.h).  Each entry is X(name, NAME, doc):
 *
 *   name  the field, the debugfs line (/sys/kernel/debug/tonic/stats) and
 *         the key of tonic(8)'s output;
 *   NAME  the suffix of its netlink attribute (TONIC_A_{DSTATS,NSTATS,
 *         SSTATS}_NAME, Documentation/netlink/specs/tonic.yaml): a counter
 *         without one does not build;
 *   doc   the sentence that documents it, in the spec's doc and in
 *         Documentation/counters.rst (scripts/counters.py writes that
 *         page from these tables and checks the spec against them).
 *
 * Only the preprocessor is needed: the CLI includes this as it is.  A new
 * counter is one line here and its attribute appended to the spec's
 * attribute set (never inserted: the IDs are ABI).
 */
#ifndef _TONIC_COUNTERS_H
#define _TONIC_COUNTERS_H

#include "../tonic-core/counters.h"

/* Per device, kept by the device layer (struct tonic_dev, device.c). */
#define TONIC_DEV_COUNTERS(X)						\
	X(flows_added, FLOWS_ADDED,					\
	  "Flows the device accepted.")					\
	X(flows_full, FLOWS_FULL,					\
	  "Flows refused because the device's flow table was full.")

/*
 * A device's counters as the dev-stats nest carries them: the device
 * layer's, then its engine's (ops->dev_stats).
 */
#define TONIC_DEVICE_COUNTERS(X)					\
	TONIC_DEV_COUNTERS(X)						\
	TONIC_CORE_COUNTERS(X)

/*
 * A backend's own counters, per device: X(name, doc), no attribute of
 * their own (each backend has its own set, carried as name and value in
 * the dev-stats nest's "backend" nests, as ethtool -S does).  At most
 * TONIC_DEV_BACKEND_MAX of them.
 */
#define TONIC_SOFT_COUNTERS(X)						\
	X(runs, "Times the engine ran, inline or in the worker.")	\
	X(inline_runs, "Runs in the caller's context, after a push or an incoming packet.") \
	X(doorbells, "Segment announcements (pushes) taken.")		\
	X(timer_fires, "Times the engine's next deadline woke the worker.")

#define TONIC_PCI_COUNTERS(X)						\
	X(mmio_reads, "32-bit register reads.")				\
	X(mmio_writes, "32-bit register writes.")			\
	X(doorbells, "Command doorbells rung.")				\
	X(commands, "Commands posted to the device's command ring.")	\
	X(events, "Events taken from the device's event ring.")		\
	X(descriptors, "Descriptor events handed to flows' clients.")	\
	X(notes, "Notification events handed to flows' clients.")	\
	X(cmd_ring_full,						\
	  "Commands refused: the command ring was full (also in in_overflow).") \
	X(bad_events, "Events with an unknown type or flow, dropped.")	\
	X(stale_events, "Events of a flow's earlier incarnation, dropped.") \
	X(failovers,							\
	  "Flows the driver failed (a FAILED note to their client): the device was lost.") \
	X(resets,							\
	  "Reset handshakes the device completed (at probe and after a fault).")

#define TONIC_DEV_BACKEND_MAX	16

/* Per network namespace, kept by its flow quota (quota.c). */
#define TONIC_NETNS_COUNTERS(X)						\
	X(flows_added, FLOWS_ADDED,					\
	  "Flows the namespace's sockets attached, on any device.")	\
	X(refused_quota, REFUSED_QUOTA,					\
	  "Attaches refused because the namespace held its quota (EDQUOT).") \
	X(refused_full, REFUSED_FULL,					\
	  "Attaches refused because the device's table was full (ENOSPC).")

/*
 * Not a counter but reported with them (sock-stats nest): how many
 * sockets are offloaded now.
 */
#define TONIC_SOCK_GAUGES(X)						\
	X(offloaded, OFFLOADED,						\
	  "Sockets offloaded now (flows in use on the default device).")

/* The TCP integration's (sock-glue), host-wide. */
#define TONIC_SOCK_COUNTERS(X)						\
	X(installs, INSTALLS,						\
	  "Sockets the tonic ULP was installed on.")			\
	X(attaches, ATTACHES,						\
	  "Sockets attached to a Tonic device (offloads begun).")	\
	X(detaches, DETACHES,						\
	  "Sockets detached from their device: handed back or closed.") \
	X(fallback_full, FALLBACK_FULL,					\
	  "Offloads refused because the device's flow table was full; the socket stays on TCP.") \
	X(fallback_md5, FALLBACK_MD5,					\
	  "Offloads refused because the socket signs with TCP-MD5.")	\
	X(fallback_urg, FALLBACK_URG,					\
	  "Sockets left to TCP for urgent data, zerocopy or Fast Open.") \
	X(fallback_other, FALLBACK_OTHER,				\
	  "Offloads refused otherwise: another ULP, an ECN congestion control, an error.") \
	X(fallback_repair, FALLBACK_REPAIR,				\
	  "Sockets left to TCP because they are in (or enter) TCP_REPAIR mode.") \
	X(fallback_quota, FALLBACK_QUOTA,				\
	  "Offloads refused because the namespace held its flow quota (net.tonic.max_flows).") \
	X(acks_in, ACKS_IN,						\
	  "ACKs fed to the device.")					\
	X(acks_dropped, ACKS_DROPPED,					\
	  "ACKs the device refused (input full); the next ACK carries what they acked.") \
	X(acks_bad_csum, ACKS_BAD_CSUM,					\
	  "ACKs with a bad TCP checksum, not fed to the device.")	\
	X(segs_tx, SEGS_TX,						\
	  "Segments transmitted for the devices (each segment of a GSO packet counted).") \
	X(segs_rtx, SEGS_RTX,						\
	  "Of segs_tx, the retransmissions.")				\
	X(tx_errors, TX_ERRORS,						\
	  "Transmissions that failed; the device's retransmission timer covers them.") \
	X(handbacks, HANDBACKS,						\
	  "Offloaded sockets handed back to software TCP.")		\
	X(handback_bytes, HANDBACK_BYTES,				\
	  "Unacknowledged bytes handed back to software TCP with them.") \
	X(failed, FAILED,						\
	  "Failed notes from a device: its program gave up, or the device was lost.") \
	X(failovers, FAILOVERS,						\
	  "Flows moved to another device after theirs failed.")	\
	X(aborted, ABORTED,						\
	  "Handbacks that reset the connection: TCP could not take the bytes back.") \
	X(auto_adopted, AUTO_ADOPTED,					\
	  "Connections offloaded by themselves (net.tonic.auto_offload).") \
	X(rebases, REBASES,						\
	  "Flows re-based on a cumulative ACK beyond what their device sent.") \
	X(push_refused, PUSH_REFUSED,					\
	  "Segment announcements the device refused; TCP sends those bytes instead.") \
	X(tx_congested, TX_CONGESTED,					\
	  "Transmissions the host's qdisc dropped or marked congested (NET_XMIT_DROP, _CN); the program cut the window, once per window, as kernel TCP's CWR does.") \
	X(sub_segments, SUB_SEGMENTS,					\
	  "Sub-segments announced: the short segments (fewer than C bytes) that end a burst.") \
	X(ring_drops, RING_DROPS,					\
	  "Descriptors dropped on a flow's full ring; the device's RTO resends them.")

#endif /* _TONIC_COUNTERS_H */
