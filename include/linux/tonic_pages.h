/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copies between a buffer and pinned user pages: an RDMA MR's
 * (rdma-glue/mr.c) or a Dynamic RDMA transfer's (drdma/pages.c).
 */
#ifndef _TONIC_PAGES_H
#define _TONIC_PAGES_H

#include <linux/highmem.h>
#include <linux/string.h>

/*
 * tonic_pages_copy: @len bytes between @buf and @pages (@npages of them),
 * from byte @off of the first; to the pages when @to_pages.  -EFAULT, and
 * nothing beyond, when the range passes the last page.
 */
static inline int tonic_pages_copy(struct page **pages, unsigned long npages, u64 off,
				   void *buf, u32 len, bool to_pages)
{
	while (len) {
		unsigned long pg = off >> PAGE_SHIFT;
		u32 po = off & ~PAGE_MASK;
		u32 n = min_t(u32, len, PAGE_SIZE - po);
		u8 *va;

		if (pg >= npages)
			return -EFAULT;
		va = kmap_local_page(pages[pg]);
		if (to_pages)
			memcpy(va + po, buf, n);
		else
			memcpy(buf, va + po, n);
		kunmap_local(va);
		buf += n;
		off += n;
		len -= n;
	}
	return 0;
}

#endif
