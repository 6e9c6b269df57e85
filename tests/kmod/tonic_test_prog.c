// SPDX-License-Identifier: GPL-2.0
/*
 * A transport program that lives in a module of its own, as an out-of-tree
 * one would (61-tcp-prog-module.sh): "fixedwnd" keeps parameter 0 segments
 * in flight (default FIXEDWND_DEF; flow-set changes it live) and goes back
 * N when the retransmission timer (FIXEDWND_RTO_US) fires.  Nothing else: only the program
 * API of program.h and registry.h is used.
 *
 * clash=1 registers it under a built-in's name and bad=1 with more state
 * than its credit scheme allows: the registry refuses both, so the module
 * does not load.
 */
#include <linux/module.h>
#include <linux/math64.h>
#include "program.h"
#include "../../driver/registry.h"

#define FIXEDWND_DEF	8
#define FIXEDWND_RTO_US	200000	/* TCP's minimum: above any RTT of the tests */

static bool clash;
module_param(clash, bool, 0444);
static bool bad;
module_param(bad, bool, 0444);

static void fixedwnd_window(struct tonic_prog_ctx *ctx)
{
	ctx->cwnd = min(ctx->cfg->param[0] ?: FIXEDWND_DEF, ctx->wnd_bits);
}

static void fixedwnd_init(struct tonic_prog_ctx *ctx)
{
	fixedwnd_window(ctx);
	ctx->rto = div_u64(FIXEDWND_RTO_US * 1000000ULL, ctx->cycle_ps);
	ctx->period = 0;
}

static void fixedwnd_periodic(struct tonic_prog_ctx *ctx)
{
	fixedwnd_window(ctx);
	if (ctx->timeout) {
		tonic_mark_rtx(ctx, ctx->wnd_start, ctx->highest_sent);
		ctx->rearm_rto = true;
	}
}

static struct tonic_prog_ops fixedwnd = {
	.name		= "fixedwnd",
	.owner		= THIS_MODULE,
	.credit		= TONIC_CREDIT_CWND,
	.prio		= TONIC_PRIO_INCOMING,
	.init		= fixedwnd_init,
	.incoming	= fixedwnd_window,
	.periodic	= fixedwnd_periodic,
};

static int __init tonic_test_prog_init(void)
{
	if (clash)
		fixedwnd.name = "newreno";
	if (bad)
		fixedwnd.user_size = TONIC_USER_MAX_CWND + 1;
	return tonic_register_program(&fixedwnd);
}

static void __exit tonic_test_prog_exit(void)
{
	tonic_unregister_program(&fixedwnd);
}

module_init(tonic_test_prog_init);
module_exit(tonic_test_prog_exit);
MODULE_DESCRIPTION("Tonic test: a transport program in its own module");
MODULE_LICENSE("GPL");
