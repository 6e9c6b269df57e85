// SPDX-License-Identifier: GPL-2.0
/*
 * TONIC_CMD_TENANT_GET / _NEW / _DEL: the tenants of driver/tenant.h.
 * They are the host's (they span every namespace's flows and name uids and
 * cgroups): reads and changes both need the host view.
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include "nl.h"
#include "../../driver/tenant.h"

static int tonic_nl_fill_tenant(struct sk_buff *skb, const struct tonic_tenant_info *ti,
				u32 portid, u32 seq, int flags)
{
	void *hdr = genlmsg_put(skb, portid, seq, &tonic_genl_family, flags,
				TONIC_CMD_TENANT_GET);

	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, TONIC_A_TENANT_NAME, ti->name) ||
	    (ti->by_uid && nla_put_u32(skb, TONIC_A_TENANT_UID,
				       from_kuid_munged(current_user_ns(), ti->uid))) ||
	    (!ti->by_uid && nla_put_u64_64bit(skb, TONIC_A_TENANT_CGROUP, ti->cgroup_id,
					      TONIC_A_TENANT_PAD)) ||
	    nla_put_u32(skb, TONIC_A_TENANT_FIXED, ti->fixed) ||
	    nla_put_u32(skb, TONIC_A_TENANT_FLOWS, ti->flows) ||
	    nla_put_u32(skb, TONIC_A_TENANT_CONGESTED, ti->congested) ||
	    nla_put_u32(skb, TONIC_A_TENANT_VALUE, ti->value)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static int tonic_nl_tenant_perm(struct sk_buff *skb, struct genl_info *info)
{
	if (tonic_nl_host_view(skb))
		return 0;
	NL_SET_ERR_MSG(info->extack, "tenants are the host's: CAP_NET_ADMIN from init_net");
	return -EPERM;
}

int tonic_nl_tenant_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct tonic_tenant_info ti;
	struct nlattr *name;
	struct sk_buff *msg;
	int err = tonic_nl_tenant_perm(skb, info);

	if (err)
		return err;
	if (GENL_REQ_ATTR_CHECK(info, TONIC_A_TENANT_NAME))
		return -EINVAL;
	name = info->attrs[TONIC_A_TENANT_NAME];
	if (tonic_tenant_get(0, nla_data(name), &ti)) {
		NL_SET_ERR_MSG_ATTR(info->extack, name, "no such tenant");
		return -ENOENT;
	}
	msg = genlmsg_new(NLMSG_GOODSIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	err = tonic_nl_fill_tenant(msg, &ti, info->snd_portid, info->snd_seq, 0);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

int tonic_nl_tenant_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct tonic_tenant_info ti;
	u32 idx = cb->args[0];

	if (!tonic_nl_host_view(cb->skb))
		return -EPERM;
	for (; !tonic_tenant_get(idx, NULL, &ti); idx++)
		if (tonic_nl_fill_tenant(skb, &ti, NETLINK_CB(cb->skb).portid,
					 cb->nlh->nlmsg_seq, NLM_F_MULTI))
			break;
	cb->args[0] = idx;
	return skb->len;
}

int tonic_nl_tenant_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **tb = info->attrs;
	struct cgroup *cgrp = NULL;
	kuid_t uid = INVALID_UID;
	char name[TONIC_TENANT_NAME_MAX];
	int err = tonic_nl_tenant_perm(skb, info);

	if (err)
		return err;
	if (GENL_REQ_ATTR_CHECK(info, TONIC_A_TENANT_NAME))
		return -EINVAL;
	if (nla_strscpy(name, tb[TONIC_A_TENANT_NAME], sizeof(name)) <= 0) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[TONIC_A_TENANT_NAME], "empty name");
		return -EINVAL;
	}
	if (!tb[TONIC_A_TENANT_UID] == !tb[TONIC_A_TENANT_CGROUP]) {
		NL_SET_ERR_MSG(info->extack, "a tenant is a uid or a cgroup: give one of them");
		return -EINVAL;
	}
	if (tb[TONIC_A_TENANT_UID]) {
		uid = make_kuid(current_user_ns(), nla_get_u32(tb[TONIC_A_TENANT_UID]));
		if (!uid_valid(uid)) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[TONIC_A_TENANT_UID],
					    "no such uid in this user namespace");
			return -EINVAL;
		}
	} else {
		cgrp = cgroup_get_from_id(nla_get_u64(tb[TONIC_A_TENANT_CGROUP]));
		if (IS_ERR(cgrp)) {
			NL_SET_ERR_MSG_ATTR(info->extack, tb[TONIC_A_TENANT_CGROUP],
					    "no such cgroup (v2)");
			return -ENOENT;
		}
	}
	err = tonic_tenant_add(name, uid, cgrp, tb[TONIC_A_TENANT_FIXED] ?
			       nla_get_u32(tb[TONIC_A_TENANT_FIXED]) : 0);
	if (err == -EEXIST)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[TONIC_A_TENANT_NAME], "tenant exists");
	else if (err == -ENOSPC)
		NL_SET_ERR_MSG(info->extack, "too many tenants");
	return err;
}

int tonic_nl_tenant_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	int err = tonic_nl_tenant_perm(skb, info);
	struct nlattr *name;

	if (err)
		return err;
	if (GENL_REQ_ATTR_CHECK(info, TONIC_A_TENANT_NAME))
		return -EINVAL;
	name = info->attrs[TONIC_A_TENANT_NAME];
	err = tonic_tenant_del(nla_data(name));
	if (err)
		NL_SET_ERR_MSG_ATTR(info->extack, name, "no such tenant");
	return err;
}
