/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tenants: the flows of one owner -- a uid, or a cgroup (v2) and those
 * below it -- that should together get one share of a bottleneck, whatever
 * their number.  Seed 001 partitions IB bandwidth between tenants by giving
 * each flow of a k-flow tenant CCTI_Increase = k, by hand; here the device
 * does it: every TONIC_TENANT_INTERVAL_MS it counts each tenant's
 * congested flows (a CNP within the last tenant_hold_ms) and sets the
 * program's tenant parameter (struct tonic_prog_ops.tenant_param) of each
 * of the tenant's flows to that count (at least 1), or to the tenant's
 * fixed value.  A host counts its own flows: a tenant's flows on other
 * hosts are not seen.
 *
 * A flow joins the first tenant (in creation order) that matches it when it
 * attaches; tenants added later apply to flows attached later.  Deleting a
 * tenant leaves its flows' parameters as they were.
 */
#ifndef _TONIC_TENANT_H
#define _TONIC_TENANT_H

#include <linux/types.h>
#include <linux/uidgid.h>

struct tonic_flow_info;
struct cgroup;

#define TONIC_TENANT_NAME_MAX	16	/* with the NUL */

/* What the admin interface shows of a tenant. */
struct tonic_tenant_info {
	char name[TONIC_TENANT_NAME_MAX];
	bool by_uid;
	kuid_t uid;
	u64 cgroup_id;		/* !by_uid */
	u32 fixed;		/* the parameter's value, 0: automatic */
	u32 flows;		/* attached flows, at the last look */
	u32 congested;		/* ... with a CNP within tenant_hold_ms */
	u32 value;		/* what its flows' tenant parameter was set to */
};

/*
 * Add a tenant: by @uid, or by @cgrp (its reference is taken over, also on
 * error) when not NULL.  -EEXIST for a name in use, -ENOSPC past
 * TONIC_TENANTS_MAX, -ENOMEM.
 */
int tonic_tenant_add(const char *name, kuid_t uid, struct cgroup *cgrp, u32 fixed);
/* -ENOENT if there is no tenant @name. */
int tonic_tenant_del(const char *name);
/*
 * Tenant number @n in creation order into @ti, or the one named @name when
 * not NULL: 0, or -ENOENT.
 */
int tonic_tenant_get(u32 n, const char *name, struct tonic_tenant_info *ti);
/* Tenant @id's name into @name: false if there is none (any more). */
bool tonic_tenant_name(u32 id, char name[TONIC_TENANT_NAME_MAX]);
/* The tenant a flow described by @fi joins at attach (0: none).  Any context. */
u32 tonic_tenant_match(const struct tonic_flow_info *fi);

/* Module exit, after the admin interface is gone: stop the sweep, free them. */
void tonic_tenant_exit(void);

#endif /* _TONIC_TENANT_H */
