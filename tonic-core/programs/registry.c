// SPDX-License-Identifier: GPL-2.0
/* The table of built-in transport programs, looked up by name. */
#include "../program.h"
#include "programs.h"

static const struct tonic_prog_ops *const tonic_progs[] = {
	&tonic_prog_reno,
	&tonic_prog_newreno,
	&tonic_prog_sack,
	&tonic_prog_ndp,
	&tonic_prog_dcqcn,
	&tonic_prog_irn,
	&tonic_prog_ibcc,
	&tonic_prog_cubic,
	&tonic_prog_dctcp,
	&tonic_prog_rc,
	&tonic_prog_irn_dcqcn,
};

const struct tonic_prog_ops *tonic_prog_find(const char *name)
{
	u32 i;

	if (!name)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(tonic_progs); i++)
		if (!strcmp(tonic_progs[i]->name, name))
			return tonic_progs[i];
	return NULL;
}

const struct tonic_prog_ops *const *tonic_prog_list(u32 *n)
{
	if (n)
		*n = ARRAY_SIZE(tonic_progs);
	return tonic_progs;
}
