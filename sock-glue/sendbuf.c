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
#include <linux/highmem.h>
#include <net/tcp.h>
#include "glue.h"

/* Copy up to @len bytes from @from; returns bytes taken or an error. */
int tonic_sbuf_append(struct sock *sk, struct tonic_sk *ctx, struct iov_iter *from, size_t len,
		      long *timeo)
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

		if (sk->sk_err || (sk->sk_shutdown & SEND_SHUTDOWN) || ctx->fin_pending) {
			err = -EPIPE;
			break;
		}
		if (!ctx->attached) {	/* reset by the peer, or failed: nothing more to send */
			err = -EPIPE;
			break;
		}
		space = READ_ONCE(sk->sk_sndbuf) - READ_ONCE(sk->sk_wmem_queued);
		n = min_t(size_t, len - copied, PAGE_SIZE - pgoff);
		if (space <= 0 || !sk_wmem_schedule(sk, min_t(size_t, n, space)))
			goto wait;
		n = min_t(size_t, n, space);
		if (pgoff)
			page = xa_load(&ctx->pages, idx);
		if (!page) {
			page = alloc_page(sk->sk_allocation | __GFP_NOWARN);
			if (!page)
				goto wait;
			err = xa_err(xa_store(&ctx->pages, idx, page, sk->sk_allocation));
			if (err) {
				put_page(page);
				break;
			}
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
	return sk_stream_error(sk, 0, err);
}

static void tonic_sbuf_release_pages(struct tonic_sk *ctx, u64 from, u64 to)
{
	unsigned long i;
	struct page *p;

	for (i = from >> PAGE_SHIFT; i < (to >> PAGE_SHIFT); i++) {
		p = xa_erase(&ctx->pages, i);
		if (p)
			put_page(p);
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
	tonic_sbuf_release_pages(ctx, ctx->head, off);
	ctx->head = off;
	ctx->bytes_acked += n;
	sk_wmem_queued_add(sk, -(int)n);
	sk_mem_uncharge(sk, n);
	if (sk->sk_socket)
		sk->sk_write_space(sk);
}

/* Drop everything (detach): release the pages and the charge. */
void tonic_sbuf_purge(struct sock *sk, struct tonic_sk *ctx)
{
	u64 n = ctx->tail - ctx->head;

	tonic_sbuf_release_pages(ctx, ctx->head, ctx->tail + PAGE_SIZE);
	if (n) {
		sk_wmem_queued_add(sk, -(int)n);
		sk_mem_uncharge(sk, n);
	}
	ctx->head = ctx->tail = 0;
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
		skb_fill_page_desc(skb, i, page, pgoff, n);
		skb->len += n;
		skb->data_len += n;
		skb->truesize += n;
		off += n;
		len -= n;
	}
	return 0;
}

int tonic_sbuf_copy(struct tonic_sk *ctx, void *to, u64 off, u32 len)
{
	while (len) {
		struct page *page = xa_load(&ctx->pages, off >> PAGE_SHIFT);
		u32 pgoff = off & (PAGE_SIZE - 1);
		u32 n = min_t(u32, len, PAGE_SIZE - pgoff);

		if (WARN_ON_ONCE(!page))
			return -EFAULT;
		memcpy_from_page(to, page, pgoff, n);
		to += n;
		off += n;
		len -= n;
	}
	return 0;
}
