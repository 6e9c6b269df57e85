// SPDX-License-Identifier: GPL-2.0
/* Memory registration: the caller's pages pinned, and copies to and from them. */
#include <linux/mm.h>
#include <linux/highmem.h>
#include <linux/slab.h>
#include <linux/tonic_pages.h>
#include "drdma.h"

/* drx_pin: pin [addr, addr + len) of the current process (registration). */
int drx_pin(struct drx_pages *pg, u64 addr, u32 len, bool write)
{
	unsigned int n = DIV_ROUND_UP((addr & ~PAGE_MASK) + len, PAGE_SIZE);
	int got;

	pg->pages = kvcalloc(n, sizeof(*pg->pages), GFP_KERNEL);
	if (!pg->pages)
		return -ENOMEM;
	got = pin_user_pages_fast(addr & PAGE_MASK, n,
				  FOLL_LONGTERM | (write ? FOLL_WRITE : 0), pg->pages);
	if (got != n) {
		if (got > 0)
			unpin_user_pages(pg->pages, got);
		kvfree(pg->pages);
		pg->pages = NULL;
		return got < 0 ? got : -EFAULT;
	}
	pg->npages = n;
	pg->off = addr & ~PAGE_MASK;
	pg->write = write;
	return 0;
}

/* drx_unpin: process context (a written page is dirtied under its lock). */
void drx_unpin(struct drx_pages *pg)
{
	if (!pg->pages)
		return;
	unpin_user_pages_dirty_lock(pg->pages, pg->npages, pg->write);
	kvfree(pg->pages);
	pg->pages = NULL;
}

/* In range by construction: the transfer's frames are checked against its length. */
void drx_copy_to(struct drx_pages *pg, u32 off, const void *src, u32 len)
{
	WARN_ON_ONCE(tonic_pages_copy(pg->pages, pg->npages, pg->off + off, (void *)src, len, true));
}

void drx_copy_from(struct drx_pages *pg, u32 off, void *dst, u32 len)
{
	WARN_ON_ONCE(tonic_pages_copy(pg->pages, pg->npages, pg->off + off, dst, len, false));
}
