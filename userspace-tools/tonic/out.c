// SPDX-License-Identifier: GPL-2.0
/*
 * Output: a small JSON writer (-j), or "key value" text in the iproute2
 * manner.  In text mode the structure calls print nothing; commands lay out
 * their own lines with out_str()/out_u64() ("key value " pairs).
 */
#include <stdio.h>
#include <inttypes.h>
#include "tonic.h"

bool json;
static int depth;
static bool first[32] = { true };

static void sep(void)
{
	if (!first[depth])
		putchar(',');
	first[depth] = false;
}

static void jstr(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void open_(char c)
{
	putchar(c);
	if (depth < 31)
		depth++;
	first[depth] = true;
}

void out_begin_array(void)
{
	if (!json)
		return;
	sep();
	open_('[');
}

void out_end_array(void)
{
	if (!json)
		return;
	depth--;
	putchar(']');
}

void out_begin_object(void)
{
	if (!json)
		return;
	sep();
	open_('{');
}

void out_end_object(void)
{
	if (!json)
		return;
	depth--;
	putchar('}');
}

void out_key_array(const char *key)
{
	if (!json)
		return;
	sep();
	jstr(key);
	putchar(':');
	open_('[');
}

void out_key_object(const char *key)
{
	if (!json)
		return;
	sep();
	jstr(key);
	putchar(':');
	open_('{');
}

void out_str(const char *key, const char *v)
{
	if (!json) {
		printf("%s %s ", key, v);
		return;
	}
	sep();
	jstr(key);
	putchar(':');
	jstr(v);
}

void out_u64(const char *key, uint64_t v)
{
	if (!json) {
		printf("%s %" PRIu64 " ", key, v);
		return;
	}
	sep();
	jstr(key);
	printf(":%" PRIu64, v);
}

void out_bool(const char *key, bool v)
{
	if (!json) {
		if (v)
			printf("%s ", key);
		return;
	}
	sep();
	jstr(key);
	printf(":%s", v ? "true" : "false");
}

void out_array_str(const char *v)
{
	if (!json) {
		printf("%s ", v);
		return;
	}
	sep();
	jstr(v);
}

void out_newline(void)
{
	if (json && depth == 0) {
		putchar('\n');
		first[0] = true;
	}
	fflush(stdout);
}
