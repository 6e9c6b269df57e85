/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included before tonic-nl-gen.c (Kbuild): that file comes from the 6.12
 * YNL code generator, which makes the integer range tables const.  On
 * kernels whose struct nla_policy points at them without const (6.1; it
 * only reads them), say so with a cast instead of a warning.
 */
#ifndef _TONIC_GEN_COMPAT_H
#define _TONIC_GEN_COMPAT_H

#include <linux/version.h>
#include <net/netlink.h>

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#undef NLA_POLICY_FULL_RANGE
#define NLA_POLICY_FULL_RANGE(tp, _range) {				\
	.type = NLA_ENSURE_UINT_OR_BINARY_TYPE(tp),			\
	.validation_type = NLA_VALIDATE_RANGE_PTR,			\
	.range = (struct netlink_range_validation *)(_range),		\
}
#endif

#endif /* _TONIC_GEN_COMPAT_H */
