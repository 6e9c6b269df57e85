// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_unpriv: run a command without CAP_NET_ADMIN (the guest has no
 * setpriv/capsh).
 *
 *   tonic_unpriv nobody CMD...   as uid/gid 65534: no capabilities at all
 *   tonic_unpriv nocap CMD...    stay root, but without CAP_NET_ADMIN (dropped
 *                                from the bounding set too, so exec keeps it off)
 */
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>

static int drop_net_admin(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];
	int i;

	if (prctl(PR_CAPBSET_DROP, CAP_NET_ADMIN, 0, 0, 0))
		return -1;
	if (syscall(SYS_capget, &h, d))
		return -1;
	for (i = 0; i < 2; i++) {
		if (CAP_TO_INDEX(CAP_NET_ADMIN) != i)
			continue;
		d[i].effective &= ~CAP_TO_MASK(CAP_NET_ADMIN);
		d[i].permitted &= ~CAP_TO_MASK(CAP_NET_ADMIN);
		d[i].inheritable &= ~CAP_TO_MASK(CAP_NET_ADMIN);
	}
	if (syscall(SYS_capset, &h, d))
		return -1;
	/* Ambient capabilities cannot hold what is not permitted any more. */
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: tonic_unpriv nobody|nocap CMD [ARGS...]\n");
		return 2;
	}
	if (!strcmp(argv[1], "nobody")) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534)) {
			perror("tonic_unpriv: setuid");
			return 2;
		}
	} else if (!strcmp(argv[1], "nocap")) {
		if (drop_net_admin()) {
			perror("tonic_unpriv: dropping CAP_NET_ADMIN");
			return 2;
		}
	} else {
		fprintf(stderr, "tonic_unpriv: \"nobody\" or \"nocap\"\n");
		return 2;
	}
	execvp(argv[2], argv + 2);
	perror("tonic_unpriv: exec");
	return 127;
}
