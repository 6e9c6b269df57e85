// SPDX-License-Identifier: GPL-2.0
/*
 * Memory regions: user memory pinned with ib_umem_get (the device has no
 * DMA: ib_uses_virt_dma(), so the umem is a list of pages we copy to and
 * from through kmap_local_page), and the DMA MR of kernel users, whose
 * addresses are kernel virtual addresses.  lkey == rkey == index << 8 | a random byte.
 */
#include <linux/random.h>
#include <linux/tonic_pages.h>
#include "tonic_rdma.h"

static int trd_mr_insert(struct trd_dev *dev, struct trd_mr *mr, struct trd_pd *pd, int access)
{
	u32 idx;
	int err;

	err = xa_alloc_cyclic(&dev->mrs, &idx, mr, XA_LIMIT(1, TRD_MAX_MR), &dev->mr_next,
			      GFP_KERNEL);
	if (err < 0)
		return err;
	mr->pd = pd;
	mr->access = access;
	/* A fresh random low byte, as rxe's: a key cannot be guessed or come back. */
	mr->ib.lkey = idx << 8 | get_random_u8();
	mr->ib.rkey = mr->ib.lkey;
	atomic_inc(&dev->nmr);
	return 0;
}

struct ib_mr *trd_get_dma_mr(struct ib_pd *pd, int access)
{
	struct trd_mr *mr;
	int err;

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->length = ~0ull;
	err = trd_mr_insert(to_tdev(pd->device), mr, to_tpd(pd), access);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}
	return &mr->ib;
}

struct ib_mr *trd_reg_user_mr(struct ib_pd *pd, u64 start, u64 length, u64 iova, int access,
			      struct ib_udata *udata)
{
	struct trd_dev *dev = to_tdev(pd->device);
	struct sg_page_iter it;
	struct ib_umem *umem;
	struct trd_mr *mr;
	unsigned long i = 0;
	int err;

	/* Optional flags (relaxed ordering) may be ignored; atomics are not served yet. */
	if (access & ~(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE | IB_ACCESS_REMOTE_READ |
		       IB_ACCESS_REMOTE_ATOMIC | IB_ACCESS_OPTIONAL))
		return ERR_PTR(-EOPNOTSUPP);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	umem = ib_umem_get(pd->device, start, length, access);
	if (IS_ERR(umem)) {
		err = PTR_ERR(umem);
		goto err_free;
	}
	mr->umem = umem;
	mr->npages = ib_umem_num_pages(umem);
	mr->pages = kvcalloc(mr->npages, sizeof(*mr->pages), GFP_KERNEL);
	err = -ENOMEM;
	if (!mr->pages)
		goto err_umem;
	for_each_sgtable_page(&umem->sgt_append.sgt, &it, 0) {
		if (i == mr->npages)
			break;
		mr->pages[i++] = sg_page_iter_page(&it);
	}
	err = -EFAULT;
	if (i != mr->npages)
		goto err_pages;
	mr->iova = iova;
	mr->length = length;
	mr->ib.iova = iova;
	mr->ib.length = length;
	err = trd_mr_insert(dev, mr, to_tpd(pd), access);
	if (err)
		goto err_pages;
	return &mr->ib;

err_pages:
	kvfree(mr->pages);
err_umem:
	ib_umem_release(umem);
err_free:
	kfree(mr);
	return ERR_PTR(err);
}

int trd_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct trd_dev *dev = to_tdev(ibmr->device);
	struct trd_mr *mr = to_tmr(ibmr);

	xa_erase(&dev->mrs, mr->ib.lkey >> 8);
	/* The rx path and the requester look MRs up under RCU (BH off). */
	synchronize_rcu();
	if (mr->umem) {
		kvfree(mr->pages);
		ib_umem_release(mr->umem);
	}
	atomic_dec(&dev->nmr);
	kfree(mr);
	return 0;
}

/* Under RCU or with BH off; NULL when @key is no live MR's. */
struct trd_mr *trd_mr_lookup(struct trd_dev *dev, u32 key)
{
	struct trd_mr *mr = xa_load(&dev->mrs, key >> 8);

	return mr && mr->ib.lkey == key ? mr : NULL;
}

/* Copy @len bytes between @buf and the MR at @iova (checked against its bounds). */
int trd_mr_copy(struct trd_mr *mr, u64 iova, void *buf, u32 len, bool to_mr)
{
	u64 off;

	if (!mr->umem) {
		void *va = (void *)(uintptr_t)iova;

		if (to_mr)
			memcpy(va, buf, len);
		else
			memcpy(buf, va, len);
		return 0;
	}
	if (iova < mr->iova || len > mr->length || iova - mr->iova > mr->length - len)
		return -EFAULT;
	off = iova - mr->iova + ib_umem_offset(mr->umem);
	return tonic_pages_copy(mr->pages, mr->npages, off, buf, len, to_mr);
}

/*
 * Copy @len bytes between @buf and a scatter list, starting @off bytes into
 * it; each SGE's lkey must be an MR of the QP's PD with local write access
 * when written to.
 */
int trd_sge_copy(struct trd_qp *qp, const struct ib_sge *sge, int num_sge, u32 off, void *buf,
		 u32 len, bool to_mr)
{
	int i;

	for (i = 0; i < num_sge && len; i++) {
		struct trd_mr *mr;
		u32 n;
		int err;

		if (off >= sge[i].length) {
			off -= sge[i].length;
			continue;
		}
		n = min(len, sge[i].length - off);
		mr = trd_mr_lookup(qp->dev, sge[i].lkey);
		if (!mr || mr->pd != to_tpd(qp->ib.pd) ||
		    (to_mr && mr->umem && !(mr->access & IB_ACCESS_LOCAL_WRITE)))
			return -EACCES;
		err = trd_mr_copy(mr, sge[i].addr + off, buf, n, to_mr);
		if (err)
			return err;
		buf += n;
		len -= n;
		off = 0;
	}
	return len ? -EINVAL : 0;
}
