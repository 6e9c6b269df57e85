// SPDX-License-Identifier: GPL-2.0
/* Indexed min-heap of per-flow deadlines. */
#include "compat.h"
#include "tonic.h"
#include "timer.h"

void tonic_timers_init(struct tonic_timers *t, struct tonic_timer_ent *heap, u16 *pos, u32 cap)
{
	t->heap = heap;
	t->pos = pos;
	t->n = 0;
	t->cap = cap;
	memset(pos, 0, cap * sizeof(*pos));
}

static inline void heap_put(struct tonic_timers *t, u32 i, struct tonic_timer_ent e)
{
	t->heap[i] = e;
	t->pos[e.id] = i + 1;
}

static void sift_up(struct tonic_timers *t, u32 i)
{
	struct tonic_timer_ent e = t->heap[i];

	while (i) {
		u32 p = (i - 1) / 2;

		if (t->heap[p].when <= e.when)
			break;
		heap_put(t, i, t->heap[p]);
		i = p;
	}
	heap_put(t, i, e);
}

static void sift_down(struct tonic_timers *t, u32 i)
{
	struct tonic_timer_ent e = t->heap[i];

	for (;;) {
		u32 c = 2 * i + 1;

		if (c >= t->n)
			break;
		if (c + 1 < t->n && t->heap[c + 1].when < t->heap[c].when)
			c++;
		if (e.when <= t->heap[c].when)
			break;
		heap_put(t, i, t->heap[c]);
		i = c;
	}
	heap_put(t, i, e);
}

void __tonic_timer_del(struct tonic_timers *t, u32 id)
{
	struct tonic_timer_ent last;
	u32 i;

	i = t->pos[id] - 1;
	t->pos[id] = 0;
	if (--t->n == i)
		return;
	last = t->heap[t->n];
	heap_put(t, i, last);
	sift_down(t, i);
	sift_up(t, t->pos[last.id] - 1);
}

void tonic_timer_set(struct tonic_timers *t, u32 id, u64 when)
{
	u32 i;

	if (id >= t->cap)
		return;
	if (when == TONIC_IDLE) {
		tonic_timer_del(t, id);
		return;
	}
	if (!t->pos[id]) {
		i = t->n++;
		heap_put(t, i, (struct tonic_timer_ent){ .when = when, .id = id });
		sift_up(t, i);
		return;
	}
	i = t->pos[id] - 1;
	if (when < t->heap[i].when) {
		t->heap[i].when = when;
		sift_up(t, i);
	} else {
		t->heap[i].when = when;
		sift_down(t, i);
	}
}
