// SPDX-License-Identifier: GPL-2.0
/*
 * Output: a small JSON writer (-j; -p indents it), or "key value" text in
 * the iproute2 manner.  In text mode the structure calls print nothing;
 * commands lay out their own lines with out_str()/out_u64() ("key value"
 * pairs) and out_text().  Text goes through a line buffer that drops the
 * spaces at the end of every line.  JSON strings are UTF-8 as RFC 8259
 * wants: valid UTF-8 passes through intact, control characters are
 * escaped, a byte that is not UTF-8 becomes U+FFFD.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>
#include "tonic.h"

bool json;
bool pretty;
int show_stats;
static int depth;
static bool first[32] = { true };

/* Text mode: the current line, its trailing blanks dropped at '\n'. */
static char line[8192];
static size_t llen;

static void line_flush(bool nl)
{
	while (llen && line[llen - 1] == ' ')
		llen--;
	fwrite(line, 1, llen, stdout);
	if (nl)
		putchar('\n');
	llen = 0;
}

static void text_put(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n') {
			line_flush(true);
			continue;
		}
		if (llen == sizeof(line))
			line_flush(false);
		line[llen++] = *s;
	}
}

void out_text(const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (json)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0) {
		text_put(s);
		free(s);
	}
	va_end(ap);
}

/* -p: a new line, indented for level @d. */
static void indent(int d)
{
	if (pretty)
		printf("\n%*s", 4 * d, "");
}

static void sep(void)
{
	if (!first[depth])
		putchar(',');
	first[depth] = false;
	if (depth)
		indent(depth);
}

/* The length of the UTF-8 sequence at @s (1..4), 0 if it is not one. */
static int utf8_len(const unsigned char *s)
{
	unsigned int cp;
	int n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	/* No overlong forms, no surrogates, nothing past U+10FFFF. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static void jstr(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	putchar('"');
	while (*s) {
		int n = utf8_len(s);

		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", stdout);
		else if (*s == '\t')
			fputs("\\t", stdout);
		else if (*s < 0x20 || *s == 0x7f)
			printf("\\u%04x", *s);
		else if (n)
			fwrite(s, 1, n, stdout);
		else
			fputs("\\ufffd", stdout);
		s += n ? n : 1;
	}
	putchar('"');
}

/*
 * A JSON key is the YNL attribute name (Documentation/netlink/specs/
 * tonic.yaml): the text key with '-' for '_', or K()'s second name.
 */
static void key(const char *k)
{
	sep();
	putchar('"');
	for (; *k; k++)
		putchar(*k == '_' ? '-' : *k);
	putchar('"');
	fputs(pretty ? ": " : ":", stdout);
}

const char *K(const char *text, const char *ynl)
{
	return json ? ynl : text;
}

static void open_(char c)
{
	putchar(c);
	if (depth < 31)
		depth++;
	first[depth] = true;
}

static void close_(char c)
{
	bool empty = first[depth];

	depth--;
	if (!empty)
		indent(depth);
	putchar(c);
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
	close_(']');
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
	close_('}');
}

void out_key_array(const char *k)
{
	if (!json)
		return;
	key(k);
	open_('[');
}

void out_key_object(const char *k)
{
	if (!json)
		return;
	key(k);
	open_('{');
}

void out_str(const char *k, const char *v)
{
	if (!json) {
		out_text("%s %s ", k, v);
		return;
	}
	key(k);
	jstr(v);
}

void out_u64(const char *k, uint64_t v)
{
	if (!json) {
		out_text("%s %" PRIu64 " ", k, v);
		return;
	}
	key(k);
	printf("%" PRIu64, v);
}

void out_bool(const char *k, bool v)
{
	if (!json) {
		if (v)
			out_text("%s ", k);
		return;
	}
	key(k);
	fputs(v ? "true" : "false", stdout);
}

/* A boolean that text shows as "KEY on|off" and JSON as true/false. */
void out_onoff(const char *k, bool v)
{
	if (!json) {
		out_text("%s %s ", k, v ? "on" : "off");
		return;
	}
	out_bool(k, v);
}

void out_array_str(const char *v)
{
	if (!json) {
		out_text("%s ", v);
		return;
	}
	sep();
	jstr(v);
}

void out_array_u64(uint64_t v)
{
	if (!json) {
		out_text("%" PRIu64 " ", v);
		return;
	}
	sep();
	printf("%" PRIu64, v);
}

void out_newline(void)
{
	if (json && depth == 0) {
		putchar('\n');
		first[0] = true;
	} else if (!json && llen) {
		line_flush(false);
	}
	fflush(stdout);
}

/* The end of the output: a text line left open is written (without its trailing blanks). */
void out_flush(void)
{
	if (llen)
		line_flush(false);
	fflush(stdout);
}
