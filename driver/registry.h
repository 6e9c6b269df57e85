/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Registering a transport program, from any module, like
 * tcp_register_congestion_control():
 *
 *	static struct tonic_prog_ops my_prog = {
 *		.name = "mine", .owner = THIS_MODULE, .credit = ..., ...
 *	};
 *	module_init: return tonic_register_program(&my_prog);
 *	module_exit: tonic_unregister_program(&my_prog);
 *
 * The program is then offered by every device that runs host programs
 * (the soft device; a PCIe Tonic runs the programs its bitstream has), and
 * chosen by name like a built-in: net.tonic.program, TONIC_PROGRAM, the
 * defaults over netlink, tonic_rdma's "program" parameter.
 */
#ifndef _TONIC_REGISTRY_H
#define _TONIC_REGISTRY_H

#include "program.h"

/* A program's name, NUL included, fits in this (TCP_CA_NAME_MAX). */
#define TONIC_PROG_NAME_MAX	16

/* -EINVAL: @p breaks a rule of program.h; -EEXIST: its name is taken. */
int tonic_register_program(const struct tonic_prog_ops *p);
void tonic_unregister_program(const struct tonic_prog_ops *p);

/* The program called @name with a reference on its module, or NULL. */
const struct tonic_prog_ops *tonic_program_get(const char *name);
void tonic_program_hold(const struct tonic_prog_ops *p);
void tonic_program_put(const struct tonic_prog_ops *p);	/* NULL: nothing */

bool tonic_program_exists(const char *name);
/* The name of the @idx-th registered program into @name; false past the last. */
bool tonic_program_name(u32 idx, char name[TONIC_PROG_NAME_MAX]);

/* The built-ins, at module load. */
int tonic_programs_init(void);

#endif /* _TONIC_REGISTRY_H */
