// SPDX-License-Identifier: GPL-2.0
/*
 * The hooks the TCP integration (sock-glue) registers for the admin
 * interface: toggle one socket, report counters.  A reader/writer
 * semaphore lets requests sleep inside the hooks while unregistering
 * waits for them.
 */
#include <linux/rwsem.h>
#include <linux/errno.h>
#include <linux/string.h>
#include "admin.h"

static DECLARE_RWSEM(tonic_sock_ops_sem);
static const struct tonic_sock_ops *tonic_sock_ops_cur;

int tonic_sock_ops_register(const struct tonic_sock_ops *ops)
{
	int err = 0;

	down_write(&tonic_sock_ops_sem);
	if (tonic_sock_ops_cur)
		err = -EBUSY;
	else
		tonic_sock_ops_cur = ops;
	up_write(&tonic_sock_ops_sem);
	return err;
}

void tonic_sock_ops_unregister(const struct tonic_sock_ops *ops)
{
	down_write(&tonic_sock_ops_sem);
	if (tonic_sock_ops_cur == ops)
		tonic_sock_ops_cur = NULL;
	up_write(&tonic_sock_ops_sem);
}

int tonic_sock_offload(struct sock *sk, bool on, struct netlink_ext_ack *extack)
{
	int err = -EOPNOTSUPP;

	down_read(&tonic_sock_ops_sem);
	if (tonic_sock_ops_cur && tonic_sock_ops_cur->offload)
		err = tonic_sock_ops_cur->offload(sk, on, extack);
	up_read(&tonic_sock_ops_sem);
	return err;
}

int tonic_sock_stats(const struct net *net, struct tonic_sock_stats *st)
{
	int err = -EOPNOTSUPP;

	memset(st, 0, sizeof(*st));
	down_read(&tonic_sock_ops_sem);
	if (tonic_sock_ops_cur && tonic_sock_ops_cur->stats &&
	    (!net || (tonic_sock_ops_cur->flags & TONIC_SOCK_OPS_STATS_PER_NET))) {
		tonic_sock_ops_cur->stats(net, st);
		err = 0;
	}
	up_read(&tonic_sock_ops_sem);
	return err;
}
