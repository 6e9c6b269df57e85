// SPDX-License-Identifier: GPL-2.0
/* Round-robin sets and the timer heap. */
#include "tap.h"
#include "fifo.h"
#include "timer.h"
#include "tonic.h"

#define N TONIC_MAX_FLOWS

static u16 links[2 * N];
static struct tonic_timer_ent heap[N];
static u16 pos[N];

int main(void)
{
	struct tonic_fifo q;
	struct tonic_timers t;
	static u32 served[N];
	u32 i, id, bad = 0;
	u64 prev, when;

	tonic_fifo_init(&q, links, N);
	ok(tonic_fifo_empty(&q) && tonic_fifo_pop(&q) == TONIC_FIFO_NIL, "empty fifo pops NIL");
	tonic_fifo_push(&q, 3);
	tonic_fifo_push(&q, 7);
	tonic_fifo_push(&q, 3);
	is(q.count, 2, "pushing a member is a no-op");
	tonic_fifo_push(&q, 9);
	tonic_fifo_remove(&q, 7);
	tonic_fifo_remove(&q, 7);
	is(q.count, 2, "remove middle; removing a non-member is a no-op");
	is(tonic_fifo_pop(&q), 3, "fifo order 1");
	is(tonic_fifo_pop(&q), 9, "fifo order 2");
	ok(tonic_fifo_empty(&q) && !tonic_fifo_member(&q, 3), "empty again, no members");
	tonic_fifo_push(&q, 0);
	tonic_fifo_remove(&q, 0);
	ok(tonic_fifo_empty(&q) && q.tail == TONIC_FIFO_NIL, "remove the only element");

	/* Fairness: 2048 always-eligible flows, round robin. */
	for (i = 0; i < N; i++)
		tonic_fifo_push(&q, i);
	for (i = 0; i < 10 * N; i++) {
		id = tonic_fifo_pop(&q);
		if (id != i % N)
			bad++;
		served[id]++;
		tonic_fifo_push(&q, id);
	}
	for (i = 0; i < N; i++)
		if (served[i] != 10)
			bad++;
	is(bad, 0, "2048 flows served strictly round robin, 10 times each");
	/* Remove every third, the rest keep their order. */
	for (i = 0; i < N; i += 3)
		tonic_fifo_remove(&q, i);
	bad = 0;
	for (i = 0; i < N; i++) {
		if (i % 3 == 0)
			continue;
		if (tonic_fifo_pop(&q) != i)
			bad++;
	}
	ok(!bad && tonic_fifo_empty(&q), "O(1) removal keeps the order of the rest");

	/* Timer heap against a sorted drain. */
	tonic_timers_init(&t, heap, pos, N);
	for (i = 0; i < N; i++)
		tonic_timer_set(&t, i, (u64)((i * 7919u) % 10007) * 3);
	for (i = 0; i < N; i += 2)
		tonic_timer_set(&t, i, (u64)((i * 104729u) % 10007) * 5);	/* move */
	for (i = 0; i < N; i += 5)
		tonic_timer_del(&t, i);
	tonic_timer_set(&t, 1, TONIC_IDLE);
	bad = 0;
	prev = 0;
	i = 0;
	while ((when = tonic_timer_first(&t, &id)) != TONIC_IDLE) {
		if (when < prev || tonic_timer_when(&t, id) != when)
			bad++;
		prev = when;
		tonic_timer_del(&t, id);
		i++;
	}
	is(bad, 0, "timers drain in deadline order");
	is(i, N - (N + 4) / 5 - 1, "every armed timer drained once");
	ok(tonic_timer_when(&t, 3) == TONIC_IDLE, "drained timer reads idle");
	return tap_done();
}
