/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The engine's counters, listed once.  Each entry is
 * X(name, NAME, doc): the field of struct tonic_core_stats, the suffix of
 * its netlink attribute (TONIC_A_DSTATS_NAME, in the dev-stats nest with
 * the device layer's own counters, driver/counters.h) and the sentence
 * that documents it everywhere (debugfs, netlink spec, tonic(8),
 * Documentation/counters.rst, which scripts/counters.py writes from it).
 * Only the preprocessor is needed: userspace includes this as it is.
 */
#ifndef _TONIC_CORE_COUNTERS_H
#define _TONIC_CORE_COUNTERS_H

#define TONIC_CORE_COUNTERS(X)						\
	X(cycles, CYCLES,						\
	  "Device cycles elapsed (the engine's clock).")		\
	X(busy_cycles, BUSY_CYCLES,					\
	  "Cycles in which the engine had work; idle cycles are skipped.") \
	X(bad_flow, BAD_FLOW,						\
	  "Events for a flow that does not exist (or no longer), refused or dropped.") \
	X(bad_ack, BAD_ACK,						\
	  "Control packets refused: an ack beyond what was sent, or a bad packet type.") \
	X(bad_sack, BAD_SACK,						\
	  "Control packets refused for a malformed SACK block.")	\
	X(bad_push, BAD_PUSH,						\
	  "Segment announcements refused: tail not ahead, too far ahead, or a bad length.") \
	X(in_overflow, IN_OVERFLOW,					\
	  "Control packets dropped: the incoming-event queue was full.") \
	X(stale_ack, STALE_ACK,						\
	  "Cumulative acks behind the window, ignored.")		\
	X(conflicts, CONFLICTS,						\
	  "Timeouts dropped because an ACK for the same flow came in the same cycle.") \
	X(notes_dropped, NOTES_DROPPED,					\
	  "Notifications lost: the caller gave no room for them.")	\
	X(stale_desc, STALE_DESC,					\
	  "Ring addresses acked before they were transmitted, dropped unsent.")

#endif /* _TONIC_CORE_COUNTERS_H */
