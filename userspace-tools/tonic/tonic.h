/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tonic(8): the admin tool of Tonic for Linux, on the "tonic" generic
 * netlink family (include/uapi/linux/tonic.h).
 */
#ifndef _TONIC_TOOL_H
#define _TONIC_TOOL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>
#include <linux/tonic.h>

#define EXIT_USAGE	2

extern bool json;
extern bool pretty;	/* -p: indented JSON */
extern int show_stats;	/* -s */

/*
 * nl.c: one request, its replies to @cb (NULL: none expected).  The first
 * request opens the socket (exit 1 if the family is not registered).
 */
typedef int (*tn_reply_fn)(struct nlattr **tb, int cmd, void *arg);
typedef int (*tn_build_fn)(struct nl_msg *msg, void *arg);
void tn_close(void);
/* 0, or a negative errno with the kernel's message printed. */
int tn_request(const char *what, int cmd, bool dump, int maxattr, tn_build_fn build,
	       tn_reply_fn reply, void *arg);
/* Join the events group and hand every notification to @reply (never returns unless error). */
int tn_listen(int maxattr, tn_reply_fn reply, void *arg);
const char *tn_errmsg(void);
/* Say @msg about the last error unless the kernel said something. */
void tn_default_errmsg(const char *msg);
/* The message being handed to a reply function. */
struct nlmsghdr *tn_cur_msg(void);

/* Attribute access with length checks (0 / "" when absent or malformed). */
uint32_t tn_u32(struct nlattr *a);
uint64_t tn_u64(struct nlattr *a);
uint16_t tn_u16(struct nlattr *a);
uint8_t tn_u8(struct nlattr *a);
const char *tn_str(struct nlattr *a);

/* out.c: text or JSON. */
void out_begin_array(void);
void out_end_array(void);
void out_begin_object(void);
void out_end_object(void);
void out_key_array(const char *key);
void out_key_object(const char *key);
/* The key of a value whose text name is not its YNL attribute's. */
const char *K(const char *text, const char *ynl);
void out_str(const char *key, const char *v);
void out_u64(const char *key, uint64_t v);
void out_bool(const char *key, bool v);
void out_onoff(const char *key, bool v);	/* text: on/off; JSON: true/false */
void out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));	/* text mode only */
void out_array_str(const char *v);
void out_array_u64(uint64_t v);
void out_newline(void);	/* JSON: newline after a top-level value */
void out_flush(void);

/* Argument helpers (main.c). */
struct word {
	const char *name;
	int id;
};
int match_word(const char *what, const char *arg, const struct word *words);
int parse_u32(const char *what, const char *s, uint32_t max, uint32_t *v);
void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* Commands: argc/argv after the command word. */
int cmd_dev(int argc, char **argv);
int cmd_flow(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_set(int argc, char **argv);
int cmd_defaults(int argc, char **argv);
int cmd_sock(int argc, char **argv);
int sock_show(int argc, char **argv);	/* sockdiag.c */
int cmd_monitor(int argc, char **argv);
int cmd_tenant(int argc, char **argv);

/* flow.c: print one flow (also for monitor). */
void flow_print(struct nlattr **tb, const char *event);

#endif
