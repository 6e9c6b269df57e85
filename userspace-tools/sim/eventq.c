// SPDX-License-Identifier: GPL-2.0
/*
 * The event queue: a binary min-heap ordered by (time, insertion number),
 * so two events at the same picosecond always run in the order they were
 * scheduled -- the simulation is a pure function of its config and seed.
 */
#include <stdlib.h>
#include "sim.h"

void evq_init(struct eventq *q)
{
	q->cap = 1024;
	q->n = 0;
	q->seq = 0;
	q->h = malloc(q->cap * sizeof(*q->h));
	if (!q->h)
		abort();
}

void evq_free(struct eventq *q)
{
	free(q->h);
	q->h = NULL;
}

static bool ev_less(const struct event *a, const struct event *b)
{
	return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

void evq_push(struct eventq *q, ps_t t, u32 type, u32 arg, void *p)
{
	struct event e = { .t = t, .seq = q->seq++, .type = type, .arg = arg, .p = p };
	u32 i;

	if (q->n == q->cap) {
		q->cap *= 2;
		q->h = realloc(q->h, q->cap * sizeof(*q->h));
		if (!q->h)
			abort();
	}
	i = q->n++;
	while (i) {
		u32 up = (i - 1) / 2;

		if (!ev_less(&e, &q->h[up]))
			break;
		q->h[i] = q->h[up];
		i = up;
	}
	q->h[i] = e;
}

bool evq_pop(struct eventq *q, struct event *out)
{
	struct event last;
	u32 i = 0;

	if (!q->n)
		return false;
	*out = q->h[0];
	last = q->h[--q->n];
	for (;;) {
		u32 l = 2 * i + 1, m = i;

		if (l >= q->n)
			break;
		m = l;
		if (l + 1 < q->n && ev_less(&q->h[l + 1], &q->h[l]))
			m = l + 1;
		if (!ev_less(&q->h[m], &last))
			break;
		q->h[i] = q->h[m];
		i = m;
	}
	q->h[i] = last;
	return true;
}
