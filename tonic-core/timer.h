/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-flow deadlines: an indexed binary min-heap (one entry per flow), so
 * the engine finds the next timer in O(1) and re-arms in O(log n).  This is
 * what lets tonic_run() jump over idle stretches.
 */
#ifndef _TONIC_TIMER_H
#define _TONIC_TIMER_H

#include "compat.h"
#include "tonic.h"

struct tonic_timer_ent {
	u64 when;
	u32 id;
};

struct tonic_timers {
	struct tonic_timer_ent *heap;	/* cap entries */
	u16 *pos;			/* per id: heap index + 1, 0 = not armed */
	u32 n, cap;
};

void tonic_timers_init(struct tonic_timers *t, struct tonic_timer_ent *heap, u16 *pos, u32 cap);
/* Arm (or move) @id's deadline; TONIC_IDLE disarms. */
void tonic_timer_set(struct tonic_timers *t, u32 id, u64 when);
void __tonic_timer_del(struct tonic_timers *t, u32 id);

/* Disarm @id; most calls find it disarmed, so that test is inline. */
static inline void tonic_timer_del(struct tonic_timers *t, u32 id)
{
	if (id < t->cap && t->pos[id])
		__tonic_timer_del(t, id);
}

static inline u64 tonic_timer_first(const struct tonic_timers *t, u32 *id)
{
	if (!t->n)
		return TONIC_IDLE;
	*id = t->heap[0].id;
	return t->heap[0].when;
}

static inline u64 tonic_timer_when(const struct tonic_timers *t, u32 id)
{
	return t->pos[id] ? t->heap[t->pos[id] - 1].when : TONIC_IDLE;
}

#endif /* _TONIC_TIMER_H */
