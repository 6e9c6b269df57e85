// SPDX-License-Identifier: GPL-2.0
/*
 * The flow's send buffer: pages indexed by byte offset, head (first byte not
 * yet acked) .. tail (end of the application's data).  Bytes are charged to
 * the socket like TCP's write queue (sk_wmem_queued, sk_mem_charge), so
 * SO_SNDBUF, blocking, poll/epoll and memory pressure behave as usual; the
 * kernel's write_seq advances as bytes are accepted.  Transmitted segments
 * reference the pages (no copy); acked pages are released.
 */
#include <linux/uio.h>
#include <linux/bvec.h>
#include <linux/highmem.h>
#include <net/tcp.h>
#include "glue.h"

/*
 * A page for the next 4 KB of the buffer, cut from the socket's page
 * fragment (sk_page_frag(): the task's, usually) as tcp_sendmsg_locked()
 * cuts its skbs' data, and refilled as it refills it: a compound page, a
 * fresh one when nothing else references the last (else memory pressure
 * is entered, as for TCP).  An order-0 page of its own for every 4 KB
 * made a bulk sender slower and costlier (performance.rst, "An eleventh
 * run").  Each slot holds a reference to the compound page.
 */
static struct page *tonic_sbuf_page(struct sock *sk)
{
	struct page_frag *pfrag = sk_page_frag(sk);
	struct page *page;

	/* Whole pages only: then a free page is the one skb_page_frag_refill() gives. */
	pfrag->offset = ALIGN(pfrag->offset, PAGE_SIZE);
	if (!sk_page_frag_refill(sk, pfrag))
		return NULL;
	page = nth_page(pfrag->page, pfrag->offset >> PAGE_SHIFT);
	get_page(page);
	pfrag->offset += PAGE_SIZE;
	return page;
}

/*
 * Copy up to @len bytes from @from; returns bytes taken or an error.  Stops
 * early, without an error, when the socket leaves the device meanwhile (an
 * admin's toggle while we waited for memory): the caller hands the rest
 * to TCP.
 */
int tonic_sbuf_append(struct sock *sk, struct tonic_sk *ctx, struct iov_iter *from, size_t len,
		      int flags, long *timeo)
{
	struct tcp_sock *tp = tcp_sk(sk);
	size_t copied = 0;
	int err = 0;

	while (copied < len) {
		u64 off = ctx->tail;
		unsigned long idx = off >> PAGE_SHIFT;
		u32 pgoff = off & (PAGE_SIZE - 1);
		struct page *page = NULL;
		size_t n, c;
		int space;

		if (sk->sk_err || (sk->sk_shutdown & SEND_SHUTDOWN)) {
			err = -EPIPE;
			break;
		}
		if (!ctx->attached)
			break;
		space = READ_ONCE(sk->sk_sndbuf) - READ_ONCE(sk->sk_wmem_queued);
		n = min_t(size_t, len - copied, PAGE_SIZE - pgoff);
		if (space <= 0 || !sk_wmem_schedule(sk, min_t(size_t, n, space)))
			goto wait;
		n = min_t(size_t, n, space);
		if (pgoff)
			page = xa_load(&ctx->pages, idx);
		if (!page) {
			page = tonic_sbuf_page(sk);
			if (!page)
				goto wait;
			err = xa_err(xa_store_bh(&ctx->pages, idx, page, sk->sk_allocation));
			if (err) {
				put_page(page);
				break;
			}
			WRITE_ONCE(ctx->npages, ctx->npages + 1);
		}
		c = copy_page_from_iter(page, pgoff, n, from);
		if (!c) {
			err = -EFAULT;
			break;
		}
		sk_wmem_queued_add(sk, c);
		sk_mem_charge(sk, c);
		ctx->tail += c;
		ctx->bytes_queued += c;
		WRITE_ONCE(tp->write_seq, tp->write_seq + c);
		copied += c;
		/* Let full segments go while the copy goes on. */
		if (ctx->tail - ctx->head >= 16 * (u64)ctx->seg && !(ctx->tail & 0xffff))
			tonic_carve(sk, ctx);
		continue;
wait:
		tonic_carve(sk, ctx);
		set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
		err = sk_stream_wait_memory(sk, timeo);
		if (err)
			break;
	}
	if (copied) {
		tonic_carve(sk, ctx);
		return copied;
	}
	return err ? sk_stream_error(sk, flags, err) : 0;
}

static void tonic_sbuf_release_pages(struct tonic_sk *ctx, u64 from, u64 to)
{
	unsigned long i;
	struct page *p;

	for (i = from >> PAGE_SHIFT; i < (to >> PAGE_SHIFT); i++) {
		p = xa_erase_bh(&ctx->pages, i);
		if (p) {
			put_page(p);
			WRITE_ONCE(ctx->npages, ctx->npages - 1);
		}
	}
}

