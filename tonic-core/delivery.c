// SPDX-License-Identifier: GPL-2.0
/*
 * Data-delivery engine, fixed modules 3 and 4: segment generation and
 * segment transmitted, plus keeping the active set exact.
 *
 * A flow is in the active set iff it can generate an address now: it has
 * fewer than ring_depth addresses outstanding and either a segment marked
 * for retransmission or a new segment highest_sent < tail within the window
 * limit min(K, cwnd) (cwnd only for the window scheme or prog->cwnd_cap).  Every state change
 * that can flip this calls tonic_dd_update(), so a pop never comes up empty.
 */
#include "compat.h"
#include "tonic.h"
#include "program.h"
#include "core.h"

void tonic_dd_update(struct tonic_core *tc, u32 id)
{
	if (tonic_dd_can_generate(tc, id))
		tonic_fifo_push(&tc->active, id);
	else
		tonic_fifo_remove(&tc->active, id);
}

/*
 * Lazy re-keying: most updates move a deadline later (every ACK re-arms the
 * RTO), and re-keying the heap each time would cost O(log n) per ACK.  An
 * entry that is earlier than needed is left alone; when it comes up,
 * tonic_per_due() finds nothing due and re-keys it once.  Earlier deadlines
 * are applied at once.
 */
void tonic_dd_timer_update(struct tonic_core *tc, u32 id)
{
	struct tonic_flow *f = &tc->flows[id];
	u64 t = f->rto_at < f->periodic_at ? f->rto_at : f->periodic_at;

	/* Disarming is exact, so an idle engine reports TONIC_IDLE. */
	if (t != TONIC_IDLE && tonic_timer_when(&tc->dd_timers, id) <= t)
		return;
	tonic_timer_set(&tc->dd_timers, id, t);
}

/* Exact re-key, after the periodic module handled the flow's deadline. */
void tonic_dd_timer_rekey(struct tonic_core *tc, u32 id)
{
	struct tonic_flow *f = &tc->flows[id];

	tonic_timer_set(&tc->dd_timers, id, f->rto_at < f->periodic_at ? f->rto_at : f->periodic_at);
}

/* Module 3: one address per cycle, retransmissions first. */
void tonic_dd_generate(struct tonic_core *tc)
{
	struct tonic_bitmap marked, done;
	struct tonic_flow *f;
	u32 id, off, seg;
	bool rtx = false;

	id = tonic_fifo_pop(&tc->active);
	if (id == TONIC_FIFO_NIL)
		return;
	if (unlikely(!tonic_dd_can_generate(tc, id)))
		return;
	f = &tc->flows[id];
	if (f->marked) {
		marked = tonic_flow_bm(tc, id, TONIC_BM_MARKED);
		off = tonic_bm_ffs(&marked, 0);
		if (unlikely(off >= marked.nbits)) {
			f->marked = 0;	/* cannot be: the count is kept exact */
			tonic_dd_update(tc, id);
			return;
		}
		seg = f->wnd_start + off;
		tonic_bm_clear(&marked, off);
		f->marked--;
		done = tonic_flow_bm(tc, id, TONIC_BM_RTX_DONE);
		tonic_bm_set(&done, off);
		rtx = true;
	} else {
		seg = f->highest_sent++;
	}
	tonic_cr_enqueue(tc, id, seg, rtx);
	tonic_dd_update(tc, id);
}

/* Module 4: the credit engine sent one of the flow's addresses. */
void tonic_dd_transmitted(struct tonic_core *tc, u32 id)
{
	struct tonic_flow *f = &tc->flows[id];

	if (f->rto_at == TONIC_IDLE) {
		f->rto_at = tc->now + f->rto;
		tonic_dd_timer_update(tc, id);
	}
	tonic_dd_update(tc, id);
}
