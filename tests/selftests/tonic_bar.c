// SPDX-License-Identifier: GPL-2.0
/*
 * tonic_bar: read or write one 32-bit register of a PCI memory BAR through
 * its sysfs resource file (the guest has no setpci/devmem), for tests that
 * play a broken or hostile device.
 *
 *   tonic_bar /sys/bus/pci/devices/BDF/resourceN OFFSET          print it (0x%08x)
 *   tonic_bar /sys/bus/pci/devices/BDF/resourceN OFFSET VALUE    write it
 *
 * OFFSET must be 32-bit aligned and inside the first 64 KiB.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAP_LEN	65536

int main(int argc, char **argv)
{
	volatile uint32_t *reg;
	unsigned long off;
	void *map;
	int fd;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: tonic_bar RESOURCE OFFSET [VALUE]\n");
		return 2;
	}
	off = strtoul(argv[2], NULL, 0);
	if (off % 4 || off >= MAP_LEN) {
		fprintf(stderr, "tonic_bar: bad offset %s\n", argv[2]);
		return 2;
	}
	fd = open(argv[1], argc == 4 ? O_RDWR | O_SYNC : O_RDONLY | O_SYNC);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	map = mmap(NULL, MAP_LEN, argc == 4 ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED,
		   fd, 0);
	if (map == MAP_FAILED) {
		perror("tonic_bar: mmap");
		return 1;
	}
	reg = (volatile uint32_t *)((char *)map + off);
	if (argc == 4)
		*reg = (uint32_t)strtoul(argv[3], NULL, 0);
	else
		printf("0x%08x\n", *reg);
	munmap(map, MAP_LEN);
	close(fd);
	return 0;
}
