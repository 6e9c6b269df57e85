// SPDX-License-Identifier: GPL-2.0
/* ConWeave's source and destination state machines (conweave.h). */
#include "conweave.h"

static u32 cw_rand(struct cw_src *s)
{
	u32 x = s->rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	s->rng = x;
	return x;
}

void cw_src_init(struct cw_src *s, const struct cw_src_cfg *cfg, u8 path)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->path = path;
	s->rng = cfg->seed ? cfg->seed : 1;
}
TONIC_EXPORT(cw_src_init);

/* (ii): another path not known to be congested; the seed samples two. */
static bool cw_pick(struct cw_src *s, u64 now, u8 *out)
{
	int i;

	for (i = 0; i < 2; i++) {
		u8 p = cw_rand(s) % (s->cfg.npaths - 1);

		if (p >= s->path)
			p++;
		if (s->busy_until[p] <= now) {
			*out = p;
			return true;
		}
	}
	return false;
}

static void cw_congested(struct cw_src *s, u64 now, u8 path)
{
	s->busy_until[path] = now + s->cfg.busy_us;
	if (path == s->path)
		s->congested = true;
}

void cw_src_tx(struct cw_src *s, u64 now, bool resend, struct cw_mark *m)
{
	u8 next;

	memset(m, 0, sizeof(*m));
	if (s->probing && now - s->probe_sent > s->cfg.cutoff_us) {
		s->probing = false;
		s->late_replies++;
		cw_congested(s, now, s->path);
	}
	m->tx_ts = (u16)now;
	if (!resend && s->congested && !s->await_clear && cw_pick(s, now, &next)) {
		/* This packet is the old path's last. */
		m->path = s->path;
		m->epoch = s->epoch;
		m->tail = true;
		m->tail_tx_ts = s->tail_ts = (u16)now;
		s->path = next;
		s->epoch = (s->epoch + 1) & CW_EPOCH_MASK;
		s->await_clear = true;
		s->congested = false;
		s->probing = false;
		s->reroutes++;
		return;
	}
	m->path = s->path;
	m->epoch = s->epoch;
	m->rerouted = s->await_clear;
	m->tail_tx_ts = s->tail_ts;
	if (!s->probing && (!s->probes || now - s->last_probe >= s->cfg.probe_us)) {
		m->op = CW_OP_RTT_REQUEST;
		s->probing = true;
		s->probe_sent = s->last_probe = now;
		s->probe_ts = m->tx_ts;
		s->probes++;
	}
}
TONIC_EXPORT(cw_src_tx);

void cw_src_rx(struct cw_src *s, u64 now, const struct cw_mark *m)
{
	switch (m->op) {
	case CW_OP_RTT_REPLY:
		if (!s->probing || m->tx_ts != s->probe_ts || m->path != s->path)
			break;
		s->probing = false;
		if (now - s->probe_sent > s->cfg.cutoff_us) {
			s->late_replies++;
			cw_congested(s, now, s->path);
		}
		break;
	case CW_OP_NOTIFY:
		s->notifies++;
		if (m->path < s->cfg.npaths)
			cw_congested(s, now, m->path);
		break;
	case CW_OP_CLEAR:
		if (s->await_clear && m->epoch == s->epoch)
			s->await_clear = false;
		break;
	}
}
TONIC_EXPORT(cw_src_rx);

void cw_dst_init(struct cw_dst *d, u32 resume_us, u8 epoch)
{
	memset(d, 0, sizeof(*d));
	d->resume_us = resume_us;
	d->open = epoch & CW_EPOCH_MASK;
}
TONIC_EXPORT(cw_dst_init);

static void cw_clear(struct cw_mark *reply, const struct cw_mark *m, u8 epoch)
{
	*reply = *m;
	reply->op = CW_OP_CLEAR;
	reply->epoch = epoch;
	reply->rerouted = reply->tail = false;
}

enum cw_verdict cw_dst_rx(struct cw_dst *d, u64 now, const struct cw_mark *m,
			  struct cw_mark *reply)
{
	memset(reply, 0, sizeof(*reply));
	if (m->op == CW_OP_RTT_REQUEST) {
		*reply = *m;
		reply->op = CW_OP_RTT_REPLY;
	}
	if (m->tail) {
		u8 next = (m->epoch + 1) & CW_EPOCH_MASK;

		cw_clear(reply, m, next);
		if (next == d->open)	/* late: given up on by the resume timer */
			return CW_PASS;
		d->open = next;
		d->tails++;
		if (d->holding) {
			d->holding = false;
			return CW_PASS_RELEASE;
		}
		return CW_PASS;
	}
	if (m->rerouted && m->epoch != d->open) {
		if (!d->holding) {
			d->holding = true;
			d->hold_epoch = m->epoch;
			d->resume_at = now + d->resume_us;
		}
		d->held++;
		return CW_HOLD;
	}
	return CW_PASS;
}
TONIC_EXPORT(cw_dst_rx);

bool cw_dst_poll(struct cw_dst *d, u64 now, struct cw_mark *reply)
{
	struct cw_mark m = {};

	if (!d->holding || now < d->resume_at)
		return false;
	d->holding = false;
	d->open = d->hold_epoch;
	d->resumed++;
	cw_clear(reply, &m, d->hold_epoch);
	return true;
}
TONIC_EXPORT(cw_dst_poll);
