// SPDX-License-Identifier: GPL-2.0
/*
 * Periodic-updates module.  In hardware it walks the active flows one per
 * cycle checking timers; here each flow's next deadline (retransmission
 * timer or next periodic() call, whichever is first) sits in a min-heap,
 * and each cycle the module takes the one flow with the earliest expired
 * deadline.  Flows whose timers are far away cost nothing until then.
 * Entries are re-keyed lazily (see tonic_dd_timer_update()): one that
 * comes up early is moved to its real deadline here, at no cycle cost.
 */
#include "compat.h"
#include "tonic.h"
#include "program.h"
#include "core.h"

bool tonic_per_due(struct tonic_core *tc, struct tonic_per_info *pi)
{
	struct tonic_flow *f;
	u32 id = 0;

	for (;;) {
		if (tonic_timer_first(&tc->dd_timers, &id) > tc->now)
			return false;
		f = &tc->flows[id];
		pi->id = id;
		pi->timeout = f->rto_at <= tc->now;
		pi->periodic = f->periodic_at <= tc->now;
		if (pi->timeout || pi->periodic)
			return true;
		/* Lazily kept early entry: re-key it to the real, later deadline. */
		tonic_dd_timer_rekey(tc, id);
	}
}

void tonic_per_post(struct tonic_core *tc, const struct tonic_per_info *pi)
{
	struct tonic_flow *f = &tc->flows[pi->id];

	if ((f->flags & (TF_USED | TF_FAILED)) != TF_USED)
		return;
	if (pi->timeout) {
		tc->ctr[pi->id].timeouts++;
		if (unlikely(tc->cfg.trace))
			tc->cfg.trace(tc->cfg.trace_arg, TONIC_TRACE_TIMEOUT, pi->id,
				      f->wnd_start, f->rto);
		/* Keep timing out while data is unacked; the program backs off rto. */
		f->rto_at = f->wnd_start != f->highest_sent ? tc->now + f->rto : TONIC_IDLE;
	}
	if (pi->periodic) {
		f->bytes_since_periodic = 0;
		f->periodic_at = f->period ? tc->now + f->period : TONIC_IDLE;
	}
	tonic_dd_timer_rekey(tc, pi->id);
	tonic_dd_update(tc, pi->id);
}
