// SPDX-License-Identifier: GPL-2.0
/*
 * Random numbers: splitmix64, seeded from the scenario.  The loss pattern
 * used to compare two senders is not drawn from the stream at all but
 * hashed from (seed, flow, segment, transmission number), so both senders
 * lose exactly the same transmissions of the same segments whatever order
 * they send them in.
 */
#include "sim.h"

static u64 mix(u64 z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rng_seed(struct rng *r, u64 seed)
{
	r->s = seed * 0x9e3779b97f4a7c15ULL + 1;
}

u64 rng_next(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return mix(r->s);
}

double rng_unit(struct rng *r)
{
	return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

double hash_unit(u64 seed, u64 a, u64 b, u64 c)
{
	u64 h = mix(seed + 0x9e3779b97f4a7c15ULL);

	h = mix(h ^ (a * 0xff51afd7ed558ccdULL));
	h = mix(h ^ (b * 0xc4ceb9fe1a85ec53ULL));
	h = mix(h ^ (c + 0x2545f4914f6cdd1dULL));
	return (h >> 11) * (1.0 / 9007199254740992.0);
}
