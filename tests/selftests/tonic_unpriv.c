// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_unpriv: run a command without CAP_NET_ADMIN (the guest has no
 * setpriv/capsh).
 *
 *   tonic_unpriv nobody CMD...   as uid/gid 65534: no capabilities at all
 *   tonic_unpriv nocap CMD...    stay root, but without CAP_NET_ADMIN (dropped
 *                                from the bounding set too, so exec keeps it off)
 *   tonic_unpriv userns CMD...   as uid/gid 65534, then root of a new user
 *                                namespace owning a new network namespace: what
 *                                any user can make (unshare -Urn); exit 4 if
 *                                the kernel does not let unprivileged users
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <linux/capability.h>

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

static int become_nobody(void)
{
	return setgroups(0, NULL) || setgid(65534) || setuid(65534) ? -1 : 0;
}

/* As nobody: a user namespace (we are its root) and a network namespace it owns. */
static int userns(void)
{
	if (become_nobody()) {
		perror("tonic_unpriv: setuid");
		return 2;
	}
	/* Changing uid made us non-dumpable: /proc/self would stay root's. */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)) {
		perror("tonic_unpriv: PR_SET_DUMPABLE");
		return 2;
	}
	if (unshare(CLONE_NEWUSER | CLONE_NEWNET)) {
		int e = errno;	/* perror() may change it */

		perror("tonic_unpriv: unshare(CLONE_NEWUSER | CLONE_NEWNET)");
		/* Disabled, over the limit, or a kernel without user namespaces: skip. */
		return e == EPERM || e == ENOSPC || e == EINVAL ? 4 : 2;
	}
	if (write_file("/proc/self/setgroups", "deny") ||
	    write_file("/proc/self/uid_map", "0 65534 1") ||
	    write_file("/proc/self/gid_map", "0 65534 1")) {
		perror("tonic_unpriv: id maps");
		return 2;
	}
	return 0;
}

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
	int rc;

	if (argc < 3) {
		fprintf(stderr, "usage: tonic_unpriv nobody|nocap|userns CMD [ARGS...]\n");
		return 2;
	}
	if (!strcmp(argv[1], "nobody")) {
		if (become_nobody()) {
			perror("tonic_unpriv: setuid");
			return 2;
		}
	} else if (!strcmp(argv[1], "nocap")) {
		if (drop_net_admin()) {
			perror("tonic_unpriv: dropping CAP_NET_ADMIN");
			return 2;
		}
	} else if (!strcmp(argv[1], "userns")) {
		rc = userns();
		if (rc)
			return rc;
	} else {
		fprintf(stderr, "tonic_unpriv: \"nobody\", \"nocap\" or \"userns\"\n");
		return 2;
	}
	execvp(argv[2], argv + 2);
	perror("tonic_unpriv: exec");
	return 127;
}
