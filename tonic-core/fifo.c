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
