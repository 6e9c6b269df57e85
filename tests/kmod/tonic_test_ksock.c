// SPDX-License-Identifier: GPL-2.0
/*
 * An in-kernel TCP user (as NFS or iSCSI are), for 54-tcp-device-refusal.sh:
 * at load time, in the namespace of the process loading it, connect to a
 * tonic_xfer server at addr:port, ask for the offload the way a user
 * socket would (how=ulp: TCP_ULP "tonic"; how=cc: TCP_CONGESTION "tonic";
 * how=plain: nothing, for net.tonic.auto_offload), send the file @file,
 * shut down, and log the server's "BYTES SHA256" reply.  Loading fails
 * with the error of the first step that fails.
 *
 * Kernel sockets stay on software TCP: the log says what the offload
 * answered and whether the socket still had the tonic ULP at the end.
 */
#include <linux/module.h>
#include <linux/fs.h>
#include <linux/inet.h>
#include <linux/net.h>
#include <linux/slab.h>
#include <linux/nsproxy.h>
#include <net/inet_connection_sock.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <net/tcp.h>

static char *addr = "";
module_param(addr, charp, 0444);
static int port;
module_param(port, int, 0444);
static char *file = "";
module_param(file, charp, 0444);
static char *how = "plain";
module_param(how, charp, 0444);
MODULE_PARM_DESC(how, "ulp | cc | plain");

#define KSOCK_BUF	65536

static int ksock_opt(struct socket *sock, int opt, char *val)
{
	return sock->ops->setsockopt(sock, SOL_TCP, opt, KERNEL_SOCKPTR(val), strlen(val));
}

static int ksock_send_file(struct socket *sock, struct file *f, char *buf, size_t *total)
{
	loff_t pos = 0;
	ssize_t n;
	int sent;

	while ((n = kernel_read(f, buf, KSOCK_BUF, &pos)) > 0) {
		struct kvec v = { .iov_base = buf, .iov_len = n };
		struct msghdr msg = {};

		sent = kernel_sendmsg(sock, &msg, &v, 1, n);
		if (sent != n)
			return sent < 0 ? sent : -EIO;
		*total += n;
	}
	return n;
}

static int __init tonic_test_ksock_init(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	struct socket *sock;
	struct file *f;
	size_t total = 0;
	char *buf;
	int err, optret = 0, n;
	struct kvec v;
	struct msghdr msg = {};

	if (!in4_pton(addr, -1, (u8 *)&sa.sin_addr, -1, NULL) || port <= 0 || port > 65535)
		return -EINVAL;
	f = filp_open(file, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	buf = kvmalloc(KSOCK_BUF, GFP_KERNEL);
	err = -ENOMEM;
	if (!buf)
		goto out_file;
	err = sock_create_kern(current->nsproxy->net_ns, AF_INET, SOCK_STREAM, IPPROTO_TCP, &sock);
	if (err)
		goto out_buf;
	/* Bounded: a stalled connection fails the load instead of hanging insmod. */
	sock->sk->sk_sndtimeo = 60 * HZ;
	sock->sk->sk_rcvtimeo = 60 * HZ;
	err = kernel_connect(sock, (struct sockaddr *)&sa, sizeof(sa), 0);
	if (err)
		goto out_sock;
	if (!strcmp(how, "ulp"))
		optret = ksock_opt(sock, TCP_ULP, "tonic");
	else if (!strcmp(how, "cc"))
		optret = ksock_opt(sock, TCP_CONGESTION, "tonic");
	err = ksock_send_file(sock, f, buf, &total);
	if (err)
		goto out_sock;
	pr_info("tonic_test_ksock: how=%s setsockopt=%d sent=%zu ulp=%s ca=%s\n", how, optret,
		total, inet_csk(sock->sk)->icsk_ulp_ops ? inet_csk(sock->sk)->icsk_ulp_ops->name : "none",
		inet_csk(sock->sk)->icsk_ca_ops->name);
	err = kernel_sock_shutdown(sock, SHUT_WR);
	if (err)
		goto out_sock;
	v.iov_base = buf;
	v.iov_len = 127;
	n = kernel_recvmsg(sock, &msg, &v, 1, 127, MSG_WAITALL);
	if (n <= 0) {
		err = n ? n : -ECONNRESET;
		goto out_sock;
	}
	buf[n] = 0;
	pr_info("tonic_test_ksock: reply %s", buf);
out_sock:
	sock_release(sock);
out_buf:
	kvfree(buf);
out_file:
	filp_close(f, NULL);
	if (err)
		pr_info("tonic_test_ksock: how=%s failed: %d\n", how, err);
	return err;
}

static void __exit tonic_test_ksock_exit(void)
{
}

module_init(tonic_test_ksock_init);
module_exit(tonic_test_ksock_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Tonic self-test: an in-kernel TCP user stays on software TCP");