/* The peer acked everything before @off. */
void tonic_sbuf_free_to(struct sock *sk, struct tonic_sk *ctx, u64 off)
{
	u64 n;

	if (off > ctx->tail)
		off = ctx->tail;
	if (off <= ctx->head)
		return;
	n = off - ctx->head;
	/*
	 * All acked: the page the tail is in goes too (the next append cuts
	 * another), or an idle socket would pin its compound page whole.
	 */
	tonic_sbuf_release_pages(ctx, ctx->head, off == ctx->tail ? round_up(off, PAGE_SIZE) : off);
	ctx->head = off;
	ctx->bytes_acked += n;
	/*
	 * tcp_info's delivered (ss -ti) counts segments TCP saw acked in its
	 * retransmit queue, empty while the device sends: count ours, in
	 * MSS-sized segments as the wire carried them.
	 */
	tcp_sk(sk)->delivered += DIV_ROUND_UP_ULL(n, tcp_sk(sk)->mss_cache ?: 1);
	sk_wmem_queued_add(sk, -(int)n);
	sk_mem_uncharge(sk, n);
	if (sk->sk_socket)
		sk->sk_write_space(sk);
}

/*
 * [head, tail) leaves the socket's queue accounting for TCP's, which is
 * about to charge it again: the memory stays reserved to the socket
 * (sk_forward_alloc, not reclaimed), so pressure cannot refuse the move.
 */
void tonic_sbuf_uncharge(struct sock *sk, struct tonic_sk *ctx)
{
	u64 n = ctx->tail - ctx->head;

	if (n && sk_has_account(sk)) {
		sk_wmem_queued_add(sk, -(int)n);
		sk->sk_forward_alloc += n;
	}
}

/* Release the pages, whatever is left in them. */
void tonic_sbuf_release(struct tonic_sk *ctx)
{
	tonic_sbuf_release_pages(ctx, ctx->head, ctx->tail + PAGE_SIZE);
	ctx->head = ctx->tail = 0;
}

/* Drop everything: release the pages and the charge. */
void tonic_sbuf_purge(struct sock *sk, struct tonic_sk *ctx)
{
	u64 n = ctx->tail - ctx->head;

	if (n) {
		sk_wmem_queued_add(sk, -(int)n);
		sk_mem_uncharge(sk, n);
	}
	tonic_sbuf_release(ctx);
}

#define TONIC_TO_TCP_PAGES	16

/*
 * Queue bytes [from, to) on TCP's write queue (tcp_sendmsg_locked copies
 * them), each call's last skb marked with @flags.  All or an error.  A
 * call stays under 16 skbs: past that tcp_sendmsg_locked() lets the
 * receive backlog in, which must not see the socket mid-move.
 */
int tonic_sbuf_to_tcp(struct sock *sk, struct tonic_sk *ctx, u64 from, u64 to, int flags)
{
	u32 mss = max_t(u32, tcp_sk(sk)->mss_cache, TCP_MIN_SND_MSS + MAX_TCP_OPTION_SPACE);
	u32 cap = 8 * (mss - MAX_TCP_OPTION_SPACE);
	struct bio_vec bvec[TONIC_TO_TCP_PAGES];
	struct msghdr msg = { };
	int n, ret;
	u32 len;

	while (from < to) {
		for (n = 0, len = 0; n < TONIC_TO_TCP_PAGES && from + len < to && len < cap; n++) {
			u64 off = from + len;
			struct page *page = xa_load(&ctx->pages, off >> PAGE_SHIFT);
			u32 pgoff = off & (PAGE_SIZE - 1);
			u32 c = min_t(u64, min_t(u64, to - off, cap - len), PAGE_SIZE - pgoff);

			if (!page)
				return -EFAULT;
			bvec[n].bv_page = page;
			bvec[n].bv_offset = pgoff;
			bvec[n].bv_len = c;
			len += c;
		}
		msg.msg_flags = flags | MSG_DONTWAIT | MSG_NOSIGNAL;
		iov_iter_bvec(&msg.msg_iter, ITER_SOURCE, bvec, n, len);
		ret = tcp_sendmsg_locked(sk, &msg, len);
		if (ret != len)
			return ret < 0 ? ret : -ENOMEM;
		from += len;
	}
	return 0;
}

/* Reference bytes [off, off + len) as page fragments of @skb. */
int tonic_sbuf_fill_skb(struct tonic_sk *ctx, struct sk_buff *skb, u64 off, u32 len)
{
	while (len) {
		struct page *page = xa_load(&ctx->pages, off >> PAGE_SHIFT);
		u32 pgoff = off & (PAGE_SIZE - 1);
		u32 n = min_t(u32, len, PAGE_SIZE - pgoff);
		int i = skb_shinfo(skb)->nr_frags;

		if (WARN_ON_ONCE(!page) || i >= MAX_SKB_FRAGS)
			return -EFAULT;
		get_page(page);
		/* As TCP fills its own: a pfmemalloc page must not mark the skb. */
		skb_fill_page_desc_noacc(skb, i, page, pgoff, n);
		skb->len += n;
		skb->data_len += n;
		skb->truesize += n;
		off += n;
		len -= n;
	}
	return 0;
}
