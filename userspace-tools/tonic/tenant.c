// SPDX-License-Identifier: GPL-2.0
/*
 * tonic tenant add NAME { uid UID | cgroup PATH } [fixed N]
 * tonic tenant del NAME
 * tonic tenant show [[name] NAME]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include "tonic.h"

struct tenant_req {
	const char *name;
	bool have_uid, have_cgroup, have_fixed;
	uint32_t uid, fixed;
	uint64_t cgroup;
};

static int tenant_build(struct nl_msg *msg, void *arg)
{
	const struct tenant_req *r = arg;

	if ((r->name && nla_put_string(msg, TONIC_A_TENANT_NAME, r->name)) ||
	    (r->have_uid && nla_put_u32(msg, TONIC_A_TENANT_UID, r->uid)) ||
	    (r->have_cgroup && nla_put_u64(msg, TONIC_A_TENANT_CGROUP, r->cgroup)) ||
	    (r->have_fixed && nla_put_u32(msg, TONIC_A_TENANT_FIXED, r->fixed)))
		return -EMSGSIZE;
	return 0;
}

static int tenant_reply(struct nlattr **tb, int cmd, void *arg)
{
	(void)cmd;
	(void)arg;
	out_begin_object();
	if (!json)
		out_text("%s: ", tn_str(tb[TONIC_A_TENANT_NAME]));
	else
		out_str("name", tn_str(tb[TONIC_A_TENANT_NAME]));
	if (tb[TONIC_A_TENANT_UID])
		out_u64("uid", tn_u32(tb[TONIC_A_TENANT_UID]));
	if (tb[TONIC_A_TENANT_CGROUP])
		out_u64("cgroup", tn_u64(tb[TONIC_A_TENANT_CGROUP]));
	out_u64("fixed", tn_u32(tb[TONIC_A_TENANT_FIXED]));
	out_u64("flows", tn_u32(tb[TONIC_A_TENANT_FLOWS]));
	out_u64("congested", tn_u32(tb[TONIC_A_TENANT_CONGESTED]));
	out_u64("value", tn_u32(tb[TONIC_A_TENANT_VALUE]));
	out_end_object();
	if (!json)
		out_text("\n");
	return 0;
}

/*
 * A cgroup v2 directory's id, as the kernel's cgroup_id(): its file handle
 * (as bpftool reads it), or, on a kernel without file handles
 * (CONFIG_FHANDLE), its inode number, which is the same on 64-bit.
 */
static int cgroup_id_of(const char *path, uint64_t *id)
{
	struct {
		struct file_handle fh;
		uint64_t id;
	} h = { .fh.handle_bytes = sizeof(uint64_t) };
	struct statfs sfs;
	struct stat st;
	int mnt;

	errno = 0;
	if (statfs(path, &sfs) || sfs.f_type != CGROUP2_SUPER_MAGIC || stat(path, &st)) {
		fprintf(stderr, "tonic: tenant: %s: not a cgroup v2 directory%s%s\n", path,
			errno ? ": " : "", errno ? strerror(errno) : "");
		return -1;
	}
	if (!name_to_handle_at(AT_FDCWD, path, &h.fh, &mnt, 0) && h.fh.handle_bytes == 8)
		memcpy(id, h.fh.f_handle, sizeof(*id));
	else
		*id = st.st_ino;
	return 0;
}

static int tenant_add(int argc, char **argv)
{
	static const struct word keys[] = {
		{ "uid", 0 }, { "cgroup", 1 }, { "fixed", 2 }, { NULL, 0 }
	};
	struct tenant_req r = { 0 };
	const char *cgroup = NULL;

	if (argc < 1)
		usage_error("tenant add: NAME { uid UID | cgroup PATH } [fixed N]");
	r.name = argv[0];
	if (!*r.name || strlen(r.name) > 15)
		usage_error("tenant add: a name of 1 to 15 characters");
	for (argc--, argv++; argc > 0; argc -= 2, argv += 2) {
		int key = match_word("tenant add: key", argv[0], keys);

		if (key < 0)
			usage_error("tenant add: unknown key \"%s\" (uid, cgroup, fixed)", argv[0]);
		if (argc < 2)
			usage_error("tenant add: \"%s\" needs a value", argv[0]);
		switch (key) {
		case 0:
			r.have_uid = true;
			if (parse_u32("uid", argv[1], UINT32_MAX - 1, &r.uid))
				return EXIT_USAGE;
			break;
		case 1:
			r.have_cgroup = true;
			cgroup = argv[1];
			break;
		case 2:
			r.have_fixed = true;
			if (parse_u32("fixed", argv[1], 65535, &r.fixed))
				return EXIT_USAGE;
			break;
		}
	}
	if (r.have_uid == r.have_cgroup)
		usage_error("tenant add: give a uid or a cgroup");
	if (cgroup && cgroup_id_of(cgroup, &r.cgroup))
		return EXIT_USAGE;
	return tn_request("tenant add", TONIC_CMD_TENANT_NEW, false, TONIC_A_TENANT_MAX,
			  tenant_build, NULL, &r);
}

int cmd_tenant(int argc, char **argv)
{
	struct tenant_req r = { 0 };
	int err;

	static const struct word cmds[] = {
		{ "show", 0 }, { "list", 0 }, { "help", 1 }, { "add", 2 }, { "del", 3 },
		{ "delete", 3 }, { NULL, 0 }
	};

	if (argc > 0) {
		switch (match_word("tenant: command", argv[0], cmds)) {
		case 0:
			argc--;
			argv++;
			break;
		case 1:
			printf("Usage: tonic tenant show [[name] NAME]\n"
			       "       tonic tenant add NAME { uid UID | cgroup PATH } [fixed N]\n"
			       "       tonic tenant del NAME\n");
			return 0;
		case 2:
			return tenant_add(argc - 1, argv + 1);
		case 3:
			if (argc != 2)
				usage_error("tenant del: NAME");
			r.name = argv[1];
			return tn_request("tenant del", TONIC_CMD_TENANT_DEL, false,
					  TONIC_A_TENANT_MAX, tenant_build, NULL, &r);
		default:
			usage_error("tenant: unknown command \"%s\" (try: tonic tenant show)",
				    argv[0]);
		}
	}
	if (argc > 0 && !strcmp(argv[0], "name")) {
		argc--;
		argv++;
		if (!argc)
			usage_error("tenant show: \"name\" needs a tenant name");
	}
	if (argc > 0) {
		r.name = argv[0];
		argc--;
		argv++;
	}
	if (argc > 0)
		usage_error("tenant show: unexpected \"%s\"", argv[0]);
	out_begin_array();
	err = tn_request("tenant show", TONIC_CMD_TENANT_GET, !r.name, TONIC_A_TENANT_MAX,
			 tenant_build, tenant_reply, &r);
	if (err == -EPERM)
		tn_default_errmsg("tenants are the host's: needs CAP_NET_ADMIN in init_net");
	out_end_array();
	out_newline();
	return err;
}
