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

static inline bool tonic_fifo_member(const struct tonic_fifo *q, u32 id)
{
	return q->prev[id] != TONIC_FIFO_NIL || q->head == id;
}

static inline bool tonic_fifo_empty(const struct tonic_fifo *q)
{
	return q->head == TONIC_FIFO_NIL;
}

/* The per-segment path uses these: inline, as list.h's are.  No-op if a member. */
static inline void tonic_fifo_push(struct tonic_fifo *q, u32 id)
{
	if (tonic_fifo_member(q, id))
		return;
	q->next[id] = TONIC_FIFO_NIL;
	if (q->tail == TONIC_FIFO_NIL) {
		q->prev[id] = TONIC_FIFO_NIL;
		q->head = id;
	} else {
		q->prev[id] = q->tail;
		q->next[q->tail] = id;
	}
	q->tail = id;
	q->count++;
}

/* No-op if not a member. */
static inline void tonic_fifo_remove(struct tonic_fifo *q, u32 id)
{
	u16 n, p;

	if (!tonic_fifo_member(q, id))
		return;
	n = q->next[id];
	p = q->prev[id];
	if (p == TONIC_FIFO_NIL)
		q->head = n;
	else
		q->next[p] = n;
	if (n == TONIC_FIFO_NIL)
		q->tail = p;
	else
		q->prev[n] = p;
	q->next[id] = TONIC_FIFO_NIL;
	q->prev[id] = TONIC_FIFO_NIL;
	q->count--;
}

/* TONIC_FIFO_NIL if empty. */
static inline u32 tonic_fifo_pop(struct tonic_fifo *q)
{
	u32 id = q->head;

	if (id == TONIC_FIFO_NIL)
		return TONIC_FIFO_NIL;
	tonic_fifo_remove(q, id);
	return id;
}

#endif /* _TONIC_FIFO_H */
