// SPDX-License-Identifier: GPL-2.0
/* Round-robin flow sets (Tonic §3.1): O(1) FIFOs of flow ids. */
#include "compat.h"
#include "fifo.h"

/* @links holds 2 * @nflows u16 entries: next[] then prev[]. */
void tonic_fifo_init(struct tonic_fifo *q, u16 *links, u32 nflows)
{
	u32 i;

	q->next = links;
	q->prev = links + nflows;
	for (i = 0; i < 2 * nflows; i++)
		links[i] = TONIC_FIFO_NIL;
	q->head = TONIC_FIFO_NIL;
	q->tail = TONIC_FIFO_NIL;
	q->count = 0;
}

void tonic_fifo_push(struct tonic_fifo *q, u32 id)
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

void tonic_fifo_remove(struct tonic_fifo *q, u32 id)
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

u32 tonic_fifo_pop(struct tonic_fifo *q)
{
	u32 id = q->head;

	if (id == TONIC_FIFO_NIL)
		return TONIC_FIFO_NIL;
	tonic_fifo_remove(q, id);
	return id;
}
