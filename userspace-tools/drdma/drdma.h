/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libtonic-drdma: Dynamic RDMA transfers from a program
 * (include/uapi/linux/tonic_drdma.h, Documentation/drdma.rst).
 * Every call returns 0 or a negative errno.
 */
#ifndef TONIC_DRDMA_LIB_H
#define TONIC_DRDMA_LIB_H

#include <stddef.h>
#include <stdint.h>
#include <linux/tonic_drdma.h>

int tdrdma_open(void);
/* An initiator's write or read of @len bytes at @buf, to or from @dba of the
 * responder @peer (a MAC address) on interface @ifname; @out may be NULL. */
int tdrdma_xfer(int fd, const char *ifname, const uint8_t peer[6], int type, int policy,
		void *buf, uint64_t dba, uint32_t len, struct tdrdma_xfer *out);
/* A responder: lend @size bytes at @mem on @ifname (one lender per interface). */
int tdrdma_lend(int fd, const char *ifname, void *mem, uint64_t size);
/* The next request to register (r->len 0: only r->done, the releases, moved). */
int tdrdma_next(int fd, struct tdrdma_request *r);
int tdrdma_register(int fd, const struct tdrdma_request *r, int refuse);
int tdrdma_stats(int fd, struct tdrdma_stats *s);
extern const char *const tdrdma_stat_names[TDRDMA_S_MAX];
int tdrdma_parse_mac(const char *s, uint8_t mac[6]);

#endif
