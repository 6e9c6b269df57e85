// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_bpf_load: attach a sock_ops program from a BPF object (clang
 * -target bpf) to a cgroup, with the bpf() syscall alone (no libbpf in
 * the guest).  Only what test 60 needs: the object's section SECTION holds
 * the program's instructions and has no relocations (no maps, no
 * globals); the "license" section its license.
 *
 *   tonic_bpf_load attach OBJ SECTION CGROUP_DIR
 *   tonic_bpf_load detach CGROUP_DIR
 *
 * The attachment stays after exit (the cgroup holds the program) until
 * detached or the cgroup is removed.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

static void die(const char *what)
{
	fprintf(stderr, "tonic_bpf_load: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* Section @name of the ELF image @img: its bytes and size, or NULL. */
static const void *elf_section(const char *img, size_t size, const char *name, size_t *len)
{
	const Elf64_Ehdr *eh = (const void *)img;
	const Elf64_Shdr *sh, *strs;
	int i;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_machine != EM_BPF ||
	    eh->e_shoff + (size_t)eh->e_shnum * sizeof(*sh) > size || eh->e_shstrndx >= eh->e_shnum) {
		fprintf(stderr, "tonic_bpf_load: not a 64-bit BPF ELF object\n");
		exit(1);
	}
	sh = (const void *)(img + eh->e_shoff);
	strs = &sh[eh->e_shstrndx];
	for (i = 0; i < eh->e_shnum; i++) {
		const char *n = img + strs->sh_offset + sh[i].sh_name;

		if (strs->sh_offset + sh[i].sh_name >= size || strcmp(n, name))
			continue;
		if (sh[i].sh_offset + sh[i].sh_size > size)
			break;
		*len = sh[i].sh_size;
		return img + sh[i].sh_offset;
	}
	return NULL;
}

static int attach(const char *obj, const char *sec, const char *cg)
{
	static char log[65536];
	char license[64] = "", rel[256];
	const void *insns, *lic;
	union bpf_attr a;
	size_t len, llen;
	struct stat st;
	char *img;
	int fd, prog, cgfd;

	fd = open(obj, O_RDONLY);
	if (fd < 0 || fstat(fd, &st))
		die(obj);
	img = malloc(st.st_size);
	if (!img || read(fd, img, st.st_size) != st.st_size)
		die(obj);
	close(fd);
	insns = elf_section(img, st.st_size, sec, &len);
	if (!insns || !len || len % sizeof(struct bpf_insn)) {
		fprintf(stderr, "tonic_bpf_load: no program in section %s\n", sec);
		return 1;
	}
	snprintf(rel, sizeof(rel), ".rel%s", sec);
	if (elf_section(img, st.st_size, rel, &llen)) {
		fprintf(stderr, "tonic_bpf_load: %s has relocations (maps, globals): not supported\n",
			sec);
		return 1;
	}
	lic = elf_section(img, st.st_size, "license", &llen);
	if (lic)
		memcpy(license, lic, llen < sizeof(license) - 1 ? llen : sizeof(license) - 1);

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCK_OPS;
	a.insns = (unsigned long)insns;
	a.insn_cnt = len / sizeof(struct bpf_insn);
	a.license = (unsigned long)license;
	a.log_buf = (unsigned long)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	strncpy(a.prog_name, "tonic_cc", sizeof(a.prog_name) - 1);
	prog = sys_bpf(BPF_PROG_LOAD, &a);
	if (prog < 0) {
		fprintf(stderr, "%s", log);
		die("BPF_PROG_LOAD");
	}
	cgfd = open(cg, O_RDONLY | O_DIRECTORY);
	if (cgfd < 0)
		die(cg);
	memset(&a, 0, sizeof(a));
	a.target_fd = cgfd;
	a.attach_bpf_fd = prog;
	a.attach_type = BPF_CGROUP_SOCK_OPS;
	if (sys_bpf(BPF_PROG_ATTACH, &a))
		die("BPF_PROG_ATTACH");
	printf("attached %s:%s (%zu instructions, license %s) to %s\n", obj, sec,
	       len / sizeof(struct bpf_insn), license, cg);
	return 0;
}

static int detach(const char *cg)
{
	union bpf_attr a;
	int cgfd;

	cgfd = open(cg, O_RDONLY | O_DIRECTORY);
	if (cgfd < 0)
		die(cg);
	memset(&a, 0, sizeof(a));
	a.target_fd = cgfd;
	a.attach_type = BPF_CGROUP_SOCK_OPS;
	if (sys_bpf(BPF_PROG_DETACH, &a))
		die("BPF_PROG_DETACH");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "attach"))
		return attach(argv[2], argv[3], argv[4]);
	if (argc == 3 && !strcmp(argv[1], "detach"))
		return detach(argv[2]);
	fprintf(stderr, "usage: tonic_bpf_load attach OBJ SECTION CGROUP_DIR\n"
		"       tonic_bpf_load detach CGROUP_DIR\n");
	return 2;
}
