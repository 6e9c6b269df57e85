// SPDX-License-Identifier: GPL-2.0
/*
 * A cgroup sock_ops program that puts every TCP connection of its cgroup
 * on the congestion control "tonic" once it is established, which offloads
 * the connection's send path (Documentation/admin-guide.rst, "BPF").
 * Built with clang -target bpf; no libbpf needed (test 60 loads it with
 * tonic_bpf_load, bpftool or libbpf load it as they are).
 */
#include <linux/bpf.h>

#define SEC(name)	__attribute__((section(name), used))
#define SOL_TCP		6
#define TCP_CONGESTION	13

static long (*bpf_setsockopt)(void *ctx, int level, int optname, void *optval, int optlen) =
	(void *)BPF_FUNC_setsockopt;

SEC("sockops")
int tonic_cc(struct bpf_sock_ops *skops)
{
	char cc[8] = "tonic";

	switch (skops->op) {
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB:
		bpf_setsockopt(skops, SOL_TCP, TCP_CONGESTION, cc, sizeof(cc));
		break;
	}
	return 1;
}

char _license[] SEC("license") = "GPL";
