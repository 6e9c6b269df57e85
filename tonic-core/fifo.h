/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The active set and the ready-to-tx set: FIFOs of flow ids giving round
 * robin among members.  Intrusive doubly linked lists over per-flow u16
 * links, so push, pop, membership and removal are all O(1).
 */
#ifndef _TONIC_FIFO_H
#define _TONIC_FIFO_H

#include "compat.h"

#define TONIC_FIFO_NIL	0xffff

struct tonic_fifo {
	u16 *next, *prev;	/* one pair per flow id */
	u16 head, tail;
	u32 count;
};

void tonic_fifo_init(struct tonic_fifo *q, u16 *links, u32 nflows);
void tonic_fifo_push(struct tonic_fifo *q, u32 id);	/* no-op if a member */
u32 tonic_fifo_pop(struct tonic_fifo *q);		/* TONIC_FIFO_NIL if empty */
void tonic_fifo_remove(struct tonic_fifo *q, u32 id);	/* no-op if not a member */

static inline bool tonic_fifo_member(const struct tonic_fifo *q, u32 id)
{
	return q->prev[id] != TONIC_FIFO_NIL || q->head == id;
}

static inline bool tonic_fifo_empty(const struct tonic_fifo *q)
{
	return q->head == TONIC_FIFO_NIL;
}

#endif /* _TONIC_FIFO_H */
